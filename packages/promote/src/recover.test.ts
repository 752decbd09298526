import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256 } from '@maestro/core';
import { type WorkflowLayout, workflowLayout, writeJsonAtomic } from '@maestro/fs';
import { runPaths, sessionPaths, summarizeSession, updateDelta } from '@maestro/ledger';
import { addSpecEntry, loadCorpus, loadCorpusFiles } from '@maestro/spec';
import { describe, expect, test } from 'vitest';
import { promoteIntentPath } from './journal.js';
import { planPromotion } from './plan.js';
import { cid, fileReceipts, ledger, NOW, project, R1, runtime, S } from './promote.fixture.js';
import { promote } from './promote.js';

const A = 'Recovered rule alpha.';
const B = 'Recovered rule bravo.';
const K = 'Recovered knowhow tip.';

/** Plans a promotion of every candidate and leaves only its intent on disk, as a crash right after it would. */
function crashAfterIntent(layout: WorkflowLayout) {
  const summary = summarizeSession(layout, S);
  const delta = runPaths(layout, S, R1).delta;
  const sessionJson = sessionPaths(layout, S).sessionJson;
  const plan = planPromotion({
    sessionId: S,
    now: new Date(NOW),
    loaded: loadCorpusFiles(layout),
    items: summary.candidates.map((candidate) => ({
      candidate,
      policy: { kind: 'create' as const, supersedes: null, disposition: 'unique', canonicalId: null },
    })),
    ledgers: new Map([
      [R1, { path: `sessions/${S}/runs/${R1}/knowledge-delta.json`, text: readFileSync(delta, 'utf8') }],
    ]),
    session: { path: `sessions/${S}/session.json`, text: readFileSync(sessionJson, 'utf8') },
  });
  return writeJsonAtomic(promoteIntentPath(layout), {
    schema_version: 'maestro-commit-intent/1.0',
    id: 'crashed0intent00',
    created_at: NOW,
    writes: plan.writes.map((w) => ({ path: w.path, sha256: sha256(w.content), content: w.content })),
    meta: { kind: 'knowledge-promotion/1.0', session_id: S, at: NOW, files: plan.files, promoted: plan.promoted },
  }).then(() => plan);
}

const fixture = () =>
  project({
    runs: [{ runId: R1, candidates: [{ content: A }, { content: B }, { content: K, target: 'knowhow' }] }],
  });
const rerun = (root: string, req: { candidates?: string[]; all?: boolean }) =>
  promote(workflowLayout(root), { sessionId: S, ...req }, runtime(), { receipts: fileReceipts });

describe('recovery of an interrupted promotion', () => {
  test('a rerun completes the journaled promotion and reports created with replayed: true', async () => {
    const root = fixture();
    const plan = await crashAfterIntent(workflowLayout(root));
    const r = await rerun(root, { candidates: [cid(A), cid(B), cid(K, 'knowhow')] });
    expect(r.promoted.map((p) => [p.outcome, p.replayed])).toEqual([
      ['created', true],
      ['created', true],
      ['created', true],
    ]);
    expect(r.already_promoted).toEqual([]);
    expect(r.recovered).toMatchObject({ intent_id: 'crashed0intent00', session_id: S });
    for (const w of plan.writes) expect(readFileSync(join(root, '.workflow', w.path), 'utf8')).toBe(w.content);
    expect(existsSync(promoteIntentPath(workflowLayout(root)))).toBe(false);
  });

  test('a file another writer changed after the crash keeps that change and gets the promotion once', async () => {
    const root = fixture();
    const layout = workflowLayout(root);
    await crashAfterIntent(layout);
    const added = await addSpecEntry(
      layout,
      { category: 'learning', title: 'Written meanwhile', content: 'Between.' },
      runtime(),
    );
    await updateDelta(
      layout,
      S,
      R1,
      (d) => {
        d.inputs.push({
          knowledge_id: added.sid!,
          signal: 'cited',
          source: 'manual',
          count: 1,
          first_recorded_at: NOW,
          last_recorded_at: NOW,
        });
      },
      runtime(),
    );
    const r = await rerun(root, { all: true });
    expect(r.promoted).toHaveLength(3);
    const corpus = loadCorpus(layout);
    expect(corpus.byId.has(added.sid!)).toBe(true);
    expect(corpus.entries.filter((e) => e.store === 'spec')).toHaveLength(3);
    const l = ledger(root);
    expect(l.candidates.every((c) => c.status === 'promoted')).toBe(true);
    const inputs = JSON.parse(readFileSync(runPaths(layout, S, R1).delta, 'utf8')).inputs;
    expect(inputs.map((i: { knowledge_id: string }) => i.knowledge_id)).toEqual([added.sid]);
  });

  test('a damaged intent is an environment error naming the file', async () => {
    const root = fixture();
    writeFileSync(
      promoteIntentPath(workflowLayout(root)),
      '{"schema_version":"maestro-commit-intent/1.0","writes":[],"meta":{}}',
    );
    await expect(rerun(root, { all: true })).rejects.toMatchObject({ code: 'INTENT_DAMAGED', exitCode: 3 });
  });
});

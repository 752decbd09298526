import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { knowledgeBacklog } from '../session/backlog.js';
import { reconcileSession } from '../session/reconcile-session.js';
import { resolveCandidates } from '../session/resolve.js';
import { reviewSession } from '../session/review.js';
import {
  project,
  R1,
  R2,
  ROTATE,
  rotationRuns as runs,
  runtime,
  S,
  specFile,
  UNRELATED as unrelated,
} from '../session/session.fixture.js';
import { checkFreshness, checkReceipts } from './freshness.js';
import { readReceipt, receiptPath } from './io.js';
import { corpusDelta } from './revalidate.js';

async function reconciled() {
  const p = project(runs());
  await reconcileSession(p.layout, S, { refresh: true }, runtime());
  return p;
}

function addSpecs(root: string, entries: { sid: string; title: string; content: string }[]) {
  writeFileSync(join(root, '.workflow/specs/architecture-constraints.md'), specFile(entries, 'arch'));
}

describe('corpusDelta', () => {
  it('lists added, changed and removed ids, sorted', () => {
    expect(corpusDelta({ a: '1', b: '2', c: '3' }, { d: '4', b: '9', a: '1' })).toEqual({
      added: ['d'],
      changed: ['b'],
      removed: ['c'],
    });
  });
});

describe('revalidation', () => {
  it('records every entry hash in a new receipt', async () => {
    const p = await reconciled();
    const r = readReceipt(p.layout, S, R1);
    expect(Object.keys(r?.corpus_entries ?? {}).sort()).toEqual([
      'S-20260101-img1',
      'S-20260101-lg01',
      'S-20260101-utc1',
    ]);
  });

  it('12 unrelated new entries: fresh in memory, written back with revalidated_from only when asked', async () => {
    const p = await reconciled();
    const before = readFileSync(receiptPath(p.layout, S, R1), 'utf8');
    addSpecs(p.root, unrelated);
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('stale');
    const memory = await checkReceipts(p.layout, S, [R1, R2]);
    expect([...memory.values()].map((c) => c.state)).toEqual(['fresh', 'fresh']);
    expect(readFileSync(receiptPath(p.layout, S, R1), 'utf8')).toBe(before);
    const view = await reviewSession(p.layout, S, {}, runtime());
    expect(view.counts.stale).toBe(0);
    const backlog = await knowledgeBacklog(p.layout, {}, runtime());
    expect(backlog.items.map((i) => i.freshness)).toEqual(['fresh', 'fresh']);
    expect(view.runs[0].revalidated).toMatchObject({ added: 12, changed: 0, removed: 0 });
    await checkReceipts(p.layout, S, [R1], { revalidate: 'write', now: '2026-03-05T00:00:00.000Z' });
    const after = readReceipt(p.layout, S, R1);
    expect(after?.revalidated_from).toEqual({
      corpus_fingerprint: JSON.parse(before).corpus_fingerprint,
      delta: { added: unrelated.map((u) => u.sid), changed: [], removed: [] },
      revalidated_at: '2026-03-05T00:00:00.000Z',
    });
    expect(after?.candidates).toEqual(JSON.parse(before).candidates);
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('fresh');
  });

  it('a new entry the candidate duplicates keeps it stale and names the entry', async () => {
    const p = await reconciled();
    addSpecs(p.root, [...unrelated.slice(0, 2), { sid: 'S-20260201-rot1', title: 'Rotation', content: ROTATE }]);
    const check = (await checkReceipts(p.layout, S, [R1, R2])).get(R1);
    expect(check?.state).toBe('stale');
    const reasons = check?.state === 'stale' ? check.reasons.join(' ') : '';
    expect(reasons).toContain('S-20260201-rot1');
    expect(reasons).toMatch(/added since the receipt, now matches it as exact_duplicate/);
    expect((await checkReceipts(p.layout, S, [R2])).get(R2)?.state).toBe('fresh');
    const backlog = await knowledgeBacklog(p.layout, {}, runtime());
    expect(Object.fromEntries(backlog.items.map((i) => [i.title, i.freshness]))).toEqual({
      'Log rotation': 'stale',
      'Form labels': 'fresh',
    });
    const view = await reviewSession(p.layout, S, {}, runtime());
    expect(view.runs.find((r) => r.run_id === R1)?.reasons.join(' ')).toContain('S-20260201-rot1');
  });

  it('an edit to an entry a match named keeps it stale', async () => {
    const p = await reconciled();
    const path = join(p.layout.specs, 'coding-conventions.md');
    const match = readReceipt(p.layout, S, R1)?.candidates[0].matches[0];
    expect(match?.knowledge_id).toBe('S-20260101-lg01');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace('Use pino for application logging.', 'Never rotate log files.'),
    );
    const check = (await checkReceipts(p.layout, S, [R1])).get(R1);
    expect(check).toMatchObject({ state: 'stale' });
    expect(check?.state === 'stale' && check.reasons.join(' ')).toContain('S-20260101-lg01');
  });

  it('a new matcher revision or new candidates are never revalidated', async () => {
    const p = await reconciled();
    addSpecs(p.root, unrelated);
    const path = receiptPath(p.layout, S, R1);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/"matcher_revision": "[^"]+"/, '"matcher_revision": "maestro-match/0.9"'),
    );
    const check = (await checkReceipts(p.layout, S, [R1])).get(R1);
    expect(check?.state === 'stale' && check.reasons.join(' ')).toMatch(/matcher revision maestro-match\/0.9/);
  });

  it('a receipt without entry hashes stays stale and says why', async () => {
    const p = await reconciled();
    const path = receiptPath(p.layout, S, R1);
    const json = JSON.parse(readFileSync(path, 'utf8'));
    delete json.corpus_entries;
    writeFileSync(path, JSON.stringify(json));
    appendFileSync(join(p.layout.specs, 'ui-conventions.md'), '\n<!-- prose -->\n');
    const check = (await checkReceipts(p.layout, S, [R1])).get(R1);
    expect(check?.state === 'stale' && check.reasons.join(' ')).toMatch(/no per-entry corpus hashes/);
  });

  it('a confirmed resolution whose target changed is not carried over by revalidation', async () => {
    const p = await reconciled();
    const id = candidateId('spec', ROTATE);
    const entry = readReceipt(p.layout, S, R1)?.candidates[0];
    expect(entry?.candidate_id).toBe(id);
    await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [id], choice: 'related', target: 'S-20260101-lg01', reason: 'both about logs' },
      runtime(),
    );
    const path = join(p.layout.specs, 'coding-conventions.md');
    writeFileSync(path, readFileSync(path, 'utf8').replace('title="Logger"', 'title="Logging library"'));
    const check = (await checkReceipts(p.layout, S, [R1])).get(R1);
    expect(check?.state === 'stale' && check.reasons.join(' ')).toMatch(
      /S-20260101-lg01.*changed since the receipt.*is the target of its confirmed resolution/,
    );
  });
});

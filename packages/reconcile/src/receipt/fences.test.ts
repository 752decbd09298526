import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId } from '@maestro/core';
import { closeStores } from '@maestro/store';
import { sessionTree, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { reconcileSession } from '../session/reconcile-session.js';
import { project, R1, R2, runtime, S } from '../session/session.fixture.js';
import { computeCorpusFingerprint, RACY_WINDOW_MS } from './fingerprint.js';
import { checkFreshness, checkReceipts, receiptIsFresh } from './freshness.js';
import { ReceiptCorruptError, readReceipt, receiptPath } from './io.js';

const WINSTON = 'Use winston for application logging.';
const runs = () => [
  { runId: R1, candidates: [{ content: WINSTON, title: 'Logger' }] },
  { runId: R2, candidates: [{ content: 'Rotate log files daily.', title: 'Rotation' }] },
];

async function fresh(root = project(runs())) {
  await reconcileSession(root.layout, S, { refresh: true }, runtime());
  return root;
}

/** Moves every corpus file's mtime into the past, as if it had settled long ago. */
function settle(dir: string) {
  const past = new Date(Date.now() - 60_000);
  for (const f of ['coding-conventions.md', 'ui-conventions.md']) utimesSync(join(dir, f), past, past);
}

describe('freshness fences', () => {
  it('is missing before reconciliation and fresh after, with the three fences recorded', async () => {
    const p = project(runs());
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('missing');
    await reconcileSession(p.layout, S, { refresh: true }, runtime());
    const r = await checkFreshness(p.layout, S, R1);
    expect(r.state).toBe('fresh');
    expect(r.receipt).toMatchObject({
      schema_version: 'knowledge-reconciliation/1.0',
      candidate_snapshot_hash: r.expected.candidate_snapshot_hash,
      corpus_fingerprint: r.expected.corpus_fingerprint,
      matcher_revision: r.expected.matcher_revision,
    });
    expect(r.receipt?.candidates[0].disposition).toBe('potential_conflict');
    expect(receiptIsFresh(p.layout, S, R1)).toBe(true);
  });

  it('editing one spec makes every receipt stale; an unrelated file does not', async () => {
    const p = await fresh();
    writeTree(p.root, { '.workflow/sessions/20260103-other/notes.md': 'unrelated', '.workflow/specs/README.txt': 'x' });
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('fresh');
    appendFileSync(join(p.layout.specs, 'ui-conventions.md'), '\n<!-- edited -->\n');
    const r = await checkFreshness(p.layout, S, R1);
    expect(r.state).toBe('stale');
    expect(r.reasons.join(' ')).toMatch(/project knowledge .* changed/);
    expect((await checkReceipts(p.layout, S, [R1, R2], { revalidate: 'off' })).get(R2)).toMatchObject({
      state: 'stale',
    });
    // Only prose changed: no entry did, so revalidation carries the receipt over.
    expect((await checkReceipts(p.layout, S, [R1, R2])).get(R2)).toMatchObject({ state: 'fresh' });
  });

  it('a new candidate on the run makes its receipt stale, not the other run', async () => {
    const p = await fresh();
    writeTree(
      p.root,
      sessionTree({
        sessionId: S,
        runs: [{ ...runs()[0], candidates: [...runs()[0].candidates, { content: 'Keep functions under 50 lines.' }] }],
      }),
    );
    expect((await checkFreshness(p.layout, S, R1)).reasons).toEqual([
      'the run’s candidates changed since it was reconciled',
    ]);
    expect((await checkFreshness(p.layout, S, R2)).state).toBe('fresh');
  });

  it('a different matcher revision reads as stale, never as a parse error', async () => {
    const p = await fresh();
    const path = receiptPath(p.layout, S, R1);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/"matcher_revision": "[^"]+"/, '"matcher_revision": "semantic-delta/1.0"'),
    );
    const r = await checkFreshness(p.layout, S, R1);
    expect(r.state).toBe('stale');
    expect(r.reasons[0]).toMatch(/matcher revision semantic-delta\/1.0 is not the current/);
  });

  it('a damaged receipt is a named error; --refresh keeps a copy and rewrites it', async () => {
    const p = await fresh();
    const path = receiptPath(p.layout, S, R1);
    writeFileSync(path, '{ "schema_version": ');
    expect(() => readReceipt(p.layout, S, R1)).toThrow(ReceiptCorruptError);
    await expect(reconcileSession(p.layout, S, {}, runtime())).rejects.toMatchObject({
      code: 'RECEIPT_CORRUPT',
      exitCode: 2,
    });
    const out = await reconcileSession(p.layout, S, { refresh: true }, runtime());
    const row = out.runs.find((r) => r.run_id === R1);
    expect(row).toMatchObject({ before: 'corrupt', after: 'fresh', regenerated: true });
    expect(readFileSync(join(p.root, row?.corrupt_copy ?? ''), 'utf8')).toBe('{ "schema_version": ');
    expect(readReceipt(p.layout, S, R1)?.candidates[0].candidate_id).toBe(candidateId('spec', WINSTON));
  });
});

describe('incremental corpus fingerprint', () => {
  it('stats settled files instead of reading them', async () => {
    const p = project([]);
    settle(p.layout.specs);
    const first = await computeCorpusFingerprint(p.layout);
    expect(first.hashed).toBe(2);
    const second = await computeCorpusFingerprint(p.layout);
    expect(second).toEqual({ ...first, hashed: 0 });
    // Same size and mtime but different bytes: the stored state also compares ctime, so it is still seen.
    const file = join(p.layout.specs, 'ui-conventions.md');
    const st = statSync(file);
    writeFileSync(file, readFileSync(file, 'utf8').replace('alt text', 'ALT TEXT'));
    utimesSync(file, st.atime, st.mtime);
    const third = await computeCorpusFingerprint(p.layout);
    expect(third.hashed).toBe(1);
    expect(third.fingerprint).not.toBe(first.fingerprint);
  });

  it('re-hashes a file whose mtime is too close to when it was hashed (racy-git guard)', async () => {
    const p = project([]);
    const first = await computeCorpusFingerprint(p.layout); // files were just written: racy
    expect(first.hashed).toBe(2);
    const again = await computeCorpusFingerprint(p.layout);
    expect(again.hashed).toBe(2);
    expect(again.fingerprint).toBe(first.fingerprint);
    expect(RACY_WINDOW_MS).toBeGreaterThanOrEqual(1000);
  });

  it('notices edits, new files and removed files; a damaged store is rebuilt', async () => {
    const p = project([]);
    settle(p.layout.specs);
    const a = (await computeCorpusFingerprint(p.layout)).fingerprint;
    appendFileSync(join(p.layout.specs, 'coding-conventions.md'), 'x');
    const b = (await computeCorpusFingerprint(p.layout)).fingerprint;
    writeTree(p.root, { '.workflow/knowhow/tip.md': '---\ntitle: Tip\ntype: tip\n---\n\nbody\n' });
    const c = (await computeCorpusFingerprint(p.layout)).fingerprint;
    expect(new Set([a, b, c]).size).toBe(3);
    closeStores();
    writeFileSync(join(p.layout.index, 'maestro.db'), 'not a database');
    expect((await computeCorpusFingerprint(p.layout)).fingerprint).toBe(c);
  });
});

describe('damaged ledgers', () => {
  it('a session whose ledger is damaged fails by name (exit 2), with or without --refresh', async () => {
    const p = project(runs());
    writeFileSync(join(p.layout.sessions, S, 'runs', R2, 'knowledge-delta.json'), '{"schema_version": ');
    await expect(reconcileSession(p.layout, S, {}, runtime())).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('knowledge-delta.json'),
    });
    await expect(reconcileSession(p.layout, S, { refresh: true }, runtime())).rejects.toMatchObject({ exitCode: 2 });
  });
});

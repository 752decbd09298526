import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withCorpusLock, workflowLayout } from '@maestro/fs';
import { addSpecEntry, loadCorpus, parseSpecFile, renderEntryNode } from '@maestro/spec';
import { copyDir, sessionTree, type Tree, tmpProject, writeTree } from '@maestro/test-utils';
import { afterAll, expect, test } from 'vitest';
import { distinct, idOf, leftovers, m, mAsync, promotedState, refresh } from './promote-helpers.js';

const A = '20260102-alpha';
const B = '20260102-bravo';
const RA = '20260102-001-plan';
const RB = '20260102-001-build';
// 25 candidates per session (every fifth a knowhow tip), 50 in all, no two alike.
const cands = (offset: number) =>
  Array.from({ length: 25 }, (_, i) => distinct(offset + i, i % 5 === 4 ? { target: 'knowhow' } : {}));
const CA = cands(0);
const CB = cands(100);
const ids = (list: typeof CA, from: number, to: number) => list.slice(from, to).map(idOf).join(',');
/** Overlapping selections: two per session, sharing ten candidates each. */
const SELECTIONS: [string, string][] = [
  [A, ids(CA, 0, 18)],
  [A, ids(CA, 8, 25)],
  [B, ids(CB, 0, 18)],
  [B, ids(CB, 8, 25)],
];
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function reviewed(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'maestro-race-'));
  dirs.push(root);
  m(root, ['init']);
  writeTree(root, {
    ...sessionTree({ sessionId: A, runs: [{ runId: RA, candidates: CA }] }),
    ...sessionTree({ sessionId: B, runs: [{ runId: RB, candidates: CB }] }),
  });
  for (const s of [A, B]) await refresh(root, s);
  return root;
}

/** What an agent does: promote; when another promotion made the receipts stale, refresh and retry. */
async function promoter(
  root: string,
  session: string,
  selection: string,
): Promise<{ attempts: number; promoted: string[] }> {
  for (let attempt = 1; attempt <= 12; attempt++) {
    const r = await mAsync(root, ['knowledge', 'promote', session, '--candidate', selection, '--json']);
    if (r.code === 0) {
      const promoted = r.json<{ promoted: { candidate_id: string }[] }>().promoted.map((p) => p.candidate_id);
      return { attempts: attempt, promoted };
    }
    const code = r.json<{ error: { code: string } }>().error.code;
    if (code !== 'RECEIPT_STALE') throw new Error(`unexpected refusal ${code}: ${r.stdout}`);
    await refresh(root, session);
  }
  throw new Error('no progress after 12 attempts');
}

/** Spec files compared as their entries in any order; everything else byte for byte. */
function orderFree(state: Tree): Tree {
  const out: Tree = {};
  for (const [path, text] of Object.entries(state)) {
    if (path.startsWith('specs/')) {
      const segs = parseSpecFile(text, path).value.segments;
      const entries = segs.flatMap((s) => (s.kind === 'entry' ? [renderEntryNode(s)] : []));
      const rest = segs.flatMap((s) => (s.kind === 'text' ? [s.raw.trim()] : []));
      out[path] = JSON.stringify({ entries: entries.sort(), rest });
    } else if (path.endsWith('session.json')) {
      const s = JSON.parse(text);
      s.lifecycle.promoted_spec_ids.sort();
      s.lifecycle.promoted_knowhow_ids.sort();
      out[path] = JSON.stringify(s);
    } else out[path] = text;
  }
  return out;
}

test('4 processes promoting overlapping selections of 50 candidates: each promoted exactly once, same files as serial', async () => {
  const template = await reviewed();
  const serial = mkdtempSync(join(tmpdir(), 'maestro-serial-'));
  dirs.push(serial);
  copyDir(template, serial);
  for (const [s, sel] of SELECTIONS) await promoter(serial, s, sel);

  const racing = mkdtempSync(join(tmpdir(), 'maestro-racing-'));
  dirs.push(racing);
  copyDir(template, racing);
  const runs = await Promise.all(SELECTIONS.map(([s, sel]) => promoter(racing, s, sel)));
  // The other session's promotions are unrelated, so receipts are revalidated under the lock; but
  // of the two promoters of one session, the later finds part of its selection promoted (the
  // candidate snapshot moved): one retry per session at least.
  expect(runs.reduce((n, r) => n + r.attempts, 0)).toBeGreaterThanOrEqual(6);
  const promoted = runs.flatMap((r) => r.promoted);
  expect(promoted).toHaveLength(50);
  expect(new Set(promoted).size).toBe(50);

  const corpus = loadCorpus(workflowLayout(racing));
  expect(corpus.issues.filter((i) => i.severity === 'error')).toEqual([]);
  for (const c of [...CA, ...CB]) {
    const hex = idOf(c).slice(4);
    expect(
      corpus.entries.filter((e) => e.id.endsWith(hex)),
      c.title,
    ).toHaveLength(1);
  }
  for (const s of [A, B]) {
    const again = m(racing, ['knowledge', 'promote', s, '--all', '--json']).json<{ already_promoted: unknown[] }>();
    expect(again.already_promoted).toHaveLength(25);
  }
  expect(orderFree(promotedState(racing))).toEqual(orderFree(promotedState(serial)));
  expect(leftovers(racing)).toEqual([]);
}, 90_000);

test('a duplicate spec add that lands while promote waits for the corpus lock: refused naming it, nothing written', async () => {
  const root = tmpProject(sessionTree({ sessionId: A, runs: [{ runId: RA, candidates: CA.slice(0, 3) }] }));
  m(root, ['init']);
  await refresh(root, A);
  const layout = workflowLayout(root);
  let before: Tree = {};
  let slipped = '';
  // The lock is released when the callback returns, so the pending promoter is handed back boxed.
  const { waiting } = await withCorpusLock(layout, async () => {
    const child = mAsync(root, ['knowledge', 'promote', A, '--all', '--json']);
    await new Promise((r) => setTimeout(r, 800)); // the promoter is up and blocked on the lock
    const added = await addSpecEntry(layout, { category: 'coding', title: 'Slipped in', content: CA[1].content });
    slipped = added.sid ?? '';
    before = promotedState(root);
    return { waiting: child };
  });
  const result = await waiting;
  expect(result.code, result.stdout).toBe(1);
  expect(result.json<{ error: { code: string; hint: string } }>().error).toMatchObject({
    code: 'RECEIPT_STALE',
    message: expect.stringContaining(`entry ${slipped} "Slipped in", added since the receipt, now matches it`),
    hint: expect.stringContaining(`maestro knowledge review ${A} --refresh`),
  });
  expect(promotedState(root)).toEqual(before);
  expect(leftovers(root)).toEqual([]);
  // control: after a refresh the two others go through; the duplicate is suppressed
  await refresh(root, A);
  expect(m(root, ['knowledge', 'promote', A, '--all', '--json']).json<{ promoted: unknown[] }>().promoted).toHaveLength(
    2,
  );
}, 30_000);

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReceiptSchema } from '@maestro/reconcile';
import { sessionTree, tmpProject, writeTree } from '@maestro/test-utils';
import { expect, test } from 'vitest';
import { distinct, idOf, m, mAsync, refresh } from './promote-helpers.js';

/** Two sessions open at once: what another session's promotion does to a receipt (issue 18). */

const A = '20260102-alpha';
const B = '20260102-bravo';
const RA = '20260102-001-plan';
const RB = '20260102-001-build';

type Promoted = { promoted: { candidate_id: string; promoted_id: string }[] };
const receipt = (root: string, s: string, r: string) =>
  ReceiptSchema.parse(
    JSON.parse(readFileSync(join(root, `.workflow/sessions/${s}/runs/${r}/knowledge-reconciliation.json`), 'utf8')),
  );

async function twoSessions(ca: ReturnType<typeof distinct>[], cb: ReturnType<typeof distinct>[]): Promise<string> {
  const root = tmpProject();
  m(root, ['init']);
  writeTree(root, {
    ...sessionTree({ sessionId: A, runs: [{ runId: RA, candidates: ca }] }),
    ...sessionTree({ sessionId: B, runs: [{ runId: RB, candidates: cb }] }),
  });
  await refresh(root, A);
  await refresh(root, B);
  return root;
}

test('after A promotes 12 unrelated entries, B promotes with no re-review; its receipt records the delta', async () => {
  const ca = Array.from({ length: 12 }, (_, i) => distinct(i));
  const cb = [distinct(200), distinct(201)];
  const root = await twoSessions(ca, cb);
  const before = receipt(root, B, RB);
  const a = m(root, ['knowledge', 'promote', A, '--all', '--json']).json<Promoted>();
  expect(a.promoted).toHaveLength(12);
  expect(m(root, ['knowledge', 'gate', '--all']).code).toBe(0);
  const b = m(root, ['knowledge', 'promote', B, '--all', '--json']).json<Promoted>();
  expect(b.promoted.map((p) => p.candidate_id).sort()).toEqual(cb.map(idOf).sort());
  const after = receipt(root, B, RB);
  expect(after.revalidated_from).toMatchObject({
    corpus_fingerprint: before.corpus_fingerprint,
    delta: { added: a.promoted.map((p) => p.promoted_id).sort(), changed: [], removed: [] },
  });
  expect(after.candidates.map((c) => [c.candidate_id, c.disposition, c.promotion_eligibility])).toEqual(
    before.candidates.map((c) => [c.candidate_id, c.disposition, c.promotion_eligibility]),
  );
}, 60_000);

test('after A promotes a rule B’s candidate duplicates, B is refused and the message names that rule', async () => {
  const shared = distinct(300);
  const root = await twoSessions(
    [shared, distinct(301)],
    [{ ...shared, title: 'Same rule, other words' }, distinct(302)],
  );
  const a = m(root, ['knowledge', 'promote', A, '--all', '--json']).json<Promoted>();
  const rule = a.promoted.find((p) => p.candidate_id === idOf(shared))?.promoted_id as string;
  expect(rule).toMatch(/^S-/);
  const specs = readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8');
  const r = m(root, ['knowledge', 'promote', B, '--all', '--json'], 1);
  const error = r.json<{ error: { code: string; message: string } }>().error;
  expect(error.code).toBe('RECEIPT_STALE');
  expect(error.message).toContain(`entry ${rule}`);
  expect(error.message).toMatch(/added since the receipt, now matches it as exact_duplicate/);
  expect(readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8')).toBe(specs);
  const gate = m(root, ['knowledge', 'gate', '--all', '--json'], 1).json<{ reasons: { message: string }[] }>();
  expect(gate.reasons.map((x) => x.message).join(' ')).toContain(rule);
}, 60_000);

test('two sessions promoting at once (real processes): both go through on the first attempt', async () => {
  const ca = Array.from({ length: 8 }, (_, i) => distinct(400 + i));
  const cb = Array.from({ length: 8 }, (_, i) => distinct(500 + i));
  const root = await twoSessions(ca, cb);
  const [ra, rb] = await Promise.all([
    mAsync(root, ['knowledge', 'promote', A, '--all', '--json']),
    mAsync(root, ['knowledge', 'promote', B, '--all', '--json']),
  ]);
  expect([ra.code, rb.code], `${ra.stdout}\n${rb.stdout}`).toEqual([0, 0]);
  expect(ra.json<Promoted>().promoted).toHaveLength(8);
  expect(rb.json<Promoted>().promoted).toHaveLength(8);
  // Whichever took the corpus lock second carried its receipt over the other's promotion.
  const revalidated = [receipt(root, A, RA), receipt(root, B, RB)].filter((x) => x.revalidated_from);
  expect(revalidated).toHaveLength(1);
  expect(revalidated[0].revalidated_from?.delta.added).toHaveLength(8);
  const learnings = readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8');
  for (const c of [...ca, ...cb]) expect(learnings).toContain(c.content);
  expect(m(root, ['knowledge', 'gate', '--all']).code).toBe(0);
}, 60_000);

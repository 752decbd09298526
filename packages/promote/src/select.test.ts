import { isMaestroError, type MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { candidatePolicy } from './policy.js';
import { cid, fileReceipts, ledger, NOW, project, R1, R2, runtime, S, verdict } from './promote.fixture.js';
import { promote } from './promote.js';

const run = (root: string, req: { candidates?: string[]; all?: boolean }) =>
  promote(workflowLayout(root), { sessionId: S, ...req }, runtime(), { receipts: fileReceipts });

async function refusal(p: Promise<unknown>): Promise<MaestroError> {
  try {
    await p;
  } catch (err) {
    if (isMaestroError(err)) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const confirmed = { status: 'confirmed' as const, reason: 'checked', resolved_at: NOW };
const A = 'Eligible rule alpha.';
const B = 'Rule bravo needs review.';
const C = 'Rule charlie duplicates.';
const D = 'Rule delta conflicts.';
const E = 'Rule echo was rejected.';

function mixed() {
  return project({
    runs: [
      {
        runId: R1,
        candidates: [
          { content: A },
          { content: B },
          { content: C },
          { content: D },
          { content: E, status: 'rejected' },
        ],
        verdicts: [
          verdict(cid(A)),
          verdict(cid(B), {
            disposition: 'semantic_duplicate',
            promotion_eligibility: 'review_required',
            canonical_id: 'S-1',
          }),
          verdict(cid(C), { disposition: 'exact_duplicate', promotion_eligibility: 'suppressed', canonical_id: 'S-2' }),
          verdict(cid(D), {
            disposition: 'potential_conflict',
            promotion_eligibility: 'suppressed',
            resolution: confirmed,
          }),
          verdict(cid(E)),
        ],
      },
      { runId: R2, status: 'completed', candidates: [{ content: 'Unsealed rule.' }] },
    ],
  });
}

describe('selection', () => {
  test('--all promotes only the eligible candidate and lists the others by reason with unblocking commands', async () => {
    const root = mixed();
    const r = await run(root, { all: true });
    expect(r.promoted.map((p) => p.candidate_id)).toEqual([cid(A)]);
    expect(r.skipped.review_required.map((s) => s.candidate_id)).toEqual([cid(B)]);
    expect(r.skipped.review_required[0].command).toBe(
      // The promotion changed the corpus: the receipts need a refresh before the resolution.
      `maestro knowledge review ${S} --refresh && maestro knowledge review ${S} --resolve ${cid(B)} --as related --target S-1 --reason "<why>"`,
    );
    expect(r.warnings.map((w) => w.code)).toContain('receipts_stale');
    expect(r.skipped.suppressed.map((s) => s.candidate_id)).toEqual([cid(C)]);
    expect(r.skipped.suppressed[0]).toMatchObject({ disposition: 'exact_duplicate', canonical_id: 'S-2' });
    expect(r.skipped.conflict.map((s) => s.candidate_id)).toEqual([cid(D)]);
    expect(r.skipped.rejected.map((s) => s.candidate_id)).toEqual([cid(E)]);
    expect(r.skipped.unsealed_run[0]).toMatchObject({
      candidate_id: cid('Unsealed rule.'),
      command: `maestro run seal ${R2} --session ${S}`,
    });
    const statuses = Object.fromEntries(ledger(root).candidates.map((c) => [c.candidate_id, c.status]));
    expect(statuses).toEqual({
      [cid(A)]: 'promoted',
      [cid(B)]: 'pending',
      [cid(C)]: 'pending',
      [cid(D)]: 'pending',
      [cid(E)]: 'rejected',
    });
  });

  test.each([
    [B, 'review_required', '--as related --target S-1'],
    [C, 'suppressed', '--as unique'],
    [D, 'a confirmed conflict', '--as unique'],
    [E, 'rejected', '--as unique'],
    ['Unsealed rule.', 'not sealed', `maestro run seal ${R2} --session ${S}`],
  ])(
    'explicitly selecting a non-promotable candidate (%s) is refused with the reason and the command; nothing written',
    async (content, reason, command) => {
      const root = mixed();
      const before = readTree(root);
      const err = await refusal(run(root, { candidates: [cid(A), cid(content)] }));
      expect(err).toMatchObject({ code: 'CANDIDATE_NOT_PROMOTABLE', exitCode: 1 });
      expect(err.message).toContain(cid(content));
      expect(err.message).toContain(reason);
      expect(err.hint).toContain(command);
      expect(readTree(root, (p) => p.endsWith('.lock'))).toEqual(before);
    },
  );

  test('bad selections are input errors (exit 2)', async () => {
    const root = mixed();
    expect(await refusal(run(root, {}))).toMatchObject({ code: 'USAGE', exitCode: 2 });
    expect(await refusal(run(root, { all: true, candidates: [cid(A)] }))).toMatchObject({ code: 'USAGE' });
    const unknown = await refusal(run(root, { candidates: [`${cid(A)},KDC-0000000000000000`] }));
    expect(unknown).toMatchObject({ code: 'UNKNOWN_CANDIDATE', exitCode: 2 });
    expect(unknown.message).toContain('KDC-0000000000000000');
    expect(unknown.hint).toContain(`maestro knowledge review ${S}`);
    const session = await refusal(
      promote(workflowLayout(root), { sessionId: '20260102-nope', all: true }, runtime(), { receipts: fileReceipts }),
    );
    expect(session).toMatchObject({ code: 'SESSION_NOT_FOUND', exitCode: 2 });
  });

  test('comma-separated and repeated --candidate values are one selection', async () => {
    const root = mixed();
    const r = await run(root, { candidates: [`${cid(A)} , ${cid(A)}`] });
    expect(r.promoted.map((p) => p.candidate_id)).toEqual([cid(A)]);
  });

  test('a damaged ledger in the session is named (exit 2) and nothing is written', async () => {
    const root = mixed();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${root}/.workflow/sessions/${S}/runs/${R2}/knowledge-delta.json`, '{ not json');
    const err = await refusal(run(root, { all: true }));
    expect(err).toMatchObject({ code: 'SESSION_DAMAGED', exitCode: 2 });
    expect(err.message).toContain('knowledge-delta.json');
    expect(ledger(root).candidates.every((c) => c.status !== 'promoted')).toBe(true);
  });
});

describe('candidatePolicy', () => {
  const id = 'KDC-0000000000000001';
  test('eligible unique creates; a confirmed supersession names its target', () => {
    expect(candidatePolicy([verdict(id)])).toMatchObject({ kind: 'create', supersedes: null });
    const sup = verdict(id, { disposition: 'supersede_candidate', canonical_id: 'S-old', resolution: confirmed });
    expect(candidatePolicy([sup])).toMatchObject({ kind: 'create', supersedes: 'S-old' });
    const unresolved = { ...sup, promotion_eligibility: 'review_required' as const, resolution: null };
    expect(candidatePolicy([unresolved])).toMatchObject({ kind: 'blocked', reason: 'review_required' });
  });

  test('across runs: conflict beats suppression beats review; disagreement needs review', () => {
    const conflict = verdict(id, { disposition: 'potential_conflict', resolution: confirmed });
    const suppressed = verdict(id, { disposition: 'exact_duplicate', promotion_eligibility: 'suppressed' });
    const review = verdict(id, { promotion_eligibility: 'review_required', disposition: 'extends' });
    expect(candidatePolicy([review, suppressed, conflict])).toMatchObject({ reason: 'conflict' });
    expect(candidatePolicy([review, suppressed])).toMatchObject({ reason: 'suppressed' });
    expect(candidatePolicy([verdict(id), review])).toMatchObject({ reason: 'review_required' });
    const a = verdict(id, { disposition: 'supersede_candidate', canonical_id: 'S-a', resolution: confirmed });
    const b = { ...a, canonical_id: 'S-b' };
    expect(candidatePolicy([a, b])).toMatchObject({ kind: 'blocked', reason: 'review_required' });
    expect(candidatePolicy([a, { ...a }])).toMatchObject({ kind: 'create', supersedes: 'S-a' });
    expect(candidatePolicy([])).toMatchObject({ kind: 'blocked' });
  });

  test('a reaffirmation of an exact duplicate is recorded, not suppressed', () => {
    const v = verdict(id, {
      disposition: 'exact_duplicate',
      promotion_eligibility: 'suppressed',
      canonical_id: 'S-x',
      reaffirms: 'S-x',
    });
    expect(candidatePolicy([v])).toEqual({ kind: 'reaffirm', entryId: 'S-x', disposition: 'exact_duplicate' });
  });
});

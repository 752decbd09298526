import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId } from '@maestro/core';
import { readDeltaFile } from '@maestro/ledger';
import { loadCorpus } from '@maestro/spec';
import { writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { checkFreshness } from '../receipt/freshness.js';
import { readReceipt } from '../receipt/io.js';
import { reconcileSession } from './reconcile-session.js';
import { resolveCandidates } from './resolve.js';
import { LOGGER, project, R1, R2, runtime, S, UTC } from './session.fixture.js';

const WINSTON = 'Use winston for application logging.';
const PARAPHRASE = 'Persist every date-time value as Coordinated Universal Time.';
const cid = (c: string) => candidateId('spec', c);

async function reconciled() {
  const p = project([
    {
      runId: R1,
      candidates: [
        { content: WINSTON, title: 'Logger' },
        { content: PARAPHRASE, title: 'Time' },
      ],
    },
    { runId: R2, candidates: [{ content: PARAPHRASE, title: 'Time' }, { content: 'Prefer small pure functions.' }] },
  ]);
  await reconcileSession(p.layout, S, { refresh: true }, runtime());
  return p;
}

const status = (p: { layout: Parameters<typeof readDeltaFile>[0] }, run: string, id: string) =>
  readDeltaFile(p.layout, S, run).delta.candidates.find((c) => c.candidate_id === id)?.status;

describe('resolve', () => {
  it('fails closed on a missing receipt, naming the refresh command (exit 1)', async () => {
    const p = project([{ runId: R1, candidates: [{ content: WINSTON }] }]);
    await expect(
      resolveCandidates(p.layout, S, { candidateIds: [cid(WINSTON)], choice: 'unique', reason: 'ok' }, runtime()),
    ).rejects.toMatchObject({
      code: 'RECEIPT_STALE',
      exitCode: 1,
      hint: expect.stringContaining(`maestro knowledge review ${S} --refresh`),
    });
  });

  it('fails closed on a stale receipt (reference scenario 17)', async () => {
    const p = await reconciled();
    // A new entry both runs' candidate restates: revalidation cannot carry the receipts over.
    writeTree(p.root, {
      '.workflow/specs/learnings.md': `<spec-entry category="learning" sid="S-20260101-zz01" title="New">\n\n### New\n\n${PARAPHRASE}\n\n</spec-entry>\n`,
    });
    await expect(
      resolveCandidates(
        p.layout,
        S,
        { candidateIds: [cid(PARAPHRASE)], choice: 'duplicate', reason: 'same' },
        runtime(),
      ),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/stale reconciliation on run\(s\) 20260102-001-plan, 20260102-002-build/),
    });
  });

  it('duplicate suppresses and rejects in every source run; unique brings it back (scenarios 18, 19)', async () => {
    const p = await reconciled();
    const id = cid(PARAPHRASE);
    const r = await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [id], choice: 'duplicate', reason: 'same UTC rule' },
      runtime(),
    );
    expect(r.resolved[0]).toMatchObject({
      canonical_id: UTC.sid,
      promotion_eligibility: 'suppressed',
      affected_runs: [R1, R2],
      ledger_status: 'rejected',
    });
    for (const run of [R1, R2]) {
      expect(readReceipt(p.layout, S, run)?.candidates.find((c) => c.candidate_id === id)?.resolution).toMatchObject({
        status: 'confirmed',
        reason: 'same UTC rule',
        choice: 'duplicate',
      });
      expect(status(p, run, id)).toBe('rejected');
    }
    await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [id], choice: 'unique', reason: 'on reflection, distinct' },
      runtime(),
    );
    expect(status(p, R1, id)).toBe('pending');
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('fresh');
  });

  it('checks targets: evidence-backed only, none for unique, required otherwise (scenarios 20, 21)', async () => {
    const p = await reconciled();
    const call = (over: object) =>
      resolveCandidates(
        p.layout,
        S,
        { candidateIds: [cid(WINSTON)], choice: 'duplicate', reason: 'r', ...over },
        runtime(),
      );
    await expect(call({ target: 'S-20260101-img1' })).rejects.toMatchObject({
      code: 'TARGET_NOT_EVIDENCE_BACKED',
      hint: expect.stringContaining('--as unique'),
    });
    await expect(call({ choice: 'unique', target: LOGGER.sid })).rejects.toMatchObject({ code: 'TARGET_NOT_ALLOWED' });
    await expect(
      resolveCandidates(
        p.layout,
        S,
        { candidateIds: [cid('Prefer small pure functions.')], choice: 'duplicate', reason: 'r' },
        runtime(),
      ),
    ).rejects.toMatchObject({ code: 'TARGET_REQUIRED' });
    await expect(call({ reason: '   ' })).rejects.toMatchObject({ code: 'RESOLUTION_REASON_REQUIRED', exitCode: 2 });
    await expect(call({ candidateIds: ['KDC-0000000000000000'] })).rejects.toMatchObject({ code: 'UNKNOWN_CANDIDATE' });
  });

  it('conflict without contest rejects the candidate and leaves the rule untouched', async () => {
    const p = await reconciled();
    const before = readFileSync(join(p.layout.specs, 'coding-conventions.md'), 'utf8');
    const r = await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [cid(WINSTON)], choice: 'conflict', reason: 'pino is the standard' },
      runtime(),
    );
    expect(r).toMatchObject({ contest: false });
    expect(r.resolved[0]).toMatchObject({ conflict_marked: false, ledger_status: 'rejected' });
    expect(readFileSync(join(p.layout.specs, 'coding-conventions.md'), 'utf8')).toBe(before);
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('fresh');
  });

  it('conflict with contest marks the spec target contested and keeps the receipt fresh (scenario 22)', async () => {
    const p = await reconciled();
    const r = await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [cid(WINSTON)], choice: 'conflict', contest: true, reason: 'pino is the standard' },
      runtime(),
    );
    expect(r.resolved[0]).toMatchObject({
      conflict_marked: true,
      promotion_eligibility: 'suppressed',
      ledger_status: 'rejected',
    });
    const logger = loadCorpus(p.layout).byId.get(LOGGER.sid);
    expect(logger?.confidence).toBe('contested');
    expect(logger?.conflict?.note).toBe(`Knowledge candidate ${cid(WINSTON)}: pino is the standard`);
    expect(readFileSync(join(p.layout.specs, 'coding-conventions.md'), 'utf8')).toMatch(/conflict-marker="CMK-/);
    expect((await checkFreshness(p.layout, S, R1)).state).toBe('fresh');
  });

  it('batch-resolves every pending candidate with a disposition', async () => {
    const p = await reconciled();
    const r = await resolveCandidates(
      p.layout,
      S,
      { all: { disposition: 'semantic_duplicate' }, choice: 'duplicate', reason: 'bulk: same rules' },
      runtime(),
    );
    expect(r.resolved.map((x) => x.candidate_id)).toEqual([cid(PARAPHRASE)]);
    const none = await resolveCandidates(
      p.layout,
      S,
      { all: { disposition: 'supersede_candidate' }, choice: 'supersede', reason: 'x' },
      runtime(),
    );
    expect(none.resolved).toEqual([]);
  });

  it('supersede needs the same store', async () => {
    const p = project(
      [{ runId: R1, candidates: [{ content: 'Rerun flaky tests 20 times and record the seed.', target: 'knowhow' }] }],
      {
        coding: [
          { sid: 'S-20260101-fl01', title: 'Flaky', content: 'Rerun flaky tests 20 times and record the seed.' },
        ],
      },
    );
    await reconcileSession(p.layout, S, { refresh: true }, runtime());
    await expect(
      resolveCandidates(
        p.layout,
        S,
        {
          candidateIds: [candidateId('knowhow', 'Rerun flaky tests 20 times and record the seed.')],
          choice: 'supersede',
          target: 'S-20260101-fl01',
          reason: 'newer',
        },
        runtime(),
      ),
    ).rejects.toMatchObject({ code: 'SUPERSEDE_STORE_MISMATCH' });
  });

  it('carries a confirmed resolution across an unrelated corpus change, and reports a dropped one', async () => {
    const p = await reconciled();
    await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [cid(WINSTON)], choice: 'related', reason: 'different concern' },
      runtime(),
    );
    writeTree(p.root, {
      '.workflow/specs/learnings.md':
        '<spec-entry category="learning" sid="S-20260101-zz01" title="New">\n\n### New\n\nA new rule.\n\n</spec-entry>\n',
    });
    const out = await reconcileSession(p.layout, S, { refresh: true }, runtime());
    // Nothing the candidates match changed: the receipt is revalidated, the resolution kept as it was.
    expect(out.runs.find((r) => r.run_id === R1)).toMatchObject({
      regenerated: false,
      revalidated: { added: 1, changed: 0, removed: 0 },
      dropped: 0,
    });
    expect(
      readReceipt(p.layout, S, R1)?.candidates.find((c) => c.candidate_id === cid(WINSTON))?.resolution?.status,
    ).toBe('confirmed');
    writeTree(p.root, {
      '.workflow/specs/coding-conventions.md': readFileSync(
        join(p.layout.specs, 'coding-conventions.md'),
        'utf8',
      ).replace('Use pino for application logging.', 'Use pino for application logging, always.'),
    });
    const again = await reconcileSession(p.layout, S, { refresh: true }, runtime());
    expect(again.runs.find((r) => r.run_id === R1)).toMatchObject({ carried_over: 0, dropped: 1 });
    expect(readReceipt(p.layout, S, R1)?.dropped_resolutions?.[0]).toMatchObject({
      dropped_because: 'target-changed',
      reason: 'different concern',
    });
  });
});

describe('conflict marks and the other receipts of the session', () => {
  it('keeps every receipt of the session that was fresh fresh, so resolutions can follow each other', async () => {
    const p = project([
      { runId: R1, candidates: [{ content: WINSTON, title: 'Logger' }] },
      { runId: R2, candidates: [{ content: PARAPHRASE, title: 'Time' }] },
    ]);
    await reconcileSession(p.layout, S, { refresh: true }, runtime());
    await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [cid(WINSTON)], choice: 'conflict', contest: true, reason: 'pino' },
      runtime(),
    );
    expect((await checkFreshness(p.layout, S, R2)).state).toBe('fresh');
    const r = await resolveCandidates(
      p.layout,
      S,
      { candidateIds: [cid(PARAPHRASE)], choice: 'duplicate', reason: 'same' },
      runtime(),
    );
    expect(r.resolved[0].affected_runs).toEqual([R2]);
  });
});

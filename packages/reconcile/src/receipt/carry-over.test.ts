import { contentHash } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { candidate, entry } from '../matcher/matcher.fixture.js';
import { reconcile } from '../matcher/reconcile.js';
import type { Receipt } from '../schemas.js';
import { buildReceipt, type TargetState } from './build.js';

const HASH = 'a'.repeat(64);
const target = entry('S-1', 'Logger', 'Use pino for application logging.');
const cand = candidate('Use winston for application logging.', { title: 'Logger' });

function receiptFor(
  corpus = [target],
  prior: Receipt | null = null,
  c = cand,
  at = '2026-01-02T00:00:00.000Z',
): Receipt {
  const targets = new Map<string, TargetState>(
    corpus.map((e) => [e.id, { status: e.status, contentHash: e.contentHash }]),
  );
  return buildReceipt({
    sessionId: 'S',
    runId: 'R',
    candidates: [c],
    verdicts: reconcile([c], corpus, { now: at }),
    candidateSnapshotHash: HASH,
    corpusFingerprint: HASH,
    matcherRevision: 'test',
    generatedAt: at,
    prior,
    targets,
    retrievalLimit: 48,
  });
}

/** The receipt after a person resolved the candidate. */
function resolved(r: Receipt, choice: 'related' | 'unique' | 'duplicate', targetId: string | null): Receipt {
  const [c] = r.candidates;
  return {
    ...r,
    candidates: [
      {
        ...c,
        disposition: choice === 'duplicate' ? 'semantic_duplicate' : choice,
        promotion_eligibility: choice === 'duplicate' ? 'suppressed' : 'eligible',
        canonical_id: targetId,
        resolution: {
          status: 'confirmed',
          reason: 'checked by hand',
          resolved_at: '2026-01-02T00:00:00.000Z',
          choice,
          target_id: targetId,
          candidate_content_hash: contentHash(cand.content),
          target_content_hash: targetId ? contentHash(target.content) : null,
        },
      },
    ],
  };
}

describe('carry-over of confirmed resolutions', () => {
  it('keeps a resolution while candidate and target content are unchanged', () => {
    const prior = resolved(receiptFor(), 'related', 'S-1');
    const next = receiptFor(
      [target, entry('S-2', 'Other', 'Rotate log files daily.')],
      prior,
      cand,
      '2026-02-01T00:00:00.000Z',
    );
    expect(next.candidates[0]).toMatchObject({
      disposition: 'related',
      promotion_eligibility: 'eligible',
      canonical_id: 'S-1',
      resolution: { status: 'confirmed', reason: 'checked by hand', carried_over_at: '2026-02-01T00:00:00.000Z' },
    });
    expect(next.dropped_resolutions).toBeUndefined();
    expect(next.counts).toMatchObject({ related: 1, review_required: 0 });
  });

  it('drops it when the target content changed, and says so', () => {
    const prior = resolved(receiptFor(), 'related', 'S-1');
    const edited = entry('S-1', 'Logger', 'Use pino for application logging, with redaction.');
    const next = receiptFor([edited], prior);
    expect(next.candidates[0].resolution).toBeNull();
    expect(next.candidates[0].promotion_eligibility).toBe('review_required');
    expect(next.dropped_resolutions).toEqual([
      expect.objectContaining({
        candidate_id: cand.candidate_id,
        choice: 'related',
        dropped_because: 'target-changed',
      }),
    ]);
  });

  it('drops it when the target was deprecated or removed', () => {
    const prior = resolved(receiptFor(), 'related', 'S-1');
    expect(receiptFor([{ ...target, status: 'deprecated' }], prior).dropped_resolutions?.[0].dropped_because).toBe(
      'target-missing',
    );
    expect(receiptFor([], prior).dropped_resolutions?.[0].dropped_because).toBe('target-missing');
  });

  it('drops it when the candidate content hash no longer matches', () => {
    const prior = resolved(receiptFor(), 'unique', null);
    prior.candidates[0].resolution = { ...prior.candidates[0].resolution!, candidate_content_hash: 'b'.repeat(64) };
    expect(receiptFor([target], prior).dropped_resolutions?.[0].dropped_because).toBe('candidate-changed');
  });

  it('drops a unique resolution when a new review-level match appears (e.g. an exact duplicate)', () => {
    const prior = resolved(receiptFor(), 'unique', null);
    const copy = entry('S-9', 'Winston', cand.content);
    const next = receiptFor([target, copy], prior);
    expect(next.candidates[0].disposition).toBe('exact_duplicate');
    expect(next.dropped_resolutions?.[0].dropped_because).toBe('new-evidence');
  });

  it('keeps earlier drops visible until the candidate is resolved again', () => {
    const prior = resolved(receiptFor(), 'related', 'S-1');
    const edited = entry('S-1', 'Logger', 'Use pino for application logging, with redaction.');
    const dropped = receiptFor([edited], prior);
    expect(receiptFor([edited], dropped).dropped_resolutions).toHaveLength(1);
  });

  it('never carries automatic resolutions: they are recomputed', () => {
    const exact = candidate(target.content);
    const first = receiptFor([target], null, exact);
    expect(first.candidates[0].resolution?.status).toBe('automatic');
    const next = receiptFor([], first, exact);
    expect(next.candidates[0]).toMatchObject({ disposition: 'unique', resolution: null });
  });
});

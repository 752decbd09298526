import { canonicalJson } from '@maestro/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entry } from '../test/entries.js';
import { flagPendingTargets, planPrune } from './plan.js';

const dup = (id: string, over = {}) => entry(id, { title: 'Use UTC', content: 'Store times in UTC.', ...over });

describe('planPrune: supersession links', () => {
  it('deprecates an active entry that a newer entry supersedes (scenario 45/46), writing both sides', () => {
    const plan = planPrune({
      entries: [entry('S-20260101-old'), entry('S-20260102-new', { supersedes: ['S-20260101-old'] })],
    });
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({
      store: 'spec',
      action: 'deprecate',
      target_id: 'S-20260101-old',
      successor_id: 'S-20260102-new',
      reason: 'unsynchronized-supersession',
      target_file: '.workflow/specs/coding-conventions.md',
    });
    expect(plan.actions[0].id).toMatch(/^KPA-[a-f0-9]{10}$/);
  });

  it('also follows superseded-by written only on the old side', () => {
    const plan = planPrune({ entries: [entry('S-1-a', { supersededBy: 'S-1-b' }), entry('S-1-b')] });
    expect(plan.actions.map((a) => [a.target_id, a.successor_id, a.reason])).toEqual([
      ['S-1-a', 'S-1-b', 'unsynchronized-supersession'],
    ]);
  });

  it('completes a one-sided link on an already deprecated entry', () => {
    const plan = planPrune({
      entries: [entry('S-1-a', { status: 'deprecated', supersededBy: 'S-1-b' }), entry('S-1-b')],
    });
    expect(plan.actions.map((a) => a.reason)).toEqual(['one-sided-link']);
  });

  it('leaves a fully linked, deprecated pair alone', () => {
    const plan = planPrune({
      entries: [
        entry('S-1-a', { status: 'deprecated', supersededBy: 'S-1-b' }),
        entry('S-1-b', { supersedes: ['S-1-a'] }),
      ],
    });
    expect(plan.actions).toEqual([]);
  });

  it('never acts on dangling links, cycles, ambiguous successors, legacy or sid-less entries, or shared ids', () => {
    const entries = [
      entry('S-1-dangling', { supersededBy: 'S-1-gone' }),
      entry('S-1-x', { supersededBy: 'S-1-y' }),
      entry('S-1-y', { supersededBy: 'S-1-x' }),
      entry('S-1-amb', { supersededBy: 'S-1-p' }),
      entry('S-1-p'),
      entry('S-1-q', { supersedes: ['S-1-amb'] }),
      entry('spec-legacy-1', { hasSid: false, legacy: true, supersededBy: 'S-1-p' }),
      entry('spec-nosid-1', { hasSid: false }),
      entry('S-1-r', { supersedes: ['spec-nosid-1'] }),
      entry('S-1-twice', { supersededBy: 'S-1-p' }),
      entry('S-1-twice', { supersededBy: 'S-1-p', line: 40 }),
    ];
    expect(planPrune({ entries }).actions).toEqual([]);
  });

  it('handles knowhow with the supersede action and skips knowhow with broken frontmatter', () => {
    const ok = planPrune({ entries: [entry('knowhow-a', { supersededBy: 'knowhow-b' }), entry('knowhow-b')] });
    expect(ok.actions.map((a) => [a.store, a.action])).toEqual([['knowhow', 'supersede']]);
    const broken = planPrune({
      entries: [entry('knowhow-a', { supersededBy: 'knowhow-b' }), entry('knowhow-b')],
      issues: [{ file: '.workflow/knowhow/B.md', severity: 'error', code: 'FRONTMATTER_INVALID', message: 'bad yaml' }],
    });
    expect(broken.actions).toEqual([]);
  });

  it('respects the scope for both sides', () => {
    const entries = [
      entry('S-1-a', { supersededBy: 'knowhow-b' }),
      entry('knowhow-b'),
      entry('knowhow-c', { supersededBy: 'knowhow-b' }),
    ];
    expect(planPrune({ entries }, 'spec').actions).toEqual([]);
    expect(planPrune({ entries }, 'knowhow').actions.map((a) => a.target_id)).toEqual(['knowhow-c']);
    expect(planPrune({ entries }, 'all').actions.map((a) => a.target_id)).toEqual(['S-1-a', 'knowhow-c']);
  });
});

describe('planPrune: exact duplicates', () => {
  it('deprecates every duplicate toward the smallest sid (scenario 47)', () => {
    const plan = planPrune({
      entries: [dup('S-1-c'), dup('S-1-a'), dup('S-1-b', { content: '  STORE times\n in utc. ' })],
    });
    expect(plan.actions.map((a) => [a.target_id, a.successor_id, a.reason])).toEqual([
      ['S-1-b', 'S-1-a', 'exact-duplicate'],
      ['S-1-c', 'S-1-a', 'exact-duplicate'],
    ]);
  });

  it('treats width and case variants as the same text (the one normaliser)', () => {
    const plan = planPrune({ entries: [dup('S-1-a'), dup('S-1-b', { title: 'ＵＳＥ utc' })] });
    expect(plan.actions).toHaveLength(1);
  });

  it('ignores deprecated members, different stores and different titles', () => {
    const entries = [
      dup('S-1-a'),
      dup('S-1-b', { status: 'deprecated' }),
      dup('knowhow-x'),
      dup('S-1-c', { title: 'Other title' }),
    ];
    expect(planPrune({ entries }).actions).toEqual([]);
  });

  it('does not pick a canonical that is itself superseded, and skips targets already planned', () => {
    const entries = [
      dup('S-1-a', { supersededBy: 'S-1-z' }),
      entry('S-1-z', { supersedes: ['S-1-a'] }),
      dup('S-1-b'),
      dup('S-1-c'),
    ];
    const plan = planPrune({ entries });
    expect(plan.actions.map((a) => [a.target_id, a.successor_id, a.reason])).toEqual([
      ['S-1-a', 'S-1-z', 'unsynchronized-supersession'],
      ['S-1-c', 'S-1-b', 'exact-duplicate'],
    ]);
  });

  it('never closes a cycle: a canonical with an ambiguous outgoing link is skipped for a clean one', () => {
    // S-1-a would be canonical, but it already has (ambiguous) successors, one of which is S-1-b.
    const entries = [dup('S-1-a', { supersededBy: 'S-1-b' }), entry('S-1-q', { supersedes: ['S-1-a'] }), dup('S-1-b')];
    const plan = planPrune({ entries });
    expect(plan.actions).toEqual([]);
  });
});

describe('planPrune: determinism', () => {
  const corpus = [
    entry('S-1-old', {}),
    entry('S-1-new', { supersedes: ['S-1-old'] }),
    dup('S-1-d1'),
    dup('S-1-d2'),
    dup('knowhow-k1'),
    dup('knowhow-k2'),
    entry('knowhow-x', { status: 'deprecated', supersededBy: 'knowhow-y' }),
    entry('knowhow-y'),
  ];

  it('gives a byte-identical plan for the same corpus in any order', () => {
    const reference = canonicalJson(planPrune({ entries: corpus }));
    fc.assert(
      fc.property(fc.shuffledSubarray(corpus, { minLength: corpus.length, maxLength: corpus.length }), (shuffled) => {
        expect(canonicalJson(planPrune({ entries: shuffled }))).toBe(reference);
      }),
      { numRuns: 50 },
    );
    expect(JSON.stringify(planPrune({ entries: corpus }))).toBe(
      JSON.stringify(planPrune({ entries: [...corpus].reverse() })),
    );
  });

  it('changes the plan id when the corpus changes what is planned', () => {
    const a = planPrune({ entries: corpus });
    const b = planPrune({ entries: corpus.filter((e) => e.id !== 'S-1-d2') });
    expect(a.plan_id).not.toBe(b.plan_id);
  });
});

describe('flagPendingTargets', () => {
  it('flags actions whose target a pending candidate matches, without changing the plan id', () => {
    const plan = planPrune({ entries: [dup('S-1-a'), dup('S-1-b')] });
    const flagged = flagPendingTargets(plan, [
      {
        knowledge_id: 'S-1-b',
        candidate_id: 'KDC-00000000000000aa',
        session_id: '20260101-s',
        run_id: '20260101-001-x',
      },
      {
        knowledge_id: 'S-1-b',
        candidate_id: 'KDC-00000000000000aa',
        session_id: '20260101-s',
        run_id: '20260101-001-x',
      },
      {
        knowledge_id: 'S-1-a',
        candidate_id: 'KDC-00000000000000bb',
        session_id: '20260101-s',
        run_id: '20260101-001-x',
      },
    ]);
    expect(flagged.plan_id).toBe(plan.plan_id);
    expect(flagged.actions[0].pending_targets).toEqual([
      { candidate_id: 'KDC-00000000000000aa', session_id: '20260101-s', run_id: '20260101-001-x' },
    ]);
  });
});

import { describe, expect, test } from 'vitest';
import {
  BASE_HALF_LIFE_DAYS,
  consolidationWords,
  decayedConfidence,
  FORGET_FLOOR,
  halfLifeDays,
  planConsolidation,
} from './consolidate.js';
import { rec } from './test-records.test-util.js';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();
const now = new Date(day(1));

describe('duplicates', () => {
  test('the same fact twice is merged into the older record; recalls add up, the newer text is in history', () => {
    const a = rec('The user prefers tabs over spaces', { recall_count: 2, recalled_sessions: ['s1'] });
    const b = rec('user prefers tabs over spaces.', { created_at: day(1), recall_count: 1, recalled_sessions: ['s2'] });
    const plan = planConsolidation([a, b], now);
    expect(plan.records.map((r) => r.id)).toEqual([a.id]);
    expect(plan.changes).toContainEqual(expect.objectContaining({ change: 'merge', kept: a.id, removed: b.id }));
    const kept = plan.records[0];
    expect(kept.recall_count).toBe(3);
    expect(kept.recalled_sessions).toEqual(['s1', 's2']);
    expect(kept.history.at(-1)).toMatchObject({ action: 'merged', from_id: b.id, text: b.text });
  });

  test('different kinds are never merged', () => {
    const a = rec('use pnpm for installs', { kind: 'preference' });
    const b = rec('use pnpm for installs', { kind: 'experience', created_at: day(1) });
    expect(planConsolidation([a, b], now).records).toHaveLength(2);
  });
});

describe('contradictions: the newer wins, the older stays in its history', () => {
  test('a negation of the same statement', () => {
    const old = rec('The deploy script needs sudo on the build box');
    const newer = rec('The deploy script does not need sudo on the build box', { created_at: day(1) });
    const plan = planConsolidation([old, newer], now);
    expect(plan.records.map((r) => r.id)).toEqual([newer.id]);
    expect(plan.changes).toContainEqual(
      expect.objectContaining({ change: 'supersede', kept: newer.id, removed: old.id, reason: 'negation' }),
    );
    expect(plan.records[0].history.at(-1)).toMatchObject({ action: 'superseded', from_id: old.id, text: old.text });
  });

  test('a changed decision (plan B → plan A) replaces the older; an experience with a similar shape does not', () => {
    const b = rec('The user chose plan B for the billing migration', { kind: 'decision' });
    const a = rec('The user chose plan A for the billing migration', { kind: 'decision', created_at: day(1) });
    const plan = planConsolidation([b, a], now);
    expect(plan.records.map((r) => r.id)).toEqual([a.id]);
    expect(plan.changes[0]).toMatchObject({ change: 'supersede', reason: 'changed value', removed_text: b.text });
    const e1 = rec('The flaky test failed on the linux runner');
    const e2 = rec('The flaky test failed on the macos runner', { created_at: day(1) });
    expect(planConsolidation([e1, e2], now).records).toHaveLength(2);
  });

  test('unrelated records are left alone', () => {
    const records = [
      rec('use pnpm for installs', { kind: 'preference' }),
      rec('staging resets on Mondays', { kind: 'preference' }),
    ];
    const plan = planConsolidation(records, new Date(day(0)));
    expect(plan.changes).toEqual([]);
  });

  test('negation words are not content words', () => {
    expect(consolidationWords("don't use the cache").negated).toBe(true);
    expect(consolidationWords('use the cache').negated).toBe(false);
    expect(consolidationWords("don't use the cache").words).toEqual(['use', 'the', 'cache']);
    expect(consolidationWords('不要使用缓存').negated).toBe(true);
  });
});

describe('decay and forgetting', () => {
  test('confidence halves after the half-life without recall; recalls lengthen the half-life', () => {
    const r = rec('x', { confidence: 0.8 });
    expect(decayedConfidence(r, new Date(day(BASE_HALF_LIFE_DAYS)))).toBeCloseTo(0.4, 6);
    expect(halfLifeDays(0)).toBe(BASE_HALF_LIFE_DAYS);
    expect(halfLifeDays(10)).toBeGreaterThan(halfLifeDays(1));
    const often = rec('x', { confidence: 0.8, recall_count: 10 });
    expect(decayedConfidence(often, new Date(day(30)))).toBeGreaterThan(0.6);
  });

  test('the decay clock restarts at the last recall', () => {
    const r = rec('x', { confidence: 0.8, last_recalled_at: day(29) });
    expect(decayedConfidence(r, new Date(day(30)))).toBeGreaterThan(0.78);
  });

  test('decaying twice equals decaying once over the whole time (no double counting)', () => {
    const r = rec('x', { confidence: 0.9 });
    const once = planConsolidation([r], new Date(day(40))).records[0].confidence;
    const mid = planConsolidation([r], new Date(day(20))).records[0];
    const twice = planConsolidation([mid], new Date(day(40))).records[0].confidence;
    expect(twice).toBeCloseTo(once, 2);
  });

  test('a record decayed below the floor is forgotten and listed', () => {
    const r = rec('an old observation', { confidence: 0.3 });
    const plan = planConsolidation([r], new Date(day(BASE_HALF_LIFE_DAYS * 2)));
    expect(0.3 / 4).toBeLessThan(FORGET_FLOOR);
    expect(plan.records).toEqual([]);
    expect(plan.changes).toEqual([{ change: 'forget', id: r.id, confidence: 0.075, text: r.text }]);
  });

  test('a second consolidation right after the first changes nothing', () => {
    const records = [
      rec('The user prefers tabs over spaces'),
      rec('user prefers tabs over spaces', { created_at: day(1) }),
      rec('old', { confidence: 0.5 }),
    ];
    const first = planConsolidation(records, new Date(day(10)));
    expect(first.changes.length).toBeGreaterThan(0);
    expect(planConsolidation(first.records, new Date(day(10))).changes).toEqual([]);
  });
});

describe('candidate retrieval', () => {
  test('the prefix filter finds exactly the pairs an exhaustive comparison finds', async () => {
    const fc = (await import('fast-check')).default;
    const vocab = [
      'plan',
      'a',
      'b',
      'billing',
      'user',
      'chose',
      'not',
      'tabs',
      'spaces',
      'deploy',
      'friday',
      'never',
      'x',
    ];
    const kinds = ['decision', 'preference', 'experience'] as const;
    const arb = fc.array(
      fc.record({
        words: fc.array(fc.constantFrom(...vocab), { minLength: 1, maxLength: 6 }),
        kind: fc.constantFrom(...kinds),
        day: fc.nat(5),
      }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(arb, (specs) => {
        const records = specs.map((s) => rec(s.words.join(' '), { kind: s.kind, created_at: day(s.day) }));
        const fast = planConsolidation(records, new Date(day(6)));
        const slow = planConsolidation(records, new Date(day(6)), { exhaustive: true });
        expect(fast).toEqual(slow);
      }),
      { numRuns: 1000 },
    );
  });
});

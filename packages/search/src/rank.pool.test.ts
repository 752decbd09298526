import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { buildIndex } from './build.js';
import { SELECTION } from './config.js';
import { rankIndex } from './rank.js';

// Without phrases, scoring keeps only the candidate pool while it counts the matches, and skips
// scoring an entry whose BM25F alone cannot beat the worst kept one. A page ranked with a small
// pool (pruning at work) must equal the same positions of a ranking whose pool holds every match
// (no pruning), ties included: they are broken by corpus order either way.

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Fillers of five letters or more, so that the adjacency bonus (query words side by side) never applies.
const FILLER = ['gamma', 'delta', 'epsilon', 'kappa', 'lambda', 'omega', 'sigma', 'theta'];
const DATES = ['2026-02-20', '2026-01-01', '2025-06-01', '2024-01-15', ''];

/**
 * Every third entry is "alpha gamma" or "beta gamma" on one date: hundreds of equal scores, the
 * alpha ones touched first, the beta ones after them but interleaved in corpus order (alpha and
 * beta are in as many entries each, so their idf is the same). A few entries have both words.
 */
function corpus(n: number) {
  const rnd = random(17);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  return Array.from({ length: n }, (_, i) => {
    let words: string[];
    if (i % 3 === 0) words = [i % 6 === 0 ? 'alpha' : 'beta', 'gamma'];
    else {
      words = Array.from({ length: 2 + Math.floor(rnd() * 8) }, () => pick(FILLER));
      if (rnd() < 0.04) words.push('alpha', pick(FILLER), 'beta', pick(FILLER), 'alpha');
    }
    const date = i % 3 === 0 ? '2026-01-01' : pick(DATES);
    return entry(i % 5 === 4 ? `knowhow-${i}` : `S-${i}`, {
      title: 'notes',
      content: words.join(' '),
      date: date || null,
      status: i % 11 === 0 ? 'deprecated' : 'active',
      keywords: i % 4 === 0 ? ['tagged'] : [],
    });
  });
}

describe('candidate pool pruning', () => {
  const index = buildIndex(corpus(900));
  const page = (query: string, limit: number, offset: number, extra: object = {}) =>
    rankIndex(index, query, { mode: 'relevance', limit, offset, ...extra }, CTX);

  for (const [query, extra] of [
    ['alpha', {}],
    ['alpha beta', {}],
    ['beta', { includeDeprecated: true }],
    ['beta alpha', {}],
    ['alpha beta', { tags: ['tagged'] }],
    ['alpha', { type: 'knowhow' }],
  ] as const) {
    it(`pages of "${query}" ${JSON.stringify(extra)} match a ranking of every match`, () => {
      const all = page(query, 500, 0, extra);
      expect(all.total).toBeGreaterThan(20);
      // A page of 500 has a pool of SELECTION.poolMax, which holds every match: nothing is pruned.
      expect(all.total).toBeLessThanOrEqual(SELECTION.poolMax);
      for (const [limit, offset] of [
        [1, 0],
        [5, 0],
        [10, 3],
        [12, 0],
        // Reaching the equal scores of the "alpha gamma" / "beta gamma" entries, and the pool's
        // end (3 × (offset + limit)) inside them.
        [20, 20],
        [25, 0],
        [10, 30],
      ]) {
        const r = page(query, limit, offset, extra);
        expect(r.total).toBe(all.total);
        const want = all.hits.slice(offset, offset + limit).map((h) => [h.id, h.score]);
        expect(r.hits.map((h) => [h.id, h.score])).toEqual(want);
      }
    });
  }
});

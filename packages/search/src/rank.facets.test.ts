import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { rankEntries } from './rank-entries.js';

const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

/** 120 knowhow entries that match "deploy" far better than the few weak matches a facet asks for. */
function crowded() {
  const strong = Array.from({ length: 120 }, (_, i) =>
    entry(`knowhow-strong-${i}`, { title: `Deploy deploy ${i}`, keywords: ['deploy'], category: 'ops' }),
  );
  return [
    ...strong,
    entry('S-weak', { content: 'we deploy on fridays rarely', category: 'arch', keywords: ['release'] }),
    entry('knowhow-weak', { content: 'a deploy note', keywords: ['Release', 'CI'], category: 'Ops' }),
    entry('S-gone', { title: 'Deploy deploy deploy', status: 'deprecated' }),
  ];
}

describe('facets are applied before candidate truncation', () => {
  it('--type finds a weak match that a truncated pool would have dropped', () => {
    const r = rankEntries(crowded(), 'deploy', { type: 'spec', limit: 1 }, CTX);
    expect(ids(r)).toEqual(['S-weak']);
    expect(r.total).toBe(1);
  });

  it('--category and --tag compare after normalisation, and several tags must all match', () => {
    expect(ids(rankEntries(crowded(), 'deploy', { category: 'ARCH' }, CTX))).toEqual(['S-weak']);
    expect(ids(rankEntries(crowded(), 'deploy', { tags: ['release'] }, CTX)).sort()).toEqual([
      'S-weak',
      'knowhow-weak',
    ]);
    expect(ids(rankEntries(crowded(), 'deploy', { tags: ['release', 'ci'] }, CTX))).toEqual(['knowhow-weak']);
    expect(ids(rankEntries(crowded(), 'deploy', { tags: ['nothing'] }, CTX))).toEqual([]);
  });

  it('counts the total after facets, before paging', () => {
    const r = rankEntries(crowded(), 'deploy', { type: 'knowhow', limit: 5 }, CTX);
    expect(r.hits).toHaveLength(5);
    expect(r.total).toBe(121);
  });
});

describe('deprecated entries', () => {
  it('are excluded by default, even when they match best', () => {
    const r = rankEntries(crowded(), 'deploy', { mode: 'relevance', limit: 500 }, CTX);
    expect(ids(r)).not.toContain('S-gone');
  });

  it('appear with includeDeprecated, and alone with status deprecated', () => {
    expect(ids(rankEntries(crowded(), 'deploy', { includeDeprecated: true, type: 'spec' }, CTX))).toContain('S-gone');
    expect(ids(rankEntries(crowded(), 'deploy', { status: 'deprecated' }, CTX))).toEqual(['S-gone']);
    expect(ids(rankEntries(crowded(), 'deploy', { status: 'active', type: 'spec' }, CTX))).toEqual(['S-weak']);
  });
});

describe('paging', () => {
  it('returns contiguous, non-overlapping pages with ranks that continue', () => {
    const corpus = crowded();
    const all = ids(rankEntries(corpus, 'deploy', { mode: 'relevance', limit: 30 }, CTX));
    const p1 = rankEntries(corpus, 'deploy', { mode: 'relevance', limit: 10 }, CTX);
    const p2 = rankEntries(corpus, 'deploy', { mode: 'relevance', limit: 10, offset: 10 }, CTX);
    const p3 = rankEntries(corpus, 'deploy', { mode: 'relevance', limit: 10, offset: 20 }, CTX);
    expect([...ids(p1), ...ids(p2), ...ids(p3)]).toEqual(all);
    expect(p2.hits[0].rank).toBe(11);
  });

  it('is stable in balanced mode too (a page is a slice of the same selection)', () => {
    const corpus = crowded();
    const all = ids(rankEntries(corpus, 'deploy', { limit: 20 }, CTX));
    const p2 = ids(rankEntries(corpus, 'deploy', { limit: 10, offset: 10 }, CTX));
    expect(p2).toEqual(all.slice(10));
  });

  it('rejects bad paging and facet values with an input error', () => {
    const corpus = crowded();
    const cases: [object, RegExp][] = [
      [{ limit: 0 }, /--limit must be a whole number from 1 to 500/],
      [{ limit: 501 }, /--limit/],
      [{ limit: 2.5 }, /--limit/],
      [{ offset: -1 }, /--offset/],
      [{ mode: 'fast' }, /--mode must be one of balanced, relevance \(got "fast"\)/],
      [{ type: 'note' }, /--type must be one of spec, knowhow/],
      [{ status: 'draft' }, /--status/],
    ];
    for (const [o, msg] of cases) {
      expect(() => rankEntries(corpus, 'deploy', o, CTX)).toThrow(msg);
      try {
        rankEntries(corpus, 'deploy', o, CTX);
      } catch (err) {
        expect((err as { exitCode: number; code: string }).exitCode).toBe(2);
        expect((err as { code: string }).code).toBe('SEARCH_BAD_OPTION');
      }
    }
  });
});

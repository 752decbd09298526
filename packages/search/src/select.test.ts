import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { rankEntries } from './rank-entries.js';

const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
const reasons = (r: { hits: { selection_reason: string }[] }) => r.hits.map((h) => h.selection_reason);

describe('canonical-id dedup', () => {
  it('returns one result per id in both modes', () => {
    const corpus = [
      entry('S-dup', { title: 'Lock files', file: 'specs/a.md' }),
      entry('S-dup', { title: 'Lock files again', file: 'specs/b.md' }),
    ];
    expect(ids(rankEntries(corpus, 'lock', {}, CTX))).toEqual(['S-dup']);
    expect(ids(rankEntries(corpus, 'lock', { mode: 'relevance' }, CTX))).toEqual(['S-dup']);
  });
});

describe('family cap (per file)', () => {
  const corpus = [
    entry('S-a1', { title: 'Timeout timeout retries', file: 'specs/net.md' }),
    entry('S-a2', { title: 'Timeout timeout budget', file: 'specs/net.md' }),
    entry('S-a3', { title: 'Timeout timeout logging', file: 'specs/net.md' }),
    entry('S-b', { title: 'Timeout for tests', file: 'specs/test.md' }),
  ];

  it('balanced: one result per family until every family has had a slot', () => {
    const r = rankEntries(corpus, 'timeout', { limit: 4 }, CTX);
    expect(ids(r).slice(0, 2)).toEqual(['S-a1', 'S-b']);
    expect(reasons(r).slice(0, 2)).toEqual(['relevance', 'diversity']);
    expect(new Set(ids(r).slice(2))).toEqual(new Set(['S-a2', 'S-a3']));
  });

  it('balanced with a short page: one per family', () => {
    expect(ids(rankEntries(corpus, 'timeout', { limit: 2 }, CTX))).toEqual(['S-a1', 'S-b']);
  });

  it('relevance mode: pure score order, no caps', () => {
    const r = rankEntries(corpus, 'timeout', { mode: 'relevance', limit: 2 }, CTX);
    expect(ids(r)).toEqual(['S-a1', 'S-a2']);
    expect(reasons(r)).toEqual(['relevance', 'relevance']);
  });
});

describe('source cap (spec vs knowhow)', () => {
  const corpus = [
    ...[1, 2, 3, 4, 5, 6].map((i) => entry(`S-${i}`, { title: `Cache cache rule ${i}` })),
    entry('knowhow-x', { content: 'a note about the cache' }),
    entry('knowhow-y', { content: 'cache tips' }),
  ];

  it('balanced: at most half the page from one store while the other has matches', () => {
    const r = rankEntries(corpus, 'cache', { limit: 4 }, CTX);
    expect(r.hits.filter((h) => h.store === 'spec')).toHaveLength(2);
    expect(r.hits.filter((h) => h.store === 'knowhow')).toHaveLength(2);
  });

  it('backfills from the other store when one runs out', () => {
    const r = rankEntries(corpus, 'cache', { limit: 6 }, CTX);
    expect(r.hits.filter((h) => h.store === 'spec')).toHaveLength(4);
  });

  it('relevance mode ignores the cap', () => {
    const r = rankEntries(corpus, 'cache', { mode: 'relevance', limit: 4 }, CTX);
    expect(r.hits.every((h) => h.store === 'spec')).toBe(true);
  });
});

describe('MMR', () => {
  it('picks a distinct, slightly lower entry second over near-identical ones', () => {
    const same = 'Use connection pooling for postgres with pgbouncer in transaction mode';
    const corpus = [
      entry('knowhow-p1', { title: 'Connection pooling', content: same }),
      entry('knowhow-p2', { title: 'Connection pooling', content: `${same}.` }),
      entry('knowhow-p3', { title: 'Connection pooling', content: `${same}!` }),
      entry('knowhow-d', {
        title: 'Connection pooling limits',
        content: 'size each pool from max_connections and replicas count',
      }),
    ];
    const relevanceOrder = ids(rankEntries(corpus, 'connection pooling', { mode: 'relevance' }, CTX));
    expect(relevanceOrder.indexOf('knowhow-d')).toBe(3);
    const r = rankEntries(corpus, 'connection pooling', {}, CTX);
    expect(r.hits[1].id).toBe('knowhow-d');
    expect(r.hits[1].selection_reason).toBe('diversity');
    expect(r.hits[0].selection_reason).toBe('relevance');
  });
});

describe('exploration slot', () => {
  // five results from distinct families; the lowest-scored still has ≥ 35 % of the top score
  const corpus = [
    entry('knowhow-a', { title: 'Flaky test quarantine', content: 'flaky flaky tests quarantine' }),
    entry('knowhow-b', { title: 'Flaky test retries', content: 'flaky tests retry' }),
    entry('knowhow-c', { title: 'Flaky test triage', content: 'flaky tests triage' }),
    entry('knowhow-d', { title: 'Flaky test owners', content: 'flaky tests owners' }),
    entry('knowhow-e', { content: 'when a test is flaky, look at timing' }),
    entry('knowhow-far', {
      content: 'unrelated words and one flaky mention buried in a long long long text body here',
    }),
  ];
  const counts = new Map([
    ['knowhow-a', 10],
    ['knowhow-b', 10],
    ['knowhow-c', 10],
    ['knowhow-d', 10],
    ['knowhow-e', 1],
    ['knowhow-far', 0],
  ]);

  it('puts the least-shown entry above the relevance floor in the last slot', () => {
    const plain = rankEntries(corpus, 'flaky test', { limit: 4 }, CTX);
    expect(ids(plain)).not.toContain('knowhow-e');
    const r = rankEntries(corpus, 'flaky test', { limit: 4 }, { ...CTX, exposure: counts });
    expect(r.exploration_available).toBe(true);
    expect(r.hits).toHaveLength(4);
    expect(r.hits[3]).toMatchObject({ id: 'knowhow-e', selection_reason: 'exploration' });
    expect(ids(r).slice(0, 3)).toEqual(ids(plain).slice(0, 3));
  });

  it('never picks an entry below the relevance floor, however unexposed', () => {
    const r = rankEntries(corpus, 'flaky test', { limit: 4 }, { ...CTX, exposure: counts });
    const far = rankEntries(corpus, 'flaky test', { mode: 'relevance', limit: 10 }, CTX).hits.find(
      (h) => h.id === 'knowhow-far',
    );
    expect(far?.relevance).toBeLessThan(0.35);
    expect(ids(r)).not.toContain('knowhow-far');
  });

  it('is off without counters, in relevance mode, on later pages and on short pages', () => {
    const none = rankEntries(corpus, 'flaky test', { limit: 4 }, CTX);
    expect(reasons(none)).not.toContain('exploration');
    expect(none.exploration_available).toBe(false);
    const ctx = { ...CTX, exposure: counts };
    expect(reasons(rankEntries(corpus, 'flaky test', { limit: 4, mode: 'relevance' }, ctx))).not.toContain(
      'exploration',
    );
    expect(reasons(rankEntries(corpus, 'flaky test', { limit: 4, offset: 1 }, ctx))).not.toContain('exploration');
    expect(reasons(rankEntries(corpus, 'flaky test', { limit: 3 }, ctx))).not.toContain('exploration');
  });

  it('needs a candidate shown less often than the most-shown result on the page', () => {
    const flat = new Map([...counts.keys()].map((k) => [k, 5]));
    const r = rankEntries(corpus, 'flaky test', { limit: 4 }, { ...CTX, exposure: flat });
    expect(reasons(r)).not.toContain('exploration');
  });

  it('never changes scores', () => {
    const a = rankEntries(corpus, 'flaky test', { mode: 'relevance' }, CTX);
    const b = rankEntries(corpus, 'flaky test', { mode: 'relevance' }, { ...CTX, exposure: counts });
    expect(b.hits).toEqual(a.hits);
  });
});

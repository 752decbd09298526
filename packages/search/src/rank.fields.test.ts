import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { rankEntries } from './rank-entries.js';

const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
const relevance = { mode: 'relevance' } as const;

describe('BM25F field weights and length normalisation', () => {
  it('ranks a title match above a keyword match above a description match above a body match', () => {
    const corpus = [
      entry('S-body', { content: 'we rotate the signing key monthly' }),
      entry('S-desc', { description: 'how to rotate the signing key' }),
      entry('S-tags', { keywords: ['rotate'] }),
      entry('S-title', { title: 'Rotate keys' }),
      entry('S-none', { content: 'nothing here' }),
    ];
    expect(ids(rankEntries(corpus, 'rotate', relevance, CTX))).toEqual(['S-title', 'S-tags', 'S-desc', 'S-body']);
  });

  it('matches the category through the tags field', () => {
    const corpus = [entry('S-a', { category: 'debug' }), entry('S-b', { category: 'coding' })];
    expect(ids(rankEntries(corpus, 'debug', relevance, CTX))).toEqual(['S-a']);
  });

  it('normalises by body length: one mention in a short body beats one in a long body', () => {
    const filler = Array.from({ length: 200 }, (_, i) => `filler${i}`).join(' ');
    const corpus = [entry('S-long', { content: `mutex ${filler}` }), entry('S-short', { content: 'mutex guarded' })];
    expect(ids(rankEntries(corpus, 'mutex', relevance, CTX))).toEqual(['S-short', 'S-long']);
  });

  it('rewards covering every query term over repeating one', () => {
    const corpus = [
      entry('S-one', { content: 'cache cache cache cache cache' }),
      entry('S-both', { content: 'cache invalidation' }),
    ];
    expect(ids(rankEntries(corpus, 'cache invalidation', relevance, CTX))[0]).toBe('S-both');
  });

  it('finds CamelCase and snake_case identifiers by their pieces and as a whole', () => {
    const corpus = [
      entry('S-camel', { content: 'call parseJsonText before saving' }),
      entry('S-snake', { content: 'set max_retry_count to three' }),
      entry('S-words', { content: 'parse the json and the text' }),
    ];
    expect(ids(rankEntries(corpus, 'json', relevance, CTX))).toContain('S-camel');
    expect(ids(rankEntries(corpus, 'retry', relevance, CTX))).toEqual(['S-snake']);
    expect(ids(rankEntries(corpus, 'parseJsonText', relevance, CTX))[0]).toBe('S-camel');
  });
});

describe('CJK', () => {
  const corpus = [
    entry('S-graph', { title: '知识图谱的构建', content: '用图谱表示实体关系' }),
    entry('S-auth', { title: 'JWT认证', content: '所有接口使用jwt认证，令牌过期时间为一小时' }),
    entry('S-other', { title: '日志规范', content: '日志使用结构化格式' }),
  ];

  it('matches a single-character query inside longer words', () => {
    expect(ids(rankEntries(corpus, '图', relevance, CTX))).toEqual(['S-graph']);
    expect(ids(rankEntries(corpus, '志', relevance, CTX))).toEqual(['S-other']);
  });

  it('matches multi-character queries by their pairs', () => {
    expect(ids(rankEntries(corpus, '图谱', relevance, CTX))).toEqual(['S-graph']);
    expect(ids(rankEntries(corpus, '认证', relevance, CTX))).toEqual(['S-auth']);
  });

  it('splits mixed jwt认证 into a Latin and a CJK term', () => {
    const r = rankEntries(corpus, 'jwt认证', relevance, CTX);
    expect(ids(r)).toEqual(['S-auth']);
    expect(r.hits[0].matched_terms).toEqual(['jwt', '认证']);
    expect(r.hits[0].snippet).toContain('jwt认证');
  });
});

describe('phrases', () => {
  const corpus = [
    entry('S-phrase', { content: 'Retry with exponential backoff on 503.' }),
    entry('S-scattered', { title: 'Backoff', content: 'exponential growth; retry later' }),
    entry('S-cjk', { content: '登录失败时返回认证错误' }),
  ];

  it('requires a quoted phrase to occur word for word', () => {
    expect(ids(rankEntries(corpus, '"exponential backoff"', relevance, CTX))).toEqual(['S-phrase']);
    expect(ids(rankEntries(corpus, 'exponential backoff', relevance, CTX)).sort()).toEqual(['S-phrase', 'S-scattered']);
  });

  it('ignores case and punctuation inside phrases, and works for CJK', () => {
    expect(ids(rankEntries(corpus, '"BACKOFF on 503"', relevance, CTX))).toEqual(['S-phrase']);
    expect(ids(rankEntries(corpus, '"认证错误"', relevance, CTX))).toEqual(['S-cjk']);
    expect(ids(rankEntries(corpus, '"错误认证"', relevance, CTX))).toEqual([]);
  });
});

describe('time decay', () => {
  it('ranks the newer of two otherwise identical entries first, by a bounded factor', () => {
    const corpus = [
      entry('S-old', { title: 'Pin versions', date: '2020-01-01' }),
      entry('S-new', { title: 'Pin versions', date: '2026-02-01' }),
    ];
    const r = rankEntries(corpus, 'pin versions', relevance, CTX);
    expect(ids(r)).toEqual(['S-new', 'S-old']);
    expect(r.hits[1].relevance).toBeGreaterThan(0.6);
    expect(r.hits[1].relevance).toBeLessThan(0.7);
  });

  it('does not let decay overturn a much better match', () => {
    const corpus = [
      entry('S-old', { title: 'Pin dependency versions', date: '2015-01-01' }),
      entry('S-new', { content: 'versions vary', date: '2026-02-28' }),
    ];
    expect(ids(rankEntries(corpus, 'pin dependency versions', relevance, CTX))[0]).toBe('S-old');
  });
});

describe('results', () => {
  it('carry the canonical id, labels, score, relevance and a snippet with highlighted matches', () => {
    const long = `${'Intro text. '.repeat(40)}Always close the database handle in a finally block. ${'Outro. '.repeat(40)}`;
    const r = rankEntries(
      [entry('S-20260101-ab12', { title: 'Close handles', content: long })],
      'database handle',
      {},
      CTX,
    );
    const hit = r.hits[0];
    expect(hit).toMatchObject({ id: 'S-20260101-ab12', store: 'spec', category: 'coding', rank: 1, relevance: 1 });
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.snippet.endsWith('…')).toBe(true);
    const marked = hit.highlights.map(([s, e]) => hit.snippet.slice(s, e));
    expect(marked).toEqual(['database', 'handle']);
  });

  it('returns nothing, not everything, for a query of stop words only', () => {
    expect(rankEntries([entry('S-a', { content: 'the and of' })], 'the of', {}, CTX).hits).toEqual([]);
  });
});

describe('phrase checking budget', () => {
  it('keeps the page exact but reports a lower-bound total when too many candidates would need checking', () => {
    const near = Array.from({ length: 2200 }, (_, i) => entry(`knowhow-n${i}`, { content: `alpha gamma beta ${i}` }));
    const hits = Array.from({ length: 60 }, (_, i) =>
      entry(`S-h${i}`, { title: 'alpha beta', content: `alpha beta ${i}` }),
    );
    const r = rankEntries([...near, ...hits], '"alpha beta"', { mode: 'relevance', limit: 10 }, CTX);
    expect(r.hits).toHaveLength(10);
    expect(r.hits.every((h) => h.id.startsWith('S-h'))).toBe(true);
    expect(r.total_exact).toBe(false);
    expect(r.total).toBeGreaterThanOrEqual(40);
    const small = rankEntries([...near.slice(0, 100), ...hits], '"alpha beta"', { mode: 'relevance' }, CTX);
    expect(small).toMatchObject({ total: 60, total_exact: true });
  });
});

describe('long queries', () => {
  it('report matched terms past the 31st query word', () => {
    const filler = Array.from({ length: 40 }, (_, i) => `filler${i}`).join(' ');
    const r = rankEntries([entry('S-a', { content: 'rotate the signing key' })], `${filler} signing key`, {}, CTX);
    expect(r.hits[0].matched_terms).toEqual(['signing', 'key']);
    expect(r.hits[0].highlights).toHaveLength(2);
  });
});

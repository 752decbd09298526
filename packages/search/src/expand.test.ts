import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { rankEntries } from './rank-entries.js';
import { analyzeDocument, queryTerms } from './tokenize.js';

const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);
const relevance = { mode: 'relevance' } as const;
const terms = (text: string) => {
  const out: string[] = [];
  analyzeDocument(text, (t) => out.push(t));
  return out;
};

describe('plural folding by WordNet lemma', () => {
  it('folds -es and -ies plurals the plain rule got wrong, and leaves words that only look plural', () => {
    expect(terms('boxes matches viruses cookies')).toEqual(['box', 'match', 'virus', 'cookie']);
    expect(terms('news series lens')).toEqual(['news', 'series', 'lens']);
    // Words WordNet does not know keep the plain rule, on both sides alike.
    expect(queryTerms('configs repos')).toEqual(['config', 'repo']);
  });

  it('finds the plural from the singular and back', () => {
    const corpus = [entry('S-box', { content: 'Label the shipping boxes.' }), entry('S-new', { content: 'new items' })];
    expect(ids(rankEntries(corpus, 'box', relevance, CTX))).toEqual(['S-box']);
    // "news" is not the plural of "new".
    expect(ids(rankEntries(corpus, 'news', relevance, CTX))).toEqual([]);
  });
});

describe('query expansion (WordNet, CC-CEDICT)', () => {
  const logging = [
    entry('S-logging', { title: 'Logging library', content: 'Use pino; write JSON lines to stdout.' }),
    entry('S-review', { title: 'Review rules', content: 'Reviewers should approve within two days.' }),
    entry('S-metrics', { title: 'Metrics', content: 'Expose counters on /metrics.' }),
  ];

  it('finds a rule titled "Logging library" for "how should we log"', () => {
    const r = rankEntries(logging, 'how should we log', relevance, CTX);
    expect(ids(r)[0]).toBe('S-logging');
    expect(r.hits[0].matched_terms).toContain('logging');
  });

  it('finds an English rule for a Chinese question and a Chinese rule for an English one', () => {
    const corpus = [...logging, entry('S-zh', { title: '日志规范', content: '所有服务输出结构化日志。' })];
    // (应该 is CC-CEDICT's "should": the review rule follows, below both.)
    expect(ids(rankEntries(corpus, '我们应该怎么记录日志', relevance, CTX)).slice(0, 2)).toEqual(['S-zh', 'S-logging']);
    expect(ids(rankEntries(corpus, 'log format', relevance, CTX))).toContain('S-zh');
    // 数据库 ↔ database, both ways.
    const db = [
      entry('S-en', { title: 'Database access', content: 'Go through the repository layer.' }),
      entry('S-cn', { title: '数据库访问', content: '通过仓储层访问。' }),
    ];
    expect(ids(rankEntries(db, 'database', relevance, CTX))).toEqual(['S-en', 'S-cn']);
    expect(ids(rankEntries(db, '数据库', relevance, CTX))).toEqual(['S-cn', 'S-en']);
  });

  it('glosses a Chinese question into English also when the corpus holds numbers (terms sorted before a–z)', () => {
    const corpus = [
      entry('S-en', {
        title: 'Database access',
        content: 'Go through the repository layer; 3 replicas, 10 s timeout.',
      }),
      entry('S-other', { title: 'Metrics', content: 'Expose 2 counters.' }),
    ];
    expect(ids(rankEntries(corpus, '数据库', relevance, CTX))).toEqual(['S-en']);
  });

  it('ranks time-zone entries above "3 times" for "time zone", in both languages', () => {
    const corpus = [
      entry('S-retry', { title: 'Retry policy', content: 'Retry failed calls 3 times with backoff.' }),
      entry('S-closed', { title: 'Timezone handling', content: 'Store every timestamp in UTC.' }),
      entry('S-open', { title: 'Report dates', content: 'Reports use the time zone of the account owner.' }),
      entry('S-zh', { title: '时区', content: '展示时按用户所在地转换。' }),
    ];
    const en = ids(rankEntries(corpus, 'time zone', relevance, CTX));
    expect(en.slice(0, 3).sort()).toEqual(['S-closed', 'S-open', 'S-zh']);
    expect(en.at(-1)).toBe('S-retry');
    // The closed compound finds the open one, and Chinese finds both.
    expect(ids(rankEntries(corpus, 'timezone', relevance, CTX))).toEqual(['S-closed', 'S-open']);
    const zh = ids(rankEntries(corpus, '时区', relevance, CTX));
    expect(zh[0]).toBe('S-zh');
    expect(zh).toContain('S-open');
    expect(zh).not.toContain('S-retry');
  });

  it('leaves the scores of literal matches exactly as they were', () => {
    // Same corpus size and the same documents holding "log": only the third entry differs, and
    // it reaches the query only through an alternative (logging).
    const base = [
      entry('S-a', { content: 'rotate the log daily' }),
      entry('S-b', { title: 'Log shipping', content: 'ship the log to the collector' }),
    ];
    const without = rankEntries([...base, entry('S-c', { title: 'Metrics library' })], 'log', relevance, CTX);
    const withAlt = rankEntries([...base, entry('S-c', { title: 'Logging library' })], 'log', relevance, CTX);
    const score = (r: typeof without, id: string) => r.hits.find((h) => h.id === id)?.score;
    expect(ids(without)).toEqual(['S-b', 'S-a']);
    expect(ids(withAlt)).toContain('S-c');
    expect(score(withAlt, 'S-a')).toBe(score(without, 'S-a'));
    expect(score(withAlt, 'S-b')).toBe(score(without, 'S-b'));
  });

  it('scores an expansion below the same text matched literally', () => {
    const corpus = [
      entry('S-literal', { title: 'Forbid direct writes' }),
      entry('S-synonym', { title: 'Prohibit direct writes' }),
    ];
    const r = rankEntries(corpus, 'forbid', relevance, CTX);
    expect(ids(r)).toEqual(['S-literal', 'S-synonym']);
    expect(r.hits[1].score).toBeLessThan(r.hits[0].score * 0.6);
  });
});

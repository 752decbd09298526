import { describe, expect, it } from 'vitest';
import { CTX, entry } from '../test/entries.js';
import { topicKeywords } from './bookkeeping.js';
import { rankEntries } from './rank-entries.js';

const ids = (r: { hits: { id: string }[] }) => r.hits.map((h) => h.id);

describe('bookkeeping keywords (session-knowledge and the candidate kind)', () => {
  it('are not topic: a prompt saying "session knowledge decision" does not match every promoted rule', () => {
    const corpus = [
      entry('S-promoted', { title: 'Use UTC', keywords: ['session-knowledge', 'decision'], content: 'Store UTC.' }),
      entry('S-topic', { title: 'Session tokens', content: 'Session knowledge expires after an hour.' }),
    ];
    expect(ids(rankEntries(corpus, 'session knowledge decision', { mode: 'relevance' }, CTX))).toEqual(['S-topic']);
  });

  it('keep the kind when it is a real keyword (no session-knowledge next to it)', () => {
    expect(topicKeywords(['decision', 'adr'])).toEqual(['decision', 'adr']);
    expect(topicKeywords(['session-knowledge', 'Constraint', 'riskengine'])).toEqual(['riskengine']);
    const corpus = [entry('S-adr', { keywords: ['decision'] })];
    expect(ids(rankEntries(corpus, 'decision', { mode: 'relevance' }, CTX))).toEqual(['S-adr']);
  });

  it('still filter with --tag, which is an explicit request', () => {
    const corpus = [entry('S-p', { title: 'Use UTC', keywords: ['session-knowledge', 'decision'] })];
    expect(ids(rankEntries(corpus, 'utc', { tags: ['session-knowledge'] }, CTX))).toEqual(['S-p']);
  });
});

import { TERM_MAX } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { analyzeDocument, queryTerms, sequenceTokens } from './tokenize.js';

/** Issue 20 item 6: one 5 MB word overflowed the regexp stack and broke search for the project. */
describe('tokeniser bounds', () => {
  const hex = 'ab'.repeat(2_500_000);

  it('skips a word longer than TERM_MAX, however long, and keeps the words around it', () => {
    const terms: string[] = [];
    const length = analyzeDocument(`retry ${hex} backoff`, (t) => terms.push(t));
    expect(terms).toEqual(['retry', 'backoff']);
    expect(length).toBe(2);
    expect(queryTerms(`${hex} cache`)).toEqual(['cache']);
    expect(sequenceTokens(`a1 ${hex}`)).toEqual(['a1']);
  });

  it('keeps a word of exactly TERM_MAX characters and drops one of TERM_MAX + 1', () => {
    const atMax = 'x'.repeat(TERM_MAX);
    expect(queryTerms(`${atMax} ok`)).toEqual([atMax, 'ok']);
    expect(queryTerms(`${atMax}y ok`)).toEqual(['ok']);
  });

  it('indexes a 5 MB Chinese run in pieces', () => {
    const terms = new Set<string>();
    analyzeDocument('图谱'.repeat(2_500_000), (t) => terms.add(t));
    expect([...terms].sort()).toEqual(['图', '图谱', '谱', '谱图']);
  });
});

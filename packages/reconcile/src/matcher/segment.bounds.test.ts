import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
import { indexTerms } from './corpus-index.js';
import { segment } from './segment.js';

/** Issue 19 item 1: `units.push(...segmentLatin(words))` overflowed the stack on a ~1 MB text. */
describe('segmenting huge texts', () => {
  const words = Array.from({ length: 220_000 }, (_, i) => ['retry', 'backoff', 'cache', 'queue'][i % 4]).join(' ');

  it('segments a 1.2 MB run of words and a 1 MB Chinese run without overflowing', () => {
    expect(words.length).toBeGreaterThan(1_000_000);
    expect(segment(words).length).toBeGreaterThan(200_000);
    expect(segment('缓存'.repeat(500_000)).length).toBeGreaterThan(0);
  });

  it('indexes and analyses a 1.2 MB entry (as one clause, no punctuation)', () => {
    expect(indexTerms(words).size).toBeGreaterThan(0);
    expect(analyzeText(words).clauses.length).toBeGreaterThan(0);
  });
});

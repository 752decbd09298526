import { lexicon, stem } from '@maestro/lexicon';
import { describe, expect, it } from 'vitest';

describe('lexicon (WordNet 3.1 + CC-CEDICT, compiled at build time)', () => {
  const lex = lexicon();
  const concept = (w: string) => lex.concept(stem(w));

  it('folds English synonyms onto the representative of their most frequent sense', () => {
    expect(concept('utilize')).toBe(concept('use'));
    expect(concept('prohibit')).toBe(concept('forbid'));
    expect(lex.isWord(stem('timeout'))).toBe(false);
    expect(lex.isWord(stem('request'))).toBe(true);
  });

  it('knows antonyms of a sense, by concept', () => {
    expect(lex.antonyms(concept('forbid'))).toContain(concept('permit'));
    expect(lex.antonyms(concept('enable'))).toContain(concept('disable'));
    expect(lex.antonyms(concept('synchronous'))).toContain(concept('asynchronous'));
  });

  it('glosses Chinese words into the same English concepts (cross-language through the dictionary)', () => {
    expect(lex.glosses('禁止')).toContain(concept('forbid'));
    expect(lex.glosses('加密')).toContain(concept('encrypt'));
    expect(lex.glosses('数据库')).toContain(concept('database'));
    expect(lex.glosses('不是一个词')).toEqual([]);
  });

  it('names its sources', () => {
    expect(lex.sources.wordnet).toMatch(/3\.1/);
    expect(lex.sources.cedict).toMatch(/CC-CEDICT/);
  });
});

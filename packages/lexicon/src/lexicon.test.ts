import { lexicon, segmentHan, stem } from '@maestro/lexicon';
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

  it('segments Chinese into dictionary words, fewest pieces first', () => {
    expect(segmentHan('数据库连接池')).toEqual(['数据库', '连接', '池']);
    expect(segmentHan('删除操作需要确认对话框')).toEqual(['删除', '操作', '需要', '确认', '对话框']);
    // Unknown characters come out one by one; a caller's own vocabulary counts like the dictionary.
    expect(segmentHan('氪氙')).toEqual(['氪', '氙']);
    expect(segmentHan('氪氙', (w) => w === '氪氙')).toEqual(['氪氙']);
  });

  it('names its sources', () => {
    expect(lex.sources.wordnet).toMatch(/3\.1/);
    expect(lex.sources.cedict).toMatch(/CC-CEDICT/);
  });
});

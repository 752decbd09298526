import {
  chineseWords,
  deinflect,
  englishGlosses,
  inflections,
  isEnglishWord,
  pluralLemma,
  relatedWords,
  singular,
} from '@maestro/lexicon';
import { describe, expect, it } from 'vitest';

describe('word tables (WordNet 3.1 + CC-CEDICT, surface words)', () => {
  it('folds plurals to the WordNet lemma where the plain rule is wrong, and knows words that only look plural', () => {
    expect(singular('boxes')).toBe('box');
    expect(singular('processes')).toBe('process');
    expect(singular('cookies')).toBe('cookie');
    expect(singular('queries')).toBe('query');
    expect(singular('tests')).toBe('test');
    expect(singular('news')).toBe('news');
    expect(singular('series')).toBe('series');
    expect(pluralLemma('tests')).toBeNull(); // the plain rule is right: nothing stored
    expect(singular('kubernetes')).toBe('kubernete'); // unknown: the plain rule, consistently
  });

  it('knows English words, their stem-sharing derivations and their synonyms', () => {
    expect(isEnglishWord('zone')).toBe(true);
    expect(isEnglishWord('timezone')).toBe(false);
    expect(relatedWords('log').derived).toEqual(expect.arrayContaining(['logger', 'logging']));
    expect(relatedWords('forbid').synonyms).toContain('prohibit');
    expect(relatedWords('notaword').derived).toEqual([]);
  });

  it('inflects and de-inflects regular English forms, back to WordNet words only', () => {
    expect(inflections('log')).toEqual(expect.arrayContaining(['logging', 'logged']));
    expect(inflections('cache')).toEqual(['caching', 'cached']);
    expect(deinflect('logging')).toContain('log');
    expect(deinflect('cached')).toContain('cache');
    expect(deinflect('string')).toEqual([]); // "str" is no English word
  });

  it('glosses Chinese into English words and back, computing senses first', () => {
    expect(englishGlosses('日志')).toContain('log');
    expect(englishGlosses('时区')).toEqual(['time zone']);
    expect(chineseWords('log')[0]).toBe('日志');
    expect(chineseWords('time zone')).toContain('时区');
    expect(chineseWords('log in')).toContain('登录');
    expect(englishGlosses('不是词语')).toEqual([]);
  });
});

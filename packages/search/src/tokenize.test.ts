import { TERM_MAX } from '@maestro/core';
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query.js';
import {
  analyzeDocument,
  containsSequence,
  queryTerms,
  STOP_WORDS,
  sequenceTokens,
  stem,
  wordPieces,
} from './tokenize.js';

function docTerms(text: string): { terms: string[]; length: number } {
  const terms: string[] = [];
  const length = analyzeDocument(text, (t) => terms.push(t));
  return { terms, length };
}

describe('tokeniser', () => {
  it('splits CamelCase and snake_case identifiers and keeps the whole identifier', () => {
    expect(wordPieces('parseJSONText')).toEqual(['parse', 'json', 'text']);
    expect(wordPieces('HTTP2Server')).toEqual(['http2', 'server']);
    expect(docTerms('parseJSONText').terms).toEqual(['parse', 'json', 'text', 'parsejsontext']);
    expect(docTerms('max_retry_count').terms).toEqual(['max', 'retry', 'count', 'max_retry_count']);
    expect(queryTerms('retryCount')).toEqual(['retry', 'count', 'retrycount']);
  });

  it('drops stop words and one-letter pieces and folds plurals', () => {
    expect(queryTerms('the tests of a queries')).toEqual(['test', 'query']);
    expect(stem('status')).toBe('status');
    expect(stem('class')).toBe('class');
    expect(stem('caches')).toBe('cache');
    expect(stem('s3s')).toBe('s3s');
  });

  it('indexes CJK text as characters and pairs, and counts its length in characters', () => {
    const { terms, length } = docTerms('知识图谱');
    expect(terms).toEqual(['知', '知识', '识', '识图', '图', '图谱', '谱']);
    expect(length).toBe(4);
  });

  it('queries a single CJK character as itself and longer CJK runs as pairs', () => {
    expect(queryTerms('图')).toEqual(['图']);
    expect(queryTerms('认证失败')).toEqual(['认证', '证失', '失败']);
  });

  it('splits mixed Latin/CJK text at the script boundary', () => {
    expect(queryTerms('jwt认证')).toEqual(['jwt', '认证']);
    expect(docTerms('JWT认证').terms).toEqual(['jwt', '认', '认证', '证']);
    expect(sequenceTokens('用JWT认证')).toEqual(['用', 'jwt', '认', '证']);
  });

  it('normalises full-width text (NFKC) and case like the one normaliser', () => {
    expect(queryTerms('ＪＷＴ Token')).toEqual(['jwt', 'token']);
  });

  it('counts field length in words, not in extra identifier tokens', () => {
    expect(docTerms('use parseJsonText here').length).toBe(3);
  });

  it('parses quoted phrases and keeps their words as terms', () => {
    const q = parseQuery('cache "retry with backoff" 认证');
    expect(q.phrases).toHaveLength(1);
    expect(q.phrases[0].tokens).toEqual(['retry', 'with', 'backoff']);
    expect(q.terms).toEqual(['cache', 'retry', 'backoff', '认证']);
    expect(parseQuery('unbalanced "quote').phrases).toEqual([]);
    expect(parseQuery('“curly quotes”').phrases[0].tokens).toEqual(['curly', 'quotes']);
  });

  it('finds contiguous token runs', () => {
    expect(containsSequence(['a', 'b', 'c'], ['b', 'c'])).toBe(true);
    expect(containsSequence(['a', 'b', 'c'], ['a', 'c'])).toBe(false);
  });
});

describe('plain queries', () => {
  it('treat quotes as punctuation when phrases are off', () => {
    const q = parseQuery('teams "must" retry', { phrases: false });
    expect(q.phrases).toEqual([]);
    expect(q.terms).toEqual(['team', 'must', 'retry']);
  });

  it('drops question words and pronouns, so a prompt matches on what it is about', () => {
    expect(parseQuery('How do we store timestamps?', { phrases: false }).terms).toEqual(['store', 'timestamp']);
  });
});

/** The regexp the hand-written run scanner replaced, kept as its reference. */
function referenceTerms(text: string): { terms: string[]; length: number; seq: string[]; query: string[] } {
  const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
  const WORD_CHAR = `[\\p{L}\\p{N}\\p{M}_]--[${CJK}]`;
  const RUN = new RegExp(`([${CJK}]{1,${TERM_MAX}})|[${WORD_CHAR}]{1,${TERM_MAX}}`, 'gv');
  const WORD_AT = new RegExp(`[${WORD_CHAR}]`, 'vy');
  const s = text.normalize('NFKC');
  const terms: string[] = [];
  const seq: string[] = [];
  const query: string[] = [];
  let length = 0;
  let skipAt = -1;
  for (const m of s.matchAll(RUN)) {
    if (m[1] !== undefined) {
      const chars = Array.from(m[1]);
      length += chars.length;
      for (let i = 0; i < chars.length; i++) {
        terms.push(chars[i]);
        if (i + 1 < chars.length) terms.push(chars[i] + chars[i + 1]);
      }
      for (const c of chars) seq.push(c);
      if (chars.length === 1) query.push(chars[0]);
      for (let i = 0; i + 1 < chars.length; i++) query.push(chars[i] + chars[i + 1]);
      continue;
    }
    const end = (m.index ?? 0) + m[0].length;
    WORD_AT.lastIndex = end;
    if (m.index === skipAt || WORD_AT.test(s)) {
      skipAt = end;
      continue;
    }
    length++;
    const pieces = wordPieces(m[0]);
    const before = terms.length;
    for (const p of pieces) if (p.length >= 2 && !STOP_WORDS.has(p)) terms.push(stem(p));
    if (pieces.length > 1 && m[0].toLowerCase().length >= 2) terms.push(m[0].toLowerCase());
    for (let i = before; i < terms.length; i++) query.push(terms[i]);
    for (const p of pieces) seq.push(p);
  }
  return { terms, length, seq, query };
}

describe('run scanner', () => {
  it('cuts text exactly as the regexp it replaced', () => {
    const alphabet = [
      'a',
      'Z',
      'q',
      '0',
      '7',
      '_',
      ' ',
      '-',
      '.',
      '\n',
      'é',
      'ß',
      'İ',
      '\u0301',
      '认',
      '证',
      'カ',
      'ナ',
      '한',
      '글',
      '𝑥',
      '𠀀',
      '😀',
      '\ud800',
      'ﬁ',
      '①',
      'Ⅻ',
      'Ж',
      '٣',
      'ﾊ',
      '。',
      's',
      'S',
      'J',
      'N',
    ];
    let seed = 17;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const texts = ['parseJSONText max_retry_count tests', `${'x'.repeat(TERM_MAX)} ${'y'.repeat(TERM_MAX + 1)}z`];
    texts.push(`${'认'.repeat(TERM_MAX * 2 + 3)}abc${'é'.repeat(TERM_MAX)}${'证'.repeat(5)}`);
    for (let k = 0; k < 400; k++) {
      let t = '';
      const len = rnd(60);
      for (let i = 0; i < len; i++) t += alphabet[rnd(alphabet.length)].repeat(rnd(9) === 0 ? 1 + rnd(300) : 1);
      texts.push(t);
    }
    for (const t of texts) {
      const ref = referenceTerms(t);
      expect(docTerms(t)).toEqual({ terms: ref.terms, length: ref.length });
      expect(sequenceTokens(t)).toEqual(ref.seq);
      expect(queryTerms(t)).toEqual([...new Set(ref.query)]);
    }
  });
});

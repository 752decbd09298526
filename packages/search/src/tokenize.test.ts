import { describe, expect, it } from 'vitest';
import { parseQuery } from './query.js';
import { analyzeDocument, containsSequence, queryTerms, sequenceTokens, stem, wordPieces } from './tokenize.js';

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

import { indexedText } from '@maestro/core';
import { seededInts } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { pairKeys } from './corpus-index.js';
import { indexTerms, textKeys } from './index-keys.js';
import { lexicon } from './lexicon.js';
import { prepare } from './prepare.js';
import { segment } from './segment.js';

/** The retrieval keys as read from `segment`'s units, one unit after the other (what the key pass must equal). */
function unitTerms(text: string): Set<string> {
  const out = new Set<string>();
  const add = (t: string) => {
    out.add(t);
    const set = lexicon().altOf.get(t);
    if (set) out.add(`alt:${set}`);
  };
  for (const u of segment(prepare(indexedText(text)))) {
    if (u.kind === 'word') add(u.term);
    else if (u.kind === 'han' || u.kind === 'gloss') for (const t of u.terms) add(t);
    else if (u.kind === 'lex') {
      if (u.entry.flip) add(u.entry.flip);
      else if (u.entry.concept) add(u.entry.concept);
    }
  }
  return out;
}

/** Terms, then the 4 smallest distinct pair hashes that are not terms. */
function unitKeys(text: string): string[] {
  const terms = unitTerms(text);
  const hashes = [...new Set(pairKeys(terms).map((k) => Number(k.slice(2))))].sort((a, b) => a - b).slice(0, 4);
  return [...terms, ...hashes.map((h) => `k:${h}`).filter((k) => !terms.has(k))];
}

const samples = [
  'Use pino for logging; never console.log in production code.',
  'Always run `pnpm lint --fix` before a commit, and don\u2019t skip the pre-commit hook.',
  'API responses MUST use RFC 7807 problem details; dates are ISO 8601 (iso8601 too) in UTC.',
  'Retry with exponential back-off: max 5 attempts, 250ms base delay. Cache-Control: no-store.',
  'The client.ws.bufferedAmount check keeps keyboard-focusable buttons -- and trailing dots... a.-',
  "\"Quoted\" \u201cwords\u201d and \u2018single\u2019 quotes, plus 'apostrophes' and it's can't won't.",
  '数据库连接池必须设置超时，使用 pino 记录日志。',
  'Mixed 中文 and English: 验证通过后自动合并 the PR.',
  'Ｆｕｌｌｗｉｄｔｈ ＡＳＣＩＩ and ligatures \ufb01le, §n1 §p tokens, 𠀀𠀁 astral Han.',
  'node:fs and path.join(a, b) under src/lib/x.ts; v1.2.3; e2e; c++ and c# and f#; __init__.py',
  'single sign on, pull request, feature flag, dead letter queue, rate limiting, source of truth',
  'k:123 w:foo alt:bar dim:x 1 22 333 4444 007',
  'Tab\tseparated\nlines\r\nand  double  spaces\u00a0nbsp',
  '',
  '   ',
];

describe('retrieval keys without units', () => {
  it('equal the keys read from segment units, ASCII or not', () => {
    for (const text of samples) {
      expect(textKeys(text), text).toEqual(unitKeys(text));
      expect([...indexTerms(text)], text).toEqual([...unitTerms(text)]);
    }
  });

  it('stay equal over random texts and a second reading (memoised words and keys)', () => {
    const words = [
      'use',
      'uses',
      'cache',
      'caching',
      'pull',
      'request',
      'requests',
      'feature',
      'flag',
      'never',
      'always',
      'must',
      'skip',
      'log',
      'pino',
      'winston',
      'iso',
      '8601',
      'rfc',
      '42',
      'a-',
      'x.y',
      'foo:bar',
      'retry',
      'timeout',
      'utc',
      '中文',
      '超时',
      '必须',
      "don't",
      '`code`',
      '"q"',
      ',',
      '.',
      '\n',
    ];
    const next = seededInts(7);
    for (let round = 0; round < 2; round++) {
      for (let n = 0; n < 300; n++) {
        const parts: string[] = [];
        const len = 1 + (next() % 40);
        for (let k = 0; k < len; k++) parts.push(words[next() % words.length]);
        const text = parts.join(next() % 3 === 0 ? '' : ' ');
        expect(textKeys(text), text).toEqual(unitKeys(text));
      }
    }
  });
});

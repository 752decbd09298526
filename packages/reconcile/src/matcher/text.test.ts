import { sha256 } from '@maestro/core';
import { seededInts } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { exactKey, exactKeyOfNormal, matchNormalize } from './text.js';

/** `exactKeyOfNormal` as its regular expressions define it. */
function byExpressions(norm: string): string {
  const plain =
    norm.includes('**') || norm.includes('__')
      ? norm
          .replace(/\*\*|__/g, '')
          .replace(/\s+/g, ' ')
          .trim()
      : norm;
  const bare = plain.replace(/[.。!！;；]+$/u, '').trimEnd();
  return sha256(bare.replace(/\s+(?=[^\p{L}\p{N}]|\p{Script=Han})|(?<=[^\p{L}\p{N}\s]|\p{Script=Han})\s+/gu, ''));
}

describe('exact keys', () => {
  it('are those of the regular expressions, ASCII or not', () => {
    const samples = [
      'Use UTC.',
      'use utc',
      'a , b ; c: d - e (f) [g] "h" `i` 42 x',
      ' lead and trail . ',
      'Never **commit** secrets!!',
      'trailing; ; .',
      '必须 使用 UTC。',
      'mix 中文 and english , ok ！',
      '...',
      '',
      'a',
      ' ',
      '. a',
      'a .',
      'x_y z-w a/b c+d e#f',
    ];
    for (const text of samples) {
      expect(exactKey(text), text).toBe(byExpressions(matchNormalize(text)));
      expect(exactKeyOfNormal(text), text).toBe(byExpressions(text));
    }
  });

  it('agree over random ASCII texts', () => {
    const pieces = [
      'a',
      'B',
      '7',
      ' ',
      '  ',
      '.',
      ',',
      '!',
      ';',
      '-',
      '_',
      '*',
      '**',
      '(',
      ')',
      '"',
      "'",
      '\t',
      '\n',
      ':',
    ];
    const next = seededInts(11);
    for (let n = 0; n < 2000; n++) {
      let text = '';
      const len = next() % 24;
      for (let k = 0; k < len; k++) text += pieces[next() % pieces.length];
      expect(exactKey(text), JSON.stringify(text)).toBe(byExpressions(matchNormalize(text)));
    }
  });
});

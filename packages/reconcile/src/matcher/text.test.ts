import { describe, expect, it } from 'vitest';
import { dropLooseSpaces } from './text.js';

const LOOSE_SPACE = /\s+(?=[^\p{L}\p{N}]|\p{Script=Han})|(?<=[^\p{L}\p{N}\s]|\p{Script=Han})\s+/gu;

describe('dropLooseSpaces', () => {
  it('removes exactly what the Unicode regexp removes, on the ASCII fast path and off it', () => {
    const alphabet = ['a', 'Z', '7', ' ', ' ', '.', ',', '-', '_', '(', '\t', '\n', '必', 'é', '  '];
    let seed = 17;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 5000; n++) {
      let s = '';
      const len = next() % 14;
      for (let i = 0; i < len; i++) s += alphabet[next() % alphabet.length];
      expect(dropLooseSpaces(s), JSON.stringify(s)).toBe(s.replace(LOOSE_SPACE, ''));
    }
  });

  it('keeps spaces between words and drops those next to punctuation', () => {
    expect(dropLooseSpaces('use utc , not local ( ever )')).toBe('use utc,not local(ever)');
    expect(dropLooseSpaces('a b')).toBe('a b');
    expect(dropLooseSpaces(' a ')).toBe(' a ');
  });
});

import { describe, expect, it } from 'vitest';
import { HashLookup } from './hash-lookup.js';

/** Rows of 8 bytes, the 6-byte hash at offset 2. */
function rows(hashes: number[]): Buffer {
  const buf = Buffer.alloc(hashes.length * 8);
  for (const [p, h] of hashes.entries()) buf.writeUIntBE(h, p * 8 + 2, 6);
  return buf;
}

describe('HashLookup', () => {
  it('lists documents by hash in corpus order, as a map filled in corpus order does', () => {
    const a = 0x123456789abc;
    const samePrefix = a + 1; // differs only below the kept prefix: listed too, the caller checks the text
    const b = 0xfedcba987654;
    const files = [
      { base: 0, entries: 4, hashes: rows([b, a, 0, a]) },
      { base: 10, entries: 3, hashes: rows([samePrefix, b, a]) },
    ];
    const all = new HashLookup(files, 8, 2, () => true);
    expect(all.get(a)).toEqual([1, 3, 10, 12]);
    expect(all.get(b)).toEqual([0, 11]);
    expect(all.get(0x000000000001)).toEqual([]); // a zero hash (no key) is never listed
    const odd = new HashLookup(files, 8, 2, (i) => i % 2 === 1);
    expect(odd.get(a)).toEqual([1, 3]);
    expect(odd.get(b)).toEqual([11]);
  });
});

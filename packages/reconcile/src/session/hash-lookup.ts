/** Where one file's fixed-width hash rows start in corpus order (see `StoreIndex`). */
export interface HashRows {
  base: number;
  entries: number;
  hashes: Buffer;
}

/** Bits of a 48-bit lookup hash a key keeps: the rest of the 53 hold the document number. */
const HASH_BITS = 29;
const DOC_BITS = 53 - HASH_BITS;
const DOC_SPAN = 2 ** DOC_BITS;

/**
 * Documents by one of their 6-byte lookup hashes (exact content, title), as one sorted array of
 * numbers (hash prefix, then document number) instead of a map of 100,000 lists. A prefix of the
 * hash is enough: every caller checks the documents it gets back against the text it looks for,
 * so a shared prefix only costs that check. Documents come back in corpus order, as the lists of
 * a map filled in corpus order do. A zero hash (no key) is never listed.
 */
export class HashLookup {
  private readonly keys: Float64Array;

  constructor(files: readonly HashRows[], rowBytes: number, at: number, keep: (doc: number) => boolean) {
    let n = 0;
    for (const f of files) n += f.entries;
    if (n >= DOC_SPAN) throw new Error(`a corpus of ${n} entries is over what a hash lookup numbers`);
    const keys = new Float64Array(n);
    let k = 0;
    for (const f of files) {
      const h = f.hashes;
      for (let p = 0; p < f.entries; p++) {
        const i = f.base + p;
        if (!keep(i)) continue;
        const o = p * rowBytes + at;
        const hi = h.readUInt32BE(o);
        if (hi === 0 && h.readUInt16BE(o + 4) === 0) continue;
        keys[k++] = (hi >>> (32 - HASH_BITS)) * DOC_SPAN + i;
      }
    }
    this.keys = keys.subarray(0, k).sort();
  }

  /** The documents whose 48-bit hash begins as `hash48`'s does, in corpus order. */
  get(hash48: number): number[] {
    const prefix = Math.floor(hash48 / 2 ** (48 - HASH_BITS));
    const lo = prefix * DOC_SPAN;
    const keys = this.keys;
    let a = 0;
    let b = keys.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (keys[m] < lo) a = m + 1;
      else b = m;
    }
    const out: number[] = [];
    for (let j = a; j < keys.length && keys[j] < lo + DOC_SPAN; j++) out.push(keys[j] - lo);
    return out;
  }
}

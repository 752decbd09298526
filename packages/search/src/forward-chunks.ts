import type { TermTable } from './build.js';

/**
 * Terms per chunk: 1 MiB of term ids and 1 MiB of frequencies. Big enough that a build of 100k
 * documents makes a few dozen chunks, small enough that the unused end of the last one is cheap.
 */
export const CHUNK_TERMS = 1 << 18;

/**
 * The term ids and field frequencies of many forward documents, packed into fixed-size chunks
 * (a document never spans two). A document's arrays are views into a chunk: no buffer of its
 * own per document, and no growing buffer copied as it doubles (the whole of a large build's
 * postings, twice over, for a moment).
 */
export class ForwardChunks {
  readonly ids: Uint32Array[] = [];
  /** 4 per term: title, tags, description, body. */
  readonly tfs: Uint8Array[] = [];
  private used = 0;

  /** Room for `count` terms: the chunk and the position in it where they go. */
  reserve(count: number): [number, number] {
    const last = this.ids.length - 1;
    if (last < 0 || this.used + count > this.ids[last].length) {
      const size = Math.max(CHUNK_TERMS, count);
      this.ids.push(new Uint32Array(size));
      this.tfs.push(new Uint8Array(size * 4));
      this.used = 0;
    }
    const at = this.used;
    this.used += count;
    return [this.ids.length - 1, at];
  }

  /** Stores one document's terms (interned in `table`) and frequencies; returns views of them. */
  add(terms: readonly string[], tfs: Uint8Array, table: TermTable): { termIds: Uint32Array; tfs: Uint8Array } {
    const [c, at] = this.reserve(terms.length);
    const ids = this.ids[c].subarray(at, at + terms.length);
    for (let i = 0; i < terms.length; i++) ids[i] = table.intern(terms[i]);
    const f = this.tfs[c].subarray(at * 4, (at + terms.length) * 4);
    f.set(tfs);
    return { termIds: ids, tfs: f };
  }
}

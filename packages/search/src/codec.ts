import { deflateRawSync } from 'node:zlib';
import { INDEX_FORMAT } from './config.js';
import type { IndexDoc, SearchIndex } from './model.js';

/**
 * `index.bin`: the projection in a form that opens without reading it whole, re-tokenising or
 * parsing the corpus.
 *
 *   "MSIX" | u32 header length | header JSON | sections, each aligned to 8 bytes
 *
 * The header names the format, the build id (which must equal the manifest's) and each section's
 * [offset, length] in bytes. The *table* sections come first and are read in one go when the file
 * is opened (a few bytes per term and per document): `terms` (UTF-8, concatenated in code-unit
 * order) with `termOffsets` (u32 byte offsets; a query binary-searches the bytes, so opening
 * creates no string per term), `termStart` (u32, cumulative posting counts), `termByte` (u32, where each term's postings start
 * in `postings`), `lengths` (u32 × 4), `flags` (u8), `dateDays` (f64), `recordIndex` (u32 × 4: block, offset, length, 0),
 * `textIndex` (u32 × 4 per document: block, offset, length, crc32; see below) and `textBlocks`
 * (u32 × 3: offset, compressed length, raw length), and `recordBlocks` (the same for `records`).
 * The rest is read only where a query needs it:
 * - `postings`: per term, per document in increasing order, one varint `delta × 32 + mask × 2 +
 *   ones` (the document delta; `mask`, 4 bits: which fields have the term; `ones`: 1 when each of
 *   those fields has it once), then, unless `ones`, those fields' frequencies (one byte each). Most
 *   postings are one byte: a small delta, one field, frequency 1. A query decodes only its own
 *   terms' postings.
 * - `records`: one JSON tuple per document, in document order, cut into blocks of about
 *   `RECORD_BLOCK_BYTES` each deflated on its own (as `text`); a block is inflated and a tuple
 *   parsed when that document is shown, compared or faceted.
 * - `text`: the indexed bodies that are not found verbatim in their corpus file, UTF-8,
 *   concatenated in document order and cut into blocks of about `TEXT_BLOCK_BYTES`, each deflated
 *   on its own, so a shown body costs one block's inflate. A body found verbatim in its file (the
 *   usual case) is not stored at all: its `textIndex` block is `IN_FILE` and offset and length are
 *   the bytes of the document's file (`record.file`, relative to `.workflow/`) that hold it, with
 *   their crc32; it is read back from the file, after checking the file's size and mtime against
 *   the manifest and the bytes against the crc32 (any mismatch is a `CorruptIndexError`: rebuild).
 * Typed arrays are little-endian, as written on every platform Node supports.
 */
export const MAGIC = 'MSIX';
export const TABLES = [
  'terms',
  'termOffsets',
  'termStart',
  'termByte',
  'lengths',
  'flags',
  'dateDays',
  'recordIndex',
  'textIndex',
  'textBlocks',
  'recordBlocks',
] as const;
export const LAZY = ['postings', 'records', 'text'] as const;
export const SECTIONS = [...TABLES, ...LAZY] as const;
export type SectionName = (typeof SECTIONS)[number];

/** `textIndex` block of a body read back from its corpus file rather than stored. */
export const IN_FILE = 0xffffffff;
/** u32 per document in `textIndex`: block (or `IN_FILE`), offset, byte length, crc32 (`IN_FILE` only). */
export const TEXT_INDEX_WIDTH = 4;

/** Raw bytes of body text per compressed block (a block holds whole documents, at least one). */
export const TEXT_BLOCK_BYTES = 16 * 1024;
/** Inflated blocks kept per open index (a page of results touches a few dozen at most). */
export const BLOCK_CACHE = 32;
/**
 * Raw bytes of records per compressed block: smaller than a text block, as a page of results
 * touches a record in many blocks (one inflate each).
 */
export const RECORD_BLOCK_BYTES = 4 * 1024;
/** Inflated record blocks kept per open index (a facet scan reads them in order, each once). */
export const RECORD_BLOCK_CACHE = 64;

export interface Header {
  format: number;
  build_id: string;
  /** Mean field lengths (over documents that have the field), so a cold search needs no pass over all documents. */
  avg_lengths: number[];
  docs: number;
  terms: number;
  postings: number;
  blocks: number;
  record_blocks: number;
  sections: Record<SectionName, [number, number]>;
}

/** Thrown for any structural problem; the caller rebuilds and reports the message as a warning. */
export class CorruptIndexError extends Error {}

export type DocTuple = [
  string,
  0 | 1,
  string,
  string | null,
  string[],
  string | null,
  string | null,
  0 | 1,
  string,
  number | null,
  string | null,
  string | null,
];

function toTuple(d: IndexDoc): DocTuple {
  const { id, title, category, keywords, description, date, file, line, type, confidence } = d;
  const store = d.store === 'spec' ? 0 : 1;
  return [
    id,
    store,
    title,
    category,
    keywords,
    description,
    date,
    d.status === 'deprecated' ? 1 : 0,
    file,
    line,
    type,
    confidence,
  ];
}

export function fromTuple(t: DocTuple): IndexDoc {
  if (!Array.isArray(t) || t.length !== 12 || typeof t[0] !== 'string' || !Array.isArray(t[4])) {
    throw new CorruptIndexError('a document record is malformed');
  }
  const [id, store, title, category, keywords, description, date, deprecated, file, line, type, confidence] = t;
  const status = deprecated ? 'deprecated' : 'active';
  return {
    id,
    store: store ? 'knowhow' : 'spec',
    title,
    category,
    keywords,
    description,
    date,
    status,
    file,
    line,
    type,
    confidence,
  };
}

export const pad8 = (n: number) => (n + 7) & ~7;

/** Concatenates UTF-8 strings into one buffer (one allocation) with an [offset, length] table. */
function blob(strings: string[]): { index: Uint32Array; data: Buffer } {
  const index = new Uint32Array(strings.length * 2);
  let total = 0;
  strings.forEach((x, d) => {
    const len = Buffer.byteLength(x, 'utf8');
    index[d * 2] = total;
    index[d * 2 + 1] = len;
    total += len;
  });
  const data = Buffer.allocUnsafe(total);
  strings.forEach((x, d) => {
    data.write(x, index[d * 2], 'utf8');
  });
  return { index, data };
}

const DEFLATE = { level: 1 } as const;

/** The bodies cut into blocks and deflated: what the `text`, `textIndex` and `textBlocks` sections hold. */
export interface TextBlocks {
  /**
   * Per document (`TEXT_INDEX_WIDTH` u32): block, offset in the inflated block, byte length, 0;
   * or `IN_FILE`, byte offset in the document's file, byte length, crc32 of those bytes.
   */
  index: Uint32Array;
  /** The deflated blocks, in order. */
  blocks: Buffer[];
  /** Inflated size of each block. */
  rawLengths: number[];
}

/**
 * The text sections: consecutive bodies grouped into blocks of about `TEXT_BLOCK_BYTES` (whole
 * documents), each deflated as soon as it is full, so only one raw block is held at a time. A block
 * also ends before each document listed in `breaks` (the first document of each corpus file), so a
 * file's blocks hold that file's documents only and an update can carry them over unchanged.
 */
export function compressBodiesSync(bodies: readonly string[], breaks: readonly number[] = []): TextBlocks {
  const out = new TextBuilder(bodies.length);
  let next = 0;
  bodies.forEach((body, d) => {
    while (next < breaks.length && breaks[next] < d) next++;
    if (next < breaks.length && breaks[next] === d) out.flush();
    out.add(d, body);
  });
  return out.finish();
}

/** A string whose UTF-8 is the same alone or joined to others: no surrogate half at either end. */
function joinable(p: Buffer | string): boolean {
  if (typeof p !== 'string') return false;
  if (p.length === 0) return true;
  const first = p.charCodeAt(0);
  const last = p.charCodeAt(p.length - 1);
  return !(first >= 0xdc00 && first <= 0xdfff) && !(last >= 0xd800 && last <= 0xdbff);
}

/** Builds the text sections document by document, or by copying another index's blocks. */
export class TextBuilder {
  private readonly index: Uint32Array;
  private readonly blocks: Buffer[] = [];
  private readonly rawLengths: number[] = [];
  /** The current block's bodies: UTF-8 bytes, or strings (encoded together when the block ends). */
  private parts: (Buffer | string)[] = [];
  private size = 0;

  constructor(
    docs: number,
    private readonly blockBytes = TEXT_BLOCK_BYTES,
  ) {
    this.index = new Uint32Array(docs * TEXT_INDEX_WIDTH);
  }

  /** Ends the current block (if it has anything). */
  flush(): void {
    if (this.parts.length === 0) return;
    const parts = this.parts;
    // Strings are encoded joined unless a lone surrogate at an edge would pair up with its neighbour's.
    const raw = parts.every(joinable)
      ? Buffer.from(parts.join(''), 'utf8')
      : parts.length === 1
        ? (parts[0] as Buffer)
        : Buffer.concat(
            parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)),
            this.size,
          );
    this.blocks.push(deflateRawSync(raw, DEFLATE));
    this.rawLengths.push(this.size);
    this.parts = [];
    this.size = 0;
  }

  /** Stores a body given as a string: the same bytes as `addBytes` of its UTF-8, encoded once per block. */
  add(d: number, body: string): void {
    this.place(d, Buffer.byteLength(body, 'utf8'));
    this.parts.push(body);
  }

  /** Stores a body given as its UTF-8 bytes. */
  addBytes(d: number, b: Buffer): void {
    this.place(d, b.length);
    this.parts.push(b);
  }

  /** Records where a body of `length` bytes goes (a new block when the current one is full). */
  private place(d: number, length: number): void {
    if (this.size >= this.blockBytes) this.flush();
    const w = d * TEXT_INDEX_WIDTH;
    this.index[w] = this.blocks.length;
    this.index[w + 1] = this.size;
    this.index[w + 2] = length;
    this.index[w + 3] = 0;
    this.size += length;
  }

  /** Records a body that is `length` bytes at `offset` of the document's own file (not stored). */
  inFile(d: number, offset: number, length: number, crc: number): void {
    const w = d * TEXT_INDEX_WIDTH;
    this.index[w] = IN_FILE;
    this.index[w + 1] = offset;
    this.index[w + 2] = length;
    this.index[w + 3] = crc;
  }

  /** Appends whole blocks of another index for documents `first ..` (`index` relative to `copy.blocks`). */
  copy(first: number, copy: TextBlocks): void {
    this.flush();
    const base = this.blocks.length;
    const W = TEXT_INDEX_WIDTH;
    for (let i = 0; i < copy.index.length / W; i++) {
      const block = copy.index[i * W];
      this.index[(first + i) * W] = block === IN_FILE ? IN_FILE : base + block;
      for (let k = 1; k < W; k++) this.index[(first + i) * W + k] = copy.index[i * W + k];
    }
    for (const b of copy.blocks) this.blocks.push(b);
    for (const r of copy.rawLengths) this.rawLengths.push(r);
  }

  finish(): TextBlocks {
    this.flush();
    return { index: this.index, blocks: this.blocks, rawLengths: this.rawLengths };
  }
}

/** A growable byte buffer for the postings. */
class ByteWriter {
  buf = new Uint8Array(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  /** A non-negative integer below 2^53, 7 bits per byte (low bits first). */
  varint(x: number): void {
    this.room(8);
    while (x >= 0x80) {
      this.buf[this.length++] = (x % 0x80) | 0x80;
      x = Math.floor(x / 0x80);
    }
    this.buf[this.length++] = x;
  }

  byte(x: number): void {
    this.room(1);
    this.buf[this.length++] = x;
  }
}

/** Every term's postings in the on-disk form; `termByte[t]` is where term t's begin. */
function encodePostings(index: SearchIndex): { termByte: Uint32Array; data: Uint8Array } {
  const all = index.terms.map((_, t) => t);
  index.prepare?.(all);
  const { termStart, postDoc, postTf } = index;
  const termByte = new Uint32Array(index.terms.length + 1);
  const w = new ByteWriter();
  for (let t = 0; t < index.terms.length; t++) {
    termByte[t] = w.length;
    let prev = 0;
    for (let p = termStart[t]; p < termStart[t + 1]; p++) {
      const q = p * 4;
      const mask = (postTf[q] ? 1 : 0) | (postTf[q + 1] ? 2 : 0) | (postTf[q + 2] ? 4 : 0) | (postTf[q + 3] ? 8 : 0);
      const ones = postTf[q] < 2 && postTf[q + 1] < 2 && postTf[q + 2] < 2 && postTf[q + 3] < 2 ? 1 : 0;
      w.varint((postDoc[p] - prev) * 32 + mask * 2 + ones);
      prev = postDoc[p];
      if (!ones) for (let f = 0; f < 4; f++) if (postTf[q + f]) w.byte(postTf[q + f]);
    }
  }
  termByte[index.terms.length] = w.length;
  return { termByte, data: w.buf.subarray(0, w.length) };
}

/** Serialises an index; `text` is the bodies already compressed (`compressBodiesSync`), else they are compressed here. */
export function encodeIndex(index: SearchIndex, buildId: string, text?: TextBlocks): Buffer {
  const n = index.size;
  const recordText = new TextBuilder(n, RECORD_BLOCK_BYTES);
  for (let d = 0; d < n; d++) recordText.add(d, JSON.stringify(toTuple(index.doc(d))));
  const records = recordText.finish();
  const t = text ?? compressBodiesSync(Array.from({ length: n }, (_, d) => index.body(d)));
  if (t.index.length !== n * TEXT_INDEX_WIDTH) throw new Error('the compressed bodies do not belong to this index');
  const postings = encodePostings(index);
  const terms = blob(index.terms);
  const termOffsets = new Uint32Array(index.terms.length + 1);
  for (let t = 0; t < index.terms.length; t++) termOffsets[t] = terms.index[t * 2];
  termOffsets[index.terms.length] = terms.data.length;
  const parts: Record<SectionName, Uint8Array | Buffer[]> = {
    terms: terms.data,
    termOffsets: bytes(termOffsets),
    termStart: bytes(index.termStart),
    termByte: bytes(postings.termByte),
    lengths: bytes(index.lengths),
    flags: index.flags,
    dateDays: bytes(index.dateDays),
    recordIndex: bytes(records.index),
    textIndex: bytes(t.index),
    textBlocks: bytes(blockTableOf(t)),
    recordBlocks: bytes(blockTableOf(records)),
    postings: postings.data,
    records: records.blocks,
    text: t.blocks,
  };
  const sizeOf = (p: Uint8Array | Buffer[]) => (Array.isArray(p) ? p.reduce((a, b) => a + b.length, 0) : p.length);
  const rel = {} as Record<SectionName, [number, number]>;
  let at = 0;
  for (const s of SECTIONS) {
    rel[s] = [at, sizeOf(parts[s])];
    at = pad8(at + sizeOf(parts[s]));
  }
  // The header holds absolute offsets, so its size depends on where the data starts: grow the
  // data start until the header fits in front of it (offsets only get longer, so this settles).
  const head = (base: number) => header(index, buildId, t.blocks.length, records.blocks.length, rel, base);
  let dataStart = 0;
  for (;;) {
    const need = pad8(8 + Buffer.byteLength(JSON.stringify(head(dataStart))));
    if (need <= dataStart) break;
    dataStart = need;
  }
  const headBytes = Buffer.from(JSON.stringify(head(dataStart)), 'utf8');
  const out = Buffer.alloc(dataStart + at);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(headBytes.length, 4);
  headBytes.copy(out, 8);
  for (const s of SECTIONS) {
    const p = parts[s];
    if (!Array.isArray(p)) {
      out.set(p, dataStart + rel[s][0]);
      continue;
    }
    let o = dataStart + rel[s][0];
    for (const b of p) {
      out.set(b, o);
      o += b.length;
    }
  }
  return out;
}

function header(
  index: SearchIndex,
  buildId: string,
  blocks: number,
  recordBlocks: number,
  rel: Record<SectionName, [number, number]>,
  base: number,
): Header {
  const sections = {} as Record<SectionName, [number, number]>;
  for (const s of SECTIONS) sections[s] = [base + rel[s][0], rel[s][1]];
  return {
    format: INDEX_FORMAT,
    build_id: buildId,
    avg_lengths: index.avgLengths,
    docs: index.size,
    terms: index.terms.length,
    postings: index.termStart[index.terms.length] ?? 0,
    blocks,
    record_blocks: recordBlocks,
    sections,
  };
}

/** The block table of some deflated blocks: per block its offset in the section, compressed and raw length. */
function blockTableOf(t: TextBlocks): Uint32Array {
  const table = new Uint32Array(t.blocks.length * 3);
  let at = 0;
  t.blocks.forEach((b, i) => {
    table[i * 3] = at;
    table[i * 3 + 1] = b.length;
    table[i * 3 + 2] = t.rawLengths[i];
    at += b.length;
  });
  return table;
}

function bytes(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Where the bytes come from: a buffer in memory, or a file read piece by piece (pread). */

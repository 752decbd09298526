import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
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
 * in `postings`), `lengths` (u32 × 4), `flags` (u8), `dateDays` (f64), `recordIndex` (u32 × 2),
 * `textIndex` (u32 × 3: block, offset, length) and `textBlocks` (u32 × 3: offset, compressed
 * length, raw length). The rest is read only where a query needs it:
 * - `postings`: per term, per document in increasing order, a varint document delta, a byte whose
 *   low 4 bits say which fields have the term, and those fields' frequencies (one byte each). A
 *   query decodes only its own terms' postings.
 * - `records`: one JSON tuple per document, read and parsed when that document is shown or compared.
 * - `text`: the indexed bodies, UTF-8, concatenated in document order and cut into blocks of about
 *   `TEXT_BLOCK_BYTES`, each deflated on its own, so a shown body costs one block's inflate.
 * Typed arrays are little-endian, as written on every platform Node supports.
 */
const MAGIC = 'MSIX';
const TABLES = [
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
] as const;
const LAZY = ['postings', 'records', 'text'] as const;
const SECTIONS = [...TABLES, ...LAZY] as const;
type SectionName = (typeof SECTIONS)[number];

/** Raw bytes of body text per compressed block (a block holds whole documents, at least one). */
export const TEXT_BLOCK_BYTES = 16 * 1024;
/** Inflated blocks kept per open index (a page of results touches a few dozen at most). */
const BLOCK_CACHE = 32;
/** After this many single-record reads, the whole `records` section is read at once (facet scans). */
const RECORD_READS_BEFORE_BULK = 256;

interface Header {
  format: number;
  build_id: string;
  /** Mean field lengths (over documents that have the field), so a cold search needs no pass over all documents. */
  avg_lengths: number[];
  docs: number;
  terms: number;
  postings: number;
  blocks: number;
  sections: Record<SectionName, [number, number]>;
}

/** Thrown for any structural problem; the caller rebuilds and reports the message as a warning. */
export class CorruptIndexError extends Error {}

type DocTuple = [
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

function fromTuple(t: DocTuple): IndexDoc {
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

const pad8 = (n: number) => (n + 7) & ~7;

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
  /** Per document: block, offset in the inflated block, byte length. */
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

/** Builds the text sections document by document, or by copying another index's blocks. */
export class TextBuilder {
  private readonly index: Uint32Array;
  private readonly blocks: Buffer[] = [];
  private readonly rawLengths: number[] = [];
  private parts: Buffer[] = [];
  private size = 0;

  constructor(docs: number) {
    this.index = new Uint32Array(docs * 3);
  }

  /** Ends the current block (if it has anything). */
  flush(): void {
    if (this.parts.length === 0) return;
    this.blocks.push(
      deflateRawSync(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size), DEFLATE),
    );
    this.rawLengths.push(this.size);
    this.parts = [];
    this.size = 0;
  }

  add(d: number, body: string): void {
    if (this.size >= TEXT_BLOCK_BYTES) this.flush();
    const b = Buffer.from(body, 'utf8');
    this.index[d * 3] = this.blocks.length;
    this.index[d * 3 + 1] = this.size;
    this.index[d * 3 + 2] = b.length;
    this.parts.push(b);
    this.size += b.length;
  }

  /** Appends whole blocks of another index for documents `first ..` (`index` relative to `copy.blocks`). */
  copy(first: number, copy: TextBlocks): void {
    this.flush();
    const base = this.blocks.length;
    for (let i = 0; i < copy.index.length / 3; i++) {
      this.index[(first + i) * 3] = base + copy.index[i * 3];
      this.index[(first + i) * 3 + 1] = copy.index[i * 3 + 1];
      this.index[(first + i) * 3 + 2] = copy.index[i * 3 + 2];
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

  varint(x: number): void {
    this.room(5);
    while (x >= 0x80) {
      this.buf[this.length++] = (x & 0x7f) | 0x80;
      x >>>= 7;
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
      w.varint(postDoc[p] - prev);
      prev = postDoc[p];
      const q = p * 4;
      const mask = (postTf[q] ? 1 : 0) | (postTf[q + 1] ? 2 : 0) | (postTf[q + 2] ? 4 : 0) | (postTf[q + 3] ? 8 : 0);
      w.byte(mask);
      for (let f = 0; f < 4; f++) if (postTf[q + f]) w.byte(postTf[q + f]);
    }
  }
  termByte[index.terms.length] = w.length;
  return { termByte, data: w.buf.subarray(0, w.length) };
}

/** Serialises an index; `text` is the bodies already compressed (`compressBodiesSync`), else they are compressed here. */
export function encodeIndex(index: SearchIndex, buildId: string, text?: TextBlocks): Buffer {
  const n = index.size;
  const records = blob(Array.from({ length: n }, (_, d) => JSON.stringify(toTuple(index.doc(d)))));
  const t = text ?? compressBodiesSync(Array.from({ length: n }, (_, d) => index.body(d)));
  if (t.index.length !== n * 3) throw new Error('the compressed bodies do not belong to this index');
  const blockTable = new Uint32Array(t.blocks.length * 3);
  let textBytes = 0;
  t.blocks.forEach((b, i) => {
    blockTable[i * 3] = textBytes;
    blockTable[i * 3 + 1] = b.length;
    blockTable[i * 3 + 2] = t.rawLengths[i];
    textBytes += b.length;
  });
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
    textBlocks: bytes(blockTable),
    postings: postings.data,
    records: records.data,
    text: t.blocks,
  };
  const sizeOf = (p: Uint8Array | Buffer[]) => (Array.isArray(p) ? textBytes : p.length);
  const rel = {} as Record<SectionName, [number, number]>;
  let at = 0;
  for (const s of SECTIONS) {
    rel[s] = [at, sizeOf(parts[s])];
    at = pad8(at + sizeOf(parts[s]));
  }
  // The header holds absolute offsets, so its size depends on where the data starts: grow the
  // data start until the header fits in front of it (offsets only get longer, so this settles).
  const head = (base: number) => header(index, buildId, t.blocks.length, rel, base);
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
    sections,
  };
}

function bytes(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Where the bytes come from: a buffer in memory, or a file read piece by piece (pread). */
interface Source {
  size: number;
  /** `length` bytes at `offset`, in a buffer whose start is 8-byte aligned. */
  read(offset: number, length: number): Buffer;
}

function bufferSource(input: Buffer): Source {
  // Typed-array views need aligned offsets; a pooled or sliced Buffer may not be.
  const buf = input.byteOffset % 8 === 0 ? input : Buffer.from(new Uint8Array(input));
  return {
    size: buf.length,
    read: (offset, length) => {
      const out = buf.subarray(offset, offset + length);
      return out.byteOffset % 8 === 0 ? out : Buffer.from(new Uint8Array(out));
    },
  };
}

/** Closes the descriptor of an index that is no longer referenced (a long-lived process opens many). */
const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

function fileSource(fd: number): Source {
  const size = fstatSync(fd).size;
  return {
    size,
    read: (offset, length) => {
      const out = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const n = readSync(fd, out, got, length - got, offset + got);
        if (n === 0) throw new CorruptIndexError('index.bin is shorter than its header says (truncated?)');
        got += n;
      }
      return out;
    },
  };
}

function readHeader(src: Source): Header {
  if (src.size < 8) throw new CorruptIndexError('not a search index file');
  const start = src.read(0, 8);
  if (start.toString('latin1', 0, 4) !== MAGIC) throw new CorruptIndexError('not a search index file');
  const len = start.readUInt32LE(4);
  if (8 + len > src.size) throw new CorruptIndexError('the header is truncated');
  let h: Header;
  try {
    h = JSON.parse(src.read(8, len).toString('utf8')) as Header;
  } catch {
    throw new CorruptIndexError('the header is not valid JSON');
  }
  if (h?.format !== INDEX_FORMAT) throw new CorruptIndexError(`format ${h?.format} is not ${INDEX_FORMAT}`);
  if (!Array.isArray(h.avg_lengths) || h.avg_lengths.length !== 4 || !h.avg_lengths.every((x) => x >= 0)) {
    throw new CorruptIndexError('the header has no field length averages');
  }
  for (const s of SECTIONS) {
    const [off, size] = h.sections?.[s] ?? [-1, -1];
    if (!(off >= 0 && size >= 0 && off % 8 === 0 && off + size <= src.size)) {
      throw new CorruptIndexError(`section ${s} lies outside the file (truncated?)`);
    }
  }
  for (let i = 1; i < SECTIONS.length; i++) {
    if (h.sections[SECTIONS[i]][0] < h.sections[SECTIONS[i - 1]][0]) {
      throw new CorruptIndexError('the sections are out of order');
    }
  }
  return h;
}

/** The build id of an index file, reading only its header. */
export function indexBuildId(buf: Buffer): string {
  return readHeader(bufferSource(buf)).build_id;
}

interface Tables {
  /** The term bytes; `termOffsets[t] .. termOffsets[t + 1]` is term t. */
  terms: Buffer;
  termOffsets: Uint32Array;
  termStart: Uint32Array;
  termByte: Uint32Array;
  lengths: Uint32Array;
  flags: Uint8Array;
  dateDays: Float64Array;
  recordIndex: Uint32Array;
  textIndex: Uint32Array;
  textBlocks: Uint32Array;
}

/** Reads the table sections (one read) and views them in place. */
function readTables(src: Source, h: Header): Tables {
  const first = h.sections[TABLES[0]][0];
  const last = h.sections[TABLES[TABLES.length - 1]];
  const buf = src.read(first, last[0] + last[1] - first);
  const sec = (s: SectionName) => h.sections[s];
  const at = (s: SectionName) => buf.byteOffset + sec(s)[0] - first;
  const u32 = (s: SectionName) => new Uint32Array(buf.buffer, at(s), sec(s)[1] >>> 2);
  return {
    terms: buf.subarray(sec('terms')[0] - first, sec('terms')[0] - first + sec('terms')[1]),
    termOffsets: u32('termOffsets'),
    termStart: u32('termStart'),
    termByte: u32('termByte'),
    lengths: u32('lengths'),
    flags: new Uint8Array(buf.buffer, at('flags'), sec('flags')[1]),
    dateDays: new Float64Array(buf.buffer, at('dateDays'), sec('dateDays')[1] >>> 3),
    recordIndex: u32('recordIndex'),
    textIndex: u32('textIndex'),
    textBlocks: u32('textBlocks'),
  };
}

function increasing(a: Uint32Array): boolean {
  for (let i = 0; i + 1 < a.length; i++) if (a[i] > a[i + 1]) return false;
  return true;
}

/**
 * Every table size and offset checked against the header: O(terms + blocks). A term's postings,
 * a document's record and its text are checked when first read.
 */
function checkTables(t: Tables, h: Header): void {
  const n = h.docs;
  const p = h.postings;
  const T = h.terms;
  if (t.termOffsets.length !== T + 1 || t.termStart.length !== T + 1 || t.termByte.length !== T + 1) {
    throw new CorruptIndexError('the term table does not match its offsets');
  }
  if (!increasing(t.termStart) || !increasing(t.termByte) || !increasing(t.termOffsets)) {
    throw new CorruptIndexError('term offsets are not increasing');
  }
  if (t.termOffsets[T] !== t.terms.length) throw new CorruptIndexError('the term table does not match its offsets');
  if (t.termStart[0] !== 0 || t.termStart[T] !== p || t.termByte[T] > h.sections.postings[1]) {
    throw new CorruptIndexError('the postings do not match their offsets');
  }
  const perDoc = [
    t.lengths.length / 4,
    t.flags.length,
    t.dateDays.length,
    t.recordIndex.length / 2,
    t.textIndex.length / 3,
  ];
  if (perDoc.some((x) => x !== n)) throw new CorruptIndexError('the document tables do not match the document count');
  if (t.textBlocks.length !== h.blocks * 3) throw new CorruptIndexError('the text block table is truncated');
  // Each document's record and text offsets are checked when it is first read (`doc`, `body`).
  for (let b = 0; b < h.blocks; b++) {
    if (t.textBlocks[b * 3] + t.textBlocks[b * 3 + 1] > h.sections.text[1]) {
      throw new CorruptIndexError('section text is truncated');
    }
  }
}

/** Decodes term `t`'s postings into `postDoc` / `postTf` at its place; throws on any inconsistency. */
function decodeTerm(src: Source, h: Header, tables: Tables, t: number, postDoc: Uint32Array, postTf: Uint8Array): void {
  const from = tables.termByte[t];
  const to = tables.termByte[t + 1];
  const buf = src.read(h.sections.postings[0] + from, to - from);
  const end = tables.termStart[t + 1];
  let at = 0;
  let doc = 0;
  const bad = () => new CorruptIndexError(`the postings of term ${t} are damaged`);
  for (let p = tables.termStart[t]; p < end; p++) {
    let delta = 0;
    let shift = 0;
    for (;;) {
      if (at >= buf.length || shift > 28) throw bad();
      const b = buf[at++];
      delta += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) break;
      shift += 7;
    }
    if (p > tables.termStart[t] && delta === 0) throw bad();
    doc += delta;
    if (doc >= h.docs || at >= buf.length) throw bad();
    postDoc[p] = doc;
    const mask = buf[at++];
    if (mask === 0 || mask > 15) throw bad();
    const q = p * 4;
    for (let f = 0; f < 4; f++) {
      if (mask & (1 << f)) {
        if (at >= buf.length) throw bad();
        postTf[q + f] = buf[at++];
      } else postTf[q + f] = 0;
    }
  }
  if (at !== buf.length) throw bad();
}

function openIndex(src: Source): { index: SearchIndex; buildId: string } {
  const h = readHeader(src);
  const tables = readTables(src, h);
  checkTables(tables, h);
  const n = h.docs;
  // Zero-filled and untouched until a term is decoded: only the pages of the decoded postings
  // ever become resident.
  const postDoc = new Uint32Array(h.postings);
  const postTf = new Uint8Array(h.postings * 4);
  const decoded = new Uint8Array(h.terms);
  const termAt = (t: number) => tables.terms.toString('utf8', tables.termOffsets[t], tables.termOffsets[t + 1]);
  let terms: string[] | null = null;
  /** Binary search over the term bytes, comparing decoded strings (the order is JS code-unit order). */
  const termRank = (term: string): number => {
    let lo = 0;
    let hi = h.terms - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = termAt(mid);
      if (x === term) return mid;
      if (x < term) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  };
  let records: Buffer | null = null;
  let recordReads = 0;
  const recordText = (d: number): string => {
    const off = tables.recordIndex[d * 2];
    const len = tables.recordIndex[d * 2 + 1];
    if (off + len > h.sections.records[1]) throw new CorruptIndexError('section records is truncated');
    if (!records && ++recordReads > RECORD_READS_BEFORE_BULK) {
      records = src.read(h.sections.records[0], h.sections.records[1]);
    }
    return records
      ? records.toString('utf8', off, off + len)
      : src.read(h.sections.records[0] + off, len).toString('utf8');
  };
  const cache: (IndexDoc | undefined)[] = new Array(n);
  const doc = (d: number) => {
    let v = cache[d];
    if (!v) {
      let tuple: DocTuple;
      try {
        tuple = JSON.parse(recordText(d)) as DocTuple;
      } catch {
        throw new CorruptIndexError(`record ${d} is not valid JSON`);
      }
      v = fromTuple(tuple);
      cache[d] = v;
    }
    return v;
  };
  const blocks = new Map<number, Buffer>();
  const block = (b: number): Buffer => {
    let raw = blocks.get(b);
    if (raw) {
      blocks.delete(b); // re-inserted below: the map's order is the recency order
    } else {
      const packed = src.read(h.sections.text[0] + tables.textBlocks[b * 3], tables.textBlocks[b * 3 + 1]);
      try {
        raw = inflateRawSync(packed);
      } catch (err) {
        throw new CorruptIndexError(`text block ${b} does not inflate (${(err as Error).message})`);
      }
      if (raw.length !== tables.textBlocks[b * 3 + 2])
        throw new CorruptIndexError(`text block ${b} has the wrong size`);
      if (blocks.size >= BLOCK_CACHE) blocks.delete(blocks.keys().next().value as number);
    }
    blocks.set(b, raw);
    return raw;
  };
  const body = (d: number) => {
    const b = tables.textIndex[d * 3];
    const off = tables.textIndex[d * 3 + 1];
    const len = tables.textIndex[d * 3 + 2];
    if (b >= h.blocks || off + len > tables.textBlocks[b * 3 + 2])
      throw new CorruptIndexError('section text is truncated');
    return block(b).toString('utf8', off, off + len);
  };
  /** The blocks holding exactly documents first .. first + count − 1 (compressed, as stored), or null. */
  const textBlocksOf = (first: number, count: number): TextBlocks | null => {
    if (count === 0) return { index: new Uint32Array(0), blocks: [], rawLengths: [] };
    const ti = tables.textIndex;
    const last = first + count - 1;
    if (first < 0 || last >= n) return null;
    const b0 = ti[first * 3];
    const b1 = ti[last * 3];
    // whole blocks only: nobody else's document in the first or the last block
    if (ti[first * 3 + 1] !== 0 || (first > 0 && ti[(first - 1) * 3] === b0)) return null;
    if (last + 1 < n && ti[(last + 1) * 3] === b1) return null;
    if (b1 >= h.blocks || b1 < b0) return null;
    const index = new Uint32Array(count * 3);
    for (let i = 0; i < count; i++) {
      index[i * 3] = ti[(first + i) * 3] - b0;
      index[i * 3 + 1] = ti[(first + i) * 3 + 1];
      index[i * 3 + 2] = ti[(first + i) * 3 + 2];
    }
    const blocks: Buffer[] = [];
    const rawLengths: number[] = [];
    for (let b = b0; b <= b1; b++) {
      blocks.push(src.read(h.sections.text[0] + tables.textBlocks[b * 3], tables.textBlocks[b * 3 + 1]));
      rawLengths.push(tables.textBlocks[b * 3 + 2]);
    }
    return { index, blocks, rawLengths };
  };
  const prepare = (ranks: readonly number[]) => {
    for (const r of ranks) {
      if (r < 0 || r >= decoded.length || decoded[r]) continue;
      decodeTerm(src, h, tables, r, postDoc, postTf);
      decoded[r] = 1;
    }
  };
  const index: SearchIndex = {
    size: n,
    doc,
    body,
    prepare,
    termRank,
    textBlocksOf,
    flags: tables.flags,
    dateDays: tables.dateDays,
    // Materialised only by whole-index work (an incremental update, re-encoding).
    get terms() {
      if (!terms) terms = Array.from({ length: h.terms }, (_, t) => termAt(t));
      return terms;
    },
    termStart: tables.termStart,
    postDoc,
    postTf,
    lengths: tables.lengths,
    avgLengths: h.avg_lengths,
  };
  return { index, buildId: h.build_id };
}

/** Opens an index held in memory; throws `CorruptIndexError` on any inconsistency (never returns a half index). */
export function decodeIndex(input: Buffer): { index: SearchIndex; buildId: string } {
  return openIndex(bufferSource(input));
}

/**
 * Opens `index.bin` without reading it whole: the tables now, each term's postings, record and
 * body block when first asked for. The descriptor stays open (and keeps reading the file this call
 * opened even after a newer build replaces it) until the index is garbage-collected.
 */
export function openIndexFile(path: string): { index: SearchIndex; buildId: string; bytes: number } {
  const fd = openSync(path, 'r');
  try {
    const src = fileSource(fd);
    const opened = openIndex(src);
    descriptors.register(opened.index, fd);
    return { ...opened, bytes: src.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

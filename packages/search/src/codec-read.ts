import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { crc32, inflateRawSync } from 'node:zlib';
import {
  BLOCK_CACHE,
  CorruptIndexError,
  type DocTuple,
  fromTuple,
  type Header,
  IN_FILE,
  MAGIC,
  RECORD_BLOCK_CACHE,
  SECTIONS,
  type SectionName,
  TABLES,
  TEXT_INDEX_WIDTH,
  type TextBlocks,
} from './codec.js';
import { INDEX_FORMAT } from './config.js';
import type { IndexDoc, SearchIndex } from './model.js';

/**
 * Where the bodies kept in the corpus files (`IN_FILE`) are read: the `.workflow/` directory and
 * the size and mtime each file had when it was indexed (the manifest's records).
 */
export interface CorpusFiles {
  workflow: string;
  files: ReadonlyMap<string, { size: number; mtime_ms: number; ctime_ms?: number }>;
}

/** `length` bytes at `offset` of a corpus file, if it still has the size and times it was indexed with. */
function readCorpusBytes(corpus: CorpusFiles, file: string, offset: number, length: number): Buffer {
  const want = corpus.files.get(file);
  if (!want) throw new CorruptIndexError(`a document names ${file}, which the index does not list`);
  let fd: number;
  try {
    fd = openSync(`${corpus.workflow}/${file}`, 'r');
  } catch (err) {
    throw new CorruptIndexError(`${file} is unreadable (${(err as Error).message})`);
  }
  try {
    const st = fstatSync(fd);
    if (
      st.size !== want.size ||
      st.mtimeMs !== want.mtime_ms ||
      (want.ctime_ms !== undefined && st.ctimeMs !== want.ctime_ms) ||
      offset + length > st.size
    ) {
      throw new CorruptIndexError(`${file} changed after it was indexed`);
    }
    const out = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, out, got, length - got, offset + got);
      if (n === 0) throw new CorruptIndexError(`${file} changed after it was indexed`);
      got += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Reading `index.bin` (see codec.ts for the format): whole from a buffer, or lazily from a file. */
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
      // Not zero-filled first: every byte is read into it, or the read throws and it is dropped.
      // Its own allocation (never a pooled slice), so its start is 8-byte aligned.
      const out = Buffer.allocUnsafeSlow(length);
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
  recordBlocks: Uint32Array;
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
    recordBlocks: u32('recordBlocks'),
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
    t.recordIndex.length / TEXT_INDEX_WIDTH,
    t.textIndex.length / TEXT_INDEX_WIDTH,
  ];
  if (perDoc.some((x) => x !== n)) throw new CorruptIndexError('the document tables do not match the document count');
  if (t.textBlocks.length !== h.blocks * 3) throw new CorruptIndexError('the text block table is truncated');
  if (!(h.record_blocks >= 0) || t.recordBlocks.length !== h.record_blocks * 3) {
    throw new CorruptIndexError('the record block table is truncated');
  }
  for (let b = 0; b < h.record_blocks; b++) {
    if (t.recordBlocks[b * 3] + t.recordBlocks[b * 3 + 1] > h.sections.records[1]) {
      throw new CorruptIndexError('section records is truncated');
    }
  }
  // Each document's record and text offsets are checked when it is first read (`doc`, `body`).
  for (let b = 0; b < h.blocks; b++) {
    if (t.textBlocks[b * 3] + t.textBlocks[b * 3 + 1] > h.sections.text[1]) {
      throw new CorruptIndexError('section text is truncated');
    }
  }
}

/**
 * Decodes term `t`'s postings into `postDoc` / `postTf` at its place; throws on any inconsistency.
 * `postTf` must still be zero there (a fresh array; each term is decoded once): a field without
 * the term is left as it is. This loop runs once per posting, mostly before the JIT has compiled
 * it, so it reads each byte once and keeps every bound in a local.
 */
function decodeTerm(src: Source, h: Header, tables: Tables, t: number, postDoc: Uint32Array, postTf: Uint8Array): void {
  const from = tables.termByte[t];
  const to = tables.termByte[t + 1];
  const buf = src.read(h.sections.postings[0] + from, to - from);
  const length = buf.length;
  const first = tables.termStart[t];
  const end = tables.termStart[t + 1];
  const docs = h.docs;
  let at = 0;
  let doc = 0;
  const bad = () => new CorruptIndexError(`the postings of term ${t} are damaged`);
  for (let p = first; p < end; p++) {
    // delta × 32 + mask × 2 + ones (see codec.ts); the low byte first, so it alone holds mask and ones
    if (at >= length) throw bad();
    const low = buf[at++];
    const mask = (low >> 1) & 15;
    let delta = (low & 0x7f) >> 5;
    if (low >= 0x80) {
      let b = low;
      let scale = 4;
      while (b >= 0x80) {
        if (at >= length || scale > 2 ** 40) throw bad();
        b = buf[at++];
        delta += (b & 0x7f) * scale;
        scale *= 128;
      }
    }
    if (mask === 0 || (delta === 0 && p > first)) throw bad();
    doc += delta;
    if (doc >= docs) throw bad();
    postDoc[p] = doc;
    const q = p * 4;
    if ((low & 1) === 1) {
      // `ones`: each field of the mask has the term once
      if ((mask & 1) !== 0) postTf[q] = 1;
      if ((mask & 2) !== 0) postTf[q + 1] = 1;
      if ((mask & 4) !== 0) postTf[q + 2] = 1;
      if ((mask & 8) !== 0) postTf[q + 3] = 1;
      continue;
    }
    for (let f = 0; f < 4; f++) {
      if ((mask & (1 << f)) === 0) continue;
      if (at >= length) throw bad();
      const tf = buf[at++];
      if (tf === 0) throw bad();
      postTf[q + f] = tf;
    }
  }
  if (at !== length) throw bad();
}

/** `load(b)` through a small LRU cache (a Map's order is its recency order). */
function cachedBlock(cache: Map<number, Buffer>, max: number, b: number, load: () => Buffer): Buffer {
  let raw = cache.get(b);
  if (raw) {
    cache.delete(b); // re-inserted below
  } else {
    raw = load();
    if (cache.size >= max) cache.delete(cache.keys().next().value as number);
  }
  cache.set(b, raw);
  return raw;
}

function openIndex(src: Source, corpus: CorpusFiles | null): { index: SearchIndex; buildId: string } {
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
  const recordBlocks = new Map<number, Buffer>();
  const recordText = (d: number): string => {
    const b = tables.recordIndex[d * TEXT_INDEX_WIDTH];
    const off = tables.recordIndex[d * TEXT_INDEX_WIDTH + 1];
    const len = tables.recordIndex[d * TEXT_INDEX_WIDTH + 2];
    if (b >= h.record_blocks || off + len > tables.recordBlocks[b * 3 + 2]) {
      throw new CorruptIndexError('section records is truncated');
    }
    const raw = cachedBlock(recordBlocks, RECORD_BLOCK_CACHE, b, () =>
      inflated('record', b, h.sections.records[0], tables.recordBlocks),
    );
    return raw.toString('utf8', off, off + len);
  };
  /** Block `b` of a section of deflated blocks, inflated and checked against its table row. */
  const inflated = (what: string, b: number, sectionStart: number, table: Uint32Array): Buffer => {
    const packed = src.read(sectionStart + table[b * 3], table[b * 3 + 1]);
    let raw: Buffer;
    try {
      raw = inflateRawSync(packed);
    } catch (err) {
      throw new CorruptIndexError(`${what} block ${b} does not inflate (${(err as Error).message})`);
    }
    if (raw.length !== table[b * 3 + 2]) throw new CorruptIndexError(`${what} block ${b} has the wrong size`);
    return raw;
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
  const block = (b: number): Buffer =>
    cachedBlock(blocks, BLOCK_CACHE, b, () => inflated('text', b, h.sections.text[0], tables.textBlocks));
  const W = TEXT_INDEX_WIDTH;
  const body = (d: number) => {
    const b = tables.textIndex[d * W];
    const off = tables.textIndex[d * W + 1];
    const len = tables.textIndex[d * W + 2];
    if (b === IN_FILE) {
      if (!corpus) throw new CorruptIndexError('a body kept in its corpus file cannot be read without the corpus');
      const bytes = readCorpusBytes(corpus, doc(d).file, off, len);
      if (crc32(bytes) !== tables.textIndex[d * W + 3]) {
        throw new CorruptIndexError(`${doc(d).file} changed after it was indexed`);
      }
      return bytes.toString('utf8');
    }
    if (b >= h.blocks || off + len > tables.textBlocks[b * 3 + 2])
      throw new CorruptIndexError('section text is truncated');
    return block(b).toString('utf8', off, off + len);
  };
  /**
   * The stored text of documents first .. first + count − 1: their `textIndex` rows (blocks
   * renumbered from 0) and the blocks their stored bodies are in, compressed as stored; null
   * unless those blocks hold no other document's body.
   */
  const textBlocksOf = (first: number, count: number): TextBlocks | null => {
    const ti = tables.textIndex;
    const last = first + count - 1;
    if (count === 0) return { index: new Uint32Array(0), blocks: [], rawLengths: [] };
    if (first < 0 || last >= n) return null;
    let b0 = -1;
    let b1 = -1;
    for (let d = first; d <= last; d++) {
      const b = ti[d * W];
      if (b === IN_FILE) continue;
      if (b >= h.blocks || b < b1) return null;
      if (b0 < 0) {
        // whole blocks only: the first stored body starts its block
        if (ti[d * W + 1] !== 0) return null;
        b0 = b;
      }
      b1 = b;
    }
    // ... and no stored body outside the range shares a block with one inside
    if (b0 >= 0) {
      for (let d = first - 1; d >= 0; d--) {
        if (ti[d * W] === IN_FILE) continue;
        if (ti[d * W] >= b0) return null;
        break;
      }
      for (let d = last + 1; d < n; d++) {
        if (ti[d * W] === IN_FILE) continue;
        if (ti[d * W] <= b1) return null;
        break;
      }
    }
    const index = new Uint32Array(count * W);
    for (let i = 0; i < count; i++) {
      const b = ti[(first + i) * W];
      index[i * W] = b === IN_FILE ? IN_FILE : b - b0;
      for (let k = 1; k < W; k++) index[i * W + k] = ti[(first + i) * W + k];
    }
    const blocks: Buffer[] = [];
    const rawLengths: number[] = [];
    if (b0 >= 0) {
      for (let b = b0; b <= b1; b++) {
        blocks.push(src.read(h.sections.text[0] + tables.textBlocks[b * 3], tables.textBlocks[b * 3 + 1]));
        rawLengths.push(tables.textBlocks[b * 3 + 2]);
      }
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
export function decodeIndex(input: Buffer, corpus: CorpusFiles | null = null): { index: SearchIndex; buildId: string } {
  return openIndex(bufferSource(input), corpus);
}

/**
 * Opens `index.bin` without reading it whole: the tables now, each term's postings, record and
 * body block when first asked for. The descriptor stays open (and keeps reading the file this call
 * opened even after a newer build replaces it) until the index is garbage-collected.
 */
export function openIndexFile(
  path: string,
  corpus: CorpusFiles | null,
): { index: SearchIndex; buildId: string; bytes: number } {
  const fd = openSync(path, 'r');
  try {
    const src = fileSource(fd);
    const opened = openIndex(src, corpus);
    descriptors.register(opened.index, fd);
    return { ...opened, bytes: src.size };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

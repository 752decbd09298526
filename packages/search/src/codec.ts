import { INDEX_FORMAT } from './config.js';
import type { IndexDoc, SearchIndex } from './model.js';

/**
 * `index.bin`: the projection in a form that loads without re-tokenising or parsing the corpus.
 *
 *   "MSIX" | u32 header length | header JSON | sections, each aligned to 8 bytes
 *
 * The header names the format, the build id (which must equal the manifest's) and each section's
 * [offset, length] in bytes. Sections: `terms` (JSON array, code-unit sorted), `termStart` (u32),
 * `postDoc` (u32), `postTf` (u8 × 4), `lengths` (u32 × 4), `flags` (u8), `dateDays` (f64),
 * `recordIndex` + `records` (one JSON tuple per document, parsed only when that document is
 * shown or compared), `textIndex` + `text` (UTF-8 bodies). Typed arrays are viewed in place
 * (little-endian, as written on every platform Node supports).
 */
const MAGIC = 'MSIX';
const SECTIONS = [
  'terms',
  'termStart',
  'postDoc',
  'postTf',
  'lengths',
  'flags',
  'dateDays',
  'recordIndex',
  'records',
  'textIndex',
  'text',
] as const;
type SectionName = (typeof SECTIONS)[number];

interface Header {
  format: number;
  build_id: string;
  /** Mean field lengths (over documents that have the field), so a cold search needs no pass over all documents. */
  avg_lengths: number[];
  docs: number;
  terms: number;
  postings: number;
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

export function encodeIndex(index: SearchIndex, buildId: string): Buffer {
  const n = index.size;
  const records = blob(Array.from({ length: n }, (_, d) => JSON.stringify(toTuple(index.doc(d)))));
  const text = blob(Array.from({ length: n }, (_, d) => index.body(d)));
  const parts: Record<SectionName, Uint8Array> = {
    terms: Buffer.from(JSON.stringify(index.terms), 'utf8'),
    termStart: bytes(index.termStart),
    postDoc: bytes(index.postDoc),
    postTf: index.postTf,
    lengths: bytes(index.lengths),
    flags: index.flags,
    dateDays: bytes(index.dateDays),
    recordIndex: bytes(records.index),
    records: records.data,
    textIndex: bytes(text.index),
    text: text.data,
  };
  const rel = {} as Record<SectionName, [number, number]>;
  let at = 0;
  for (const s of SECTIONS) {
    rel[s] = [at, parts[s].length];
    at = pad8(at + parts[s].length);
  }
  // The header holds absolute offsets, so its size depends on where the data starts: grow the
  // data start until the header fits in front of it (offsets only get longer, so this settles).
  let dataStart = 0;
  for (;;) {
    const need = pad8(8 + Buffer.byteLength(JSON.stringify(header(index, buildId, rel, dataStart))));
    if (need <= dataStart) break;
    dataStart = need;
  }
  const head = Buffer.from(JSON.stringify(header(index, buildId, rel, dataStart)), 'utf8');
  const out = Buffer.alloc(dataStart + at);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(head.length, 4);
  head.copy(out, 8);
  for (const s of SECTIONS) out.set(parts[s], dataStart + rel[s][0]);
  return out;
}

function header(index: SearchIndex, buildId: string, rel: Record<SectionName, [number, number]>, base: number): Header {
  const sections = {} as Record<SectionName, [number, number]>;
  for (const s of SECTIONS) sections[s] = [base + rel[s][0], rel[s][1]];
  return {
    format: INDEX_FORMAT,
    build_id: buildId,
    avg_lengths: index.avgLengths,
    docs: index.size,
    terms: index.terms.length,
    postings: index.postDoc.length,
    sections,
  };
}

function bytes(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function readHeader(buf: Buffer): Header {
  if (buf.length < 8 || buf.toString('latin1', 0, 4) !== MAGIC) throw new CorruptIndexError('not a search index file');
  const len = buf.readUInt32LE(4);
  if (8 + len > buf.length) throw new CorruptIndexError('the header is truncated');
  let h: Header;
  try {
    h = JSON.parse(buf.toString('utf8', 8, 8 + len)) as Header;
  } catch {
    throw new CorruptIndexError('the header is not valid JSON');
  }
  if (h.format !== INDEX_FORMAT) throw new CorruptIndexError(`format ${h.format} is not ${INDEX_FORMAT}`);
  if (!Array.isArray(h.avg_lengths) || h.avg_lengths.length !== 4 || !h.avg_lengths.every((x) => x >= 0)) {
    throw new CorruptIndexError('the header has no field length averages');
  }
  for (const s of SECTIONS) {
    const [off, size] = h.sections?.[s] ?? [-1, -1];
    if (!(off >= 0 && size >= 0 && off % 8 === 0 && off + size <= buf.length)) {
      throw new CorruptIndexError(`section ${s} lies outside the file (truncated?)`);
    }
  }
  return h;
}

/** The build id of an index file, reading only its header. */
export function indexBuildId(buf: Buffer): string {
  return readHeader(buf).build_id;
}

type Tables = Pick<SearchIndex, 'terms' | 'termStart' | 'postDoc' | 'postTf' | 'lengths' | 'flags' | 'dateDays'> & {
  recordIndex: Uint32Array;
  textIndex: Uint32Array;
};

/** Views every fixed-size section in place (no copy) and parses the term list. */
function viewTables(buf: Buffer, h: Header): Tables {
  const sec = (s: SectionName) => h.sections[s];
  const at = (s: SectionName) => buf.byteOffset + sec(s)[0];
  const u32 = (s: SectionName) => new Uint32Array(buf.buffer, at(s), sec(s)[1] >>> 2);
  let terms: string[];
  try {
    terms = JSON.parse(buf.toString('utf8', sec('terms')[0], sec('terms')[0] + sec('terms')[1])) as string[];
  } catch {
    throw new CorruptIndexError('section terms is not valid JSON');
  }
  return {
    terms,
    termStart: u32('termStart'),
    postDoc: u32('postDoc'),
    postTf: new Uint8Array(buf.buffer, at('postTf'), sec('postTf')[1]),
    lengths: u32('lengths'),
    flags: new Uint8Array(buf.buffer, at('flags'), sec('flags')[1]),
    dateDays: new Float64Array(buf.buffer, at('dateDays'), sec('dateDays')[1] >>> 3),
    recordIndex: u32('recordIndex'),
    textIndex: u32('textIndex'),
  };
}

/**
 * Every size and offset checked against the header: O(terms + documents). The postings are not
 * scanned (that would cost a pass over the whole index on every cold search); scoring skips a
 * document number past the end instead.
 */
function checkTables(t: Tables, h: Header): void {
  const n = h.docs;
  const p = h.postings;
  if (!Array.isArray(t.terms) || t.terms.length !== h.terms || t.termStart.length !== t.terms.length + 1) {
    throw new CorruptIndexError('the term table does not match its offsets');
  }
  const perDoc = [
    t.lengths.length / 4,
    t.flags.length,
    t.dateDays.length,
    t.recordIndex.length / 2,
    t.textIndex.length / 2,
  ];
  if (perDoc.some((x) => x !== n)) throw new CorruptIndexError('the document tables do not match the document count');
  if (t.postDoc.length !== p || t.postTf.length !== p * 4 || t.termStart[t.terms.length] !== p) {
    throw new CorruptIndexError('the postings do not match their offsets');
  }
  for (let i = 0; i < t.terms.length; i++) {
    if (t.termStart[i] > t.termStart[i + 1]) throw new CorruptIndexError('term offsets are not increasing');
  }
  for (const [table, s] of [
    [t.recordIndex, 'records'],
    [t.textIndex, 'text'],
  ] as const) {
    for (let d = 0; d < n; d++) {
      if (table[d * 2] + table[d * 2 + 1] > h.sections[s][1]) throw new CorruptIndexError(`section ${s} is truncated`);
    }
  }
}

/** Reads `index.bin`; throws `CorruptIndexError` on any inconsistency (never returns a half index). */
export function decodeIndex(input: Buffer): { index: SearchIndex; buildId: string } {
  // Typed-array views need aligned offsets; a pooled or sliced Buffer may not be.
  const buf = input.byteOffset % 8 === 0 ? input : Buffer.from(new Uint8Array(input));
  const h = readHeader(buf);
  const t = viewTables(buf, h);
  checkTables(t, h);
  const slice = (table: Uint32Array, s: SectionName, d: number) => {
    const from = h.sections[s][0] + table[d * 2];
    return buf.toString('utf8', from, from + table[d * 2 + 1]);
  };
  const cache: (IndexDoc | undefined)[] = new Array(h.docs);
  const doc = (d: number) => {
    let v = cache[d];
    if (!v) {
      let tuple: DocTuple;
      try {
        tuple = JSON.parse(slice(t.recordIndex, 'records', d)) as DocTuple;
      } catch {
        throw new CorruptIndexError(`record ${d} is not valid JSON`);
      }
      v = fromTuple(tuple);
      cache[d] = v;
    }
    return v;
  };
  const { recordIndex, textIndex, ...tables } = t;
  const body = (d: number) => slice(textIndex, 'text', d);
  return { index: { ...tables, size: h.docs, doc, body, avgLengths: h.avg_lengths }, buildId: h.build_id };
}

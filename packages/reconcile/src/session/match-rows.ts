import { sha256 } from '@maestro/core';
import type { SectionSpec } from '@maestro/store';
import { MATCHER_REVISION } from '../matcher/reconcile.js';

/**
 * The layout of the `match` section. Its store revision also names the matcher revision: the
 * stored retrieval keys are the matcher's, so a new matcher re-derives them.
 *
 * 2: one row per corpus file (no row per entry, no copy of entry content: content is read back
 * from the file by byte range and checked against its content hash), retrieval keys as packed
 * term ids.
 * 3: per file, where it may be re-derived from (`ResumeInfo`): its size and chunk hashes, so an
 * append or an edit in the middle re-derives only the changed entries.
 */
export const MATCH_SECTION_REVISION = 'match-store/3';

/**
 * Entries per file slot: a document's store key is `file_id × SLOT + position in its file`. The
 * number the matcher sees is the entry's position in the whole corpus (the entries of the files
 * before it, in corpus order, plus its position), computed per process from `match_files`: stored
 * keys never move when another file changes, and the matcher's numbers are dense and in corpus order.
 */
export const SLOT = 2 ** 22;

export const MATCH_SECTION: SectionSpec = {
  name: 'match',
  revision: `${MATCH_SECTION_REVISION}+${MATCHER_REVISION}`,
  ddl: [
    // One row per corpus file, derived from the file's bytes with this content hash:
    // - dir: JSON of the entries' identity columns (`DirColumns`), read by every command;
    // - body: JSON of the columns only a scored or looked-up entry needs (`BodyColumns`);
    // - hashes: `HASH_BYTES` per entry (see `HashCols`);
    // - terms: per entry, its retrieval keys as term ids (count, then the ids, varints);
    // - resume: JSON of `ResumeInfo` (null when the file cannot be re-derived in part).
    `CREATE TABLE match_files (
       file_id INTEGER PRIMARY KEY,
       path TEXT NOT NULL UNIQUE,
       sha256 TEXT NOT NULL,
       entries INTEGER NOT NULL,
       dir TEXT NOT NULL,
       body TEXT NOT NULL,
       hashes BLOB NOT NULL,
       terms BLOB NOT NULL,
       resume TEXT
     )`,
    // Retrieval keys (terms, alternative sets, sketch pairs) with their document frequency and
    // postings (store keys, ascending, delta varints). Rows are never deleted: ids stay stable.
    `CREATE TABLE match_terms (
       term_id INTEGER PRIMARY KEY,
       term TEXT NOT NULL UNIQUE,
       df INTEGER NOT NULL,
       docs BLOB NOT NULL
     )`,
    'CREATE TABLE match_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID',
  ],
};

/**
 * Where a spec file whose entries are all `<spec-entry>` blocks a scan may resume after (clean
 * tags, no text entries between them, no twin ids) can be re-derived from: its head (the bytes
 * before the first block, no entries) then its entries grouped in chunks, each chunk the bytes
 * from the previous chunk's end to the end of its last block. A chunk whose bytes hash the same in the new file (at the same
 * place from the start, or the same place from the end) keeps its entries' rows.
 */
export interface ResumeInfo {
  size: number;
  /** The file's default category (from its frontmatter, in the first chunk). */
  category: string | null;
  /** Per chunk: entries up to its end, end byte, end character, line at the end, 16 hex of sha256 of its bytes. */
  chunks: [number, number, number, number, string][];
  /** 16 hex of sha256 of the bytes after the last chunk. */
  trail: string;
}

/** Entries per chunk of `ResumeInfo` (an edit re-derives about this many). */
export const CHUNK = 32;

/** 16 hex of the sha256 of some bytes (a chunk's). */
export function chunkHash(bytes: Uint8Array): string {
  return sha256(bytes).slice(0, 16);
}

/** Entry flags: indexed for retrieval (active, with content), or deprecated with content. */
export const ACTIVE = 1;
export const RETIRED = 2;

/** The identity columns of a file's entries (index = position in the file), as the file says them. */
export interface DirColumns {
  id: string[];
  status: string[];
  flags: number[];
  /** Raw links: `supersedes` (0 when none), `superseded-by`, `ref` (0 when none). */
  sup: (string[] | 0)[];
  by: (string | 0)[];
  ref: (string | 0)[];
}

/** What reading an entry back needs: title, line and where its content is in the file. */
export interface BodyColumns {
  title: string[];
  line: (number | 0)[];
  /** Byte offset and byte length of the content in the file; -1 when the content is inline. */
  at: number[];
  len: number[];
  /** Contents that are not a verbatim byte range of the file (by position). */
  inline: Record<string, string>;
}

/**
 * Per-entry fixed-width hashes: content check (first 8 bytes of the content hash), text key (8
 * bytes of sha256 over content and title: equal keys, equal retrieval keys and exact/title
 * hashes), exact-content and title lookup hashes (6 bytes, 0 when none) and the receipt entry hash
 * with the file's own links (8 bytes).
 */
export const HASH_BYTES = 36;
export const H_CHECK = 0;
export const H_TEXT = 8;
export const H_EXACT = 16;
export const H_TITLE = 22;
export const H_ENTRY = 28;

/** A 48-bit hash of a lookup key (exact content, title): rows found by it are verified. */
export function keyHash(s: string): number {
  return Number.parseInt(sha256(s).slice(0, 12), 16);
}

/** The text key of an entry: sha256 over its content and title, 16 hex. */
export function textKey(content: string, title: string): string {
  return sha256(`${content}\n${title}`).slice(0, 16);
}

export const strip = (ref: string) => ref.replace(/^\.workflow\//, '');

/** What review and carry-over read of a corpus entry, deprecated entries included. */
export interface TargetInfo {
  status: string;
  contentHash: string;
  title: string;
  file: string;
  line: number | null;
  supersededBy: string | null;
}

/** Entry facts by id (a `Map`, or rows read on demand from the store). */
export interface TargetLookup {
  get(id: string): TargetInfo | undefined;
}

// --- varints ---

/** A growable byte buffer of varints. */
export class VarintWriter {
  private buf: Uint8Array;
  private at = 0;
  constructor(size = 256) {
    this.buf = new Uint8Array(size);
  }
  put(v: number): void {
    this.room(10);
    while (v >= 128) {
      this.buf[this.at++] = (v % 128) | 128;
      v = Math.floor(v / 128);
    }
    this.buf[this.at++] = v;
  }
  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const more = new Uint8Array(Math.max(this.buf.length * 2, this.at + n) + 16);
    more.set(this.buf.subarray(0, this.at));
    this.buf = more;
  }
  append(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
  }
  bytes(): Buffer {
    return Buffer.from(this.buf.buffer, this.buf.byteOffset, this.at);
  }
}

/** Ascending integers as delta varints. */
export function encode(sorted: readonly number[]): Buffer {
  const out = new VarintWriter(sorted.length * 2 + 8);
  let prev = 0;
  for (const n of sorted) {
    out.put(n - prev);
    prev = n;
  }
  return out.bytes();
}

/** Decodes a postings blob (ascending integers), each mapped by `map` when given. */
export function decode(buf: Uint8Array | null, map?: (n: number) => number): number[] {
  const out: number[] = [];
  if (!buf) return out;
  let prev = 0;
  let v = 0;
  let scale = 1;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    v += (b & 127) * scale;
    if (b & 128) {
      scale *= 128;
      continue;
    }
    prev += v;
    out.push(map ? map(prev) : prev);
    v = 0;
    scale = 1;
  }
  return out;
}

/** A stored terms blob, read entry by entry: where each entry's bytes start, its ids decoded on demand. */
export class TermsBlob {
  private readonly starts: Uint32Array;
  constructor(
    readonly buf: Uint8Array,
    readonly entries: number,
  ) {
    this.starts = new Uint32Array(entries + 1);
    let i = 0;
    for (let d = 0; d < entries; d++) {
      this.starts[d] = i;
      let n = 0;
      let scale = 1;
      for (;;) {
        const b = buf[i++];
        n += (b & 127) * scale;
        if (!(b & 128)) break;
        scale *= 128;
      }
      for (let k = 0; k < n; k++) while (buf[i++] & 128);
    }
    this.starts[entries] = i;
  }
  /** Entry `d`'s bytes (its count and ids), as they are stored. */
  raw(d: number): Uint8Array {
    return this.buf.subarray(this.starts[d], this.starts[d + 1]);
  }
  /** The stored bytes of entries `from` up to `to`. */
  rawRange(from: number, to: number): Uint8Array {
    return this.buf.subarray(this.starts[from], this.starts[to]);
  }
  /** Entry `d`'s term ids, in the order they were written. */
  ids(d: number): number[] {
    const buf = this.buf;
    let i = this.starts[d];
    const next = () => {
      let v = 0;
      let scale = 1;
      for (;;) {
        const b = buf[i++];
        v += (b & 127) * scale;
        if (!(b & 128)) return v;
        scale *= 128;
      }
    };
    const n = next();
    const out: number[] = new Array(n);
    for (let k = 0; k < n; k++) out[k] = next();
    return out;
  }
}

/** Builds a terms blob entry by entry: new id lists, or stored entries' bytes as they are. */
export class TermsWriter {
  private readonly out: VarintWriter;
  constructor(entries: number) {
    this.out = new VarintWriter(entries * 48 + 16);
  }
  ids(list: readonly number[]): void {
    this.out.put(list.length);
    for (const n of list) this.out.put(n);
  }
  raw(bytes: Uint8Array): void {
    this.out.append(bytes);
  }
  bytes(): Buffer {
    return this.out.bytes();
  }
}

/** Decodes a terms blob into one id list per entry. */
export function decodeTerms(buf: Uint8Array, entries: number): number[][] {
  const blob = new TermsBlob(buf, entries);
  const out: number[][] = [];
  for (let d = 0; d < entries; d++) out.push(blob.ids(d));
  return out;
}

/** A stored file: its id, path, content hash and entry count. */
export interface FileRow {
  file_id: number;
  path: string;
  sha256: string;
  entries: number;
}

/** Corpus order of file paths: specs/ before knowhow/, each by name (as `corpusFiles` lists them). */
export function comparePaths(a: string, b: string): number {
  const sa = a.startsWith('specs/') ? 0 : 1;
  const sb = b.startsWith('specs/') ? 0 : 1;
  return sa - sb || (a < b ? -1 : a > b ? 1 : 0);
}

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Issue, normalizeText, sha256 } from '@maestro/core';
import type { DerivedStore, SectionSpec } from '@maestro/store';
import { conflictMarkerLines } from './conflict-markers.js';
import { type EncodedKeys, encodeKeys } from './corpus-keys.js';
import { byteRanges, type EntrySpot, type ParsedFileRows, scanSpecRows } from './corpus-pack.js';
import { LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';

export { type EntrySpot, type ParsedFileRows, scanSpecRows } from './corpus-pack.js';

/**
 * The `spec` section of the derived-state store: where every entry of every corpus file sits,
 * never what it says. Per file (`spec_files`, keyed by the file's content sha256) a compact blob
 * of varints gives each entry's flags, line, offset and, for a reusable `<spec-entry>` block, its
 * character and byte range, plus 32-bit keys of its title; `spec_ids` maps ids to (file, position)
 * and `spec_links` supersession link values to the entries holding them. An entry's text is read
 * back from its file by byte range (after the file's hash is checked through `fileStates`) and
 * parsed on its own. Rows are derived state only: the loader checks every file's hash first and
 * rebuilds what does not match.
 */

/** The source files whose code decides what a parse returns; their bytes are part of the revision. */
const PARSER_SOURCES = [
  'corpus-store',
  'corpus-pack',
  'spec-view',
  'spec-file',
  'conflict-markers',
  'spec-tag',
  'spec-text',
  'entities',
  'frontmatter',
  'yaml-fast',
  'knowhow-file',
  'lines',
  'model',
  'seeds',
];

let section: SectionSpec | null = null;

/**
 * The section at a revision that changes with the parser's own code (any edit to the files above
 * drops the stored rows), so rows written by another build are never read as this build's parse.
 */
export function specSection(): SectionSpec {
  if (section) return section;
  const dir = dirname(fileURLToPath(import.meta.url));
  const h = createHash('sha256');
  for (const name of PARSER_SOURCES) {
    for (const ext of ['.js', '.ts']) {
      try {
        h.update(readFileSync(join(dir, name + ext)));
        h.update('\u0000');
        break;
      } catch {
        // the other extension (built vs source)
      }
    }
  }
  section = {
    name: 'spec',
    revision: `2-${h.digest('hex').slice(0, 16)}`,
    ddl: [
      `CREATE TABLE spec_files (
         num INTEGER PRIMARY KEY,
         path TEXT NOT NULL UNIQUE,
         sha256 TEXT NOT NULL,
         size INTEGER NOT NULL,
         utf8 INTEGER NOT NULL,
         entries INTEGER NOT NULL,
         default_category TEXT,
         issues TEXT NOT NULL,
         parse_issues INTEGER NOT NULL,
         spots BLOB NOT NULL
       )`,
      `CREATE TABLE spec_ids (
         id TEXT NOT NULL,
         file INTEGER NOT NULL,
         pos INTEGER NOT NULL,
         PRIMARY KEY (id, file, pos)
       ) WITHOUT ROWID`,
      `CREATE TABLE spec_links (
         target TEXT NOT NULL,
         file INTEGER NOT NULL,
         pos INTEGER NOT NULL,
         PRIMARY KEY (target, file, pos)
       ) WITHOUT ROWID`,
    ],
  };
  return section;
}

// ---------------------------------------------------------------------------------------------
// Spots: one entry's place, packed

export const F_LEGACY = 1;
export const F_SID = 2;
export const F_DEPRECATED = 4;
export const F_REUSABLE = 8;
export const F_TITLED = 16;

/** One stored entry: where it sits, and keys of its title (0 when it has no title of its own). */
export interface Spot {
  flags: number;
  line: number | null;
  offset: number;
  /** Reusable blocks only: the character end, and the UTF-8 byte range of the block. */
  end: number | null;
  byteStart: number | null;
  byteEnd: number | null;
  /** `titleKey` of `title.trim().toLowerCase()` (the duplicate check of `spec add`). */
  dupKey: number;
  /** `titleKey` of `normalizeText(title)` (the title preflight of promotion). */
  normKey: number;
}

/** FNV-1a over UTF-16 code units, folded to 16 bits: a filter only (every hit is checked against the entry itself). */
export function titleKey(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 16) ^ h) & 0xffff || 1;
}

export function titled(e: KnowledgeEntry): boolean {
  return e.titleSource !== 'content' && e.titleSource !== 'none';
}

/** Blocks longer than this (in bytes) are not marked reusable: their length must fit the record. */
const MAX_BLOCK_BYTES = 0xffffff;

/** The spot of a parsed entry at `spot`, with its byte range (null when the block is not reusable). */
export function spotOf(e: KnowledgeEntry, spot: EntrySpot, bytes: [number, number] | null): Spot {
  const t = e.store === 'spec' && titled(e);
  const reusable = spot.end !== null && bytes !== null && bytes[1] - bytes[0] <= MAX_BLOCK_BYTES;
  return {
    flags:
      (e.legacy ? F_LEGACY : 0) |
      (e.hasSid ? F_SID : 0) |
      (e.status === 'deprecated' ? F_DEPRECATED : 0) |
      (reusable ? F_REUSABLE : 0) |
      (t ? F_TITLED : 0),
    line: spot.line,
    offset: spot.offset,
    end: reusable ? spot.end : null,
    byteStart: reusable ? (bytes?.[0] ?? null) : null,
    byteEnd: reusable ? (bytes?.[1] ?? null) : null,
    dupKey: t ? titleKey(e.title.trim().toLowerCase()) : 0,
    normKey: t ? titleKey(normalizeText(e.title)) : 0,
  };
}

/**
 * Spots as fixed records of six little-endian uint32 (24 bytes an entry), so a lookup reads the
 * one it needs without decoding the file's others: flags | block bytes << 8, line (0: none),
 * offset, block characters, block byte start, dup key << 16 | norm key.
 */
const WORDS = 6;

/** Bytes of one encoded spot. */
export const SPOT_BYTES = WORDS * 4;

export function encodeSpots(spots: readonly Spot[]): Buffer {
  const buf = Buffer.alloc(spots.length * SPOT_BYTES);
  spots.forEach((s, i) => {
    writeSpot(buf, i, s);
  });
  return buf;
}

/** Writes spot `s` as the `i`th record of `buf` (see `encodeSpots`). */
export function writeSpot(buf: Buffer, i: number, s: Spot): void {
  const o = i * SPOT_BYTES;
  const reusable = (s.flags & F_REUSABLE) !== 0;
  buf.writeUInt32LE((s.flags & 0xff) + (reusable ? ((s.byteEnd as number) - (s.byteStart as number)) * 256 : 0), o);
  buf.writeUInt32LE(s.line ?? 0, o + 4);
  buf.writeUInt32LE(s.offset, o + 8);
  buf.writeUInt32LE(reusable ? (s.end as number) - s.offset : 0, o + 12);
  buf.writeUInt32LE(reusable ? (s.byteStart as number) : 0, o + 16);
  buf.writeUInt32LE((s.dupKey & 0xffff) * 0x10000 + (s.normKey & 0xffff), o + 20);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A file's stored spots, read in place. */
export class Spots {
  private readonly w: Uint32Array;
  readonly length: number;

  constructor(blob: Uint8Array, count: number) {
    if (blob.byteLength !== count * WORDS * 4) throw new Error('spec rows: spots blob does not match its entry count');
    const copy = new Uint8Array(blob.byteLength);
    copy.set(blob);
    if (!LITTLE_ENDIAN) {
      for (let i = 0; i < copy.length; i += 4) copy.subarray(i, i + 4).reverse();
    }
    this.w = new Uint32Array(copy.buffer);
    this.length = count;
  }

  flags(i: number): number {
    return this.w[i * WORDS] & 0xff;
  }
  dupKey(i: number): number {
    return this.w[i * WORDS + 5] >>> 16;
  }
  normKey(i: number): number {
    return this.w[i * WORDS + 5] & 0xffff;
  }

  at(i: number): Spot {
    const o = i * WORDS;
    const w = this.w;
    const flags = w[o] & 0xff;
    const reusable = (flags & F_REUSABLE) !== 0;
    return {
      flags,
      line: w[o + 1] === 0 ? null : w[o + 1],
      offset: w[o + 2],
      end: reusable ? w[o + 2] + w[o + 3] : null,
      byteStart: reusable ? w[o + 4] : null,
      byteEnd: reusable ? w[o + 4] + Math.floor(w[o] / 256) : null,
      dupKey: w[o + 5] >>> 16,
      normKey: w[o + 5] & 0xffff,
    };
  }

  all(): Spot[] {
    const out: Spot[] = [];
    for (let i = 0; i < this.length; i++) out.push(this.at(i));
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Saving

/** The link values an entry holds (raw, as written): what `spec_links` indexes. */
export function linkValues(e: KnowledgeEntry): string[] {
  const out = new Set(e.supersedes);
  if (e.supersededBy) out.add(e.supersededBy);
  return [...out];
}

/** Ids and link values of entries as they are now (saved before any corpus-wide pass renames them). */
export function keysOf(entries: readonly KnowledgeEntry[]): { id: string; links: string[] }[] {
  return entries.map((e) => ({ id: e.id, links: linkValues(e) }));
}

interface Statements {
  num: (path: string) => number | undefined;
  delFile: (num: number) => void;
  putIds: (num: number, from: number, keys: EncodedKeys) => void;
}

function statements(store: DerivedStore): Statements {
  const numOf = store.prepare('SELECT num FROM spec_files WHERE path = ?').pluck(true);
  const delIds = store.prepare('DELETE FROM spec_ids WHERE file = ?');
  const delLinks = store.prepare('DELETE FROM spec_links WHERE file = ?');
  const delRow = store.prepare('DELETE FROM spec_files WHERE num = ?');
  // One statement per file, its ids as one JSON array (position = index): SQLite unpacks it
  // natively, instead of a call per entry from JavaScript.
  const putIds = store.prepare(
    'INSERT OR IGNORE INTO spec_ids (id, file, pos) SELECT value, ?, ? + key FROM json_each(?)',
  );
  const putLinks = store.prepare(
    "INSERT OR IGNORE INTO spec_links (target, file, pos) SELECT value ->> '$[0]', ?, value ->> '$[1]' FROM json_each(?)",
  );
  return {
    num: (path) => numOf.get(path) as number | undefined,
    delFile: (num) => {
      delIds.run(num);
      delLinks.run(num);
      delRow.run(num);
    },
    putIds: (num, from, keys) => {
      putIds.run(num, from, keys.ids);
      if (keys.links) putLinks.run(num, keys.links);
    },
  };
}

/** Saves the ids and link values of a file's entries from position `from` on. */
export function putKeys(
  store: DerivedStore,
  num: number,
  from: number,
  keys: readonly { id: string; links: string[] }[],
) {
  statements(store).putIds(num, from, encodeKeys(keys, from));
}

/** The spots of a parsed file: its entries' places, with byte ranges when its text is valid UTF-8. */
export function spotsOfParsed(f: ParsedFileRows): Spot[] {
  const ranges = f.text === null ? null : byteRanges(f.text, f.spots);
  return f.entries.map((e, pos) => spotOf(e, f.spots[pos], ranges?.[pos] ?? null));
}

/**
 * One file's `spec` row ready to insert: plain data (numbers, strings, bytes), so a worker thread
 * that parsed the file can hand it to the thread that writes.
 */
export interface EncodedSpecRow {
  path: string;
  sha256: string;
  size: number;
  utf8: boolean;
  entries: number;
  defaultCategory: string | null;
  /** The file's issues as JSON. */
  issues: string;
  parseIssues: number;
  /** `encodeSpots` of the file's spots. */
  spots: Uint8Array;
  /** The entries' ids and link values, encoded as saved (position 0 first). */
  keys: EncodedKeys;
}

/** A parsed file's row as plain data (see `EncodedSpecRow`). */
export function encodeSpecRow(f: ParsedFileRows): EncodedSpecRow {
  return {
    path: f.path,
    sha256: f.sha256,
    size: f.size,
    utf8: f.utf8,
    entries: f.entries.length,
    defaultCategory: f.defaultCategory,
    issues: JSON.stringify(f.issues),
    parseIssues: f.parseIssues,
    spots: encodeSpots(spotsOfParsed(f)),
    keys: encodeKeys(f.keys ?? keysOf(f.entries)),
  };
}

/** Saves parsed files (their rows replace the old ones) and forgets files that are gone. */
export function saveParsedFiles(store: DerivedStore, parsed: readonly ParsedFileRows[], gone: readonly string[]) {
  saveEncodedRows(store, parsed.map(encodeSpecRow), gone);
}

/** Saves encoded rows (replacing the files' old rows) and forgets files that are gone. */
export function saveEncodedRows(store: DerivedStore, rows: readonly EncodedSpecRow[], gone: readonly string[]) {
  const st = statements(store);
  const putFile = store.prepare(
    'INSERT INTO spec_files (path, sha256, size, utf8, entries, default_category, issues, parse_issues, spots) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const path of gone) {
    const num = st.num(path);
    if (num !== undefined) st.delFile(num);
  }
  for (const f of rows) {
    const old = st.num(f.path);
    if (old !== undefined) st.delFile(old);
    // Bytes that crossed from a worker arrive as a plain Uint8Array; SQLite binds a Buffer.
    const spots = Buffer.isBuffer(f.spots)
      ? f.spots
      : Buffer.from(f.spots.buffer, f.spots.byteOffset, f.spots.byteLength);
    const info = putFile.run(
      f.path,
      f.sha256,
      f.size,
      f.utf8 ? 1 : 0,
      f.entries,
      f.defaultCategory,
      f.issues,
      f.parseIssues,
      spots,
    );
    st.putIds(Number(info.lastInsertRowid), 0, f.keys);
  }
}

/** The stored row of a file, as the loader reads it (without its spots). */
export interface PreviousFile {
  num: number;
  sha256: string;
  size: number;
  utf8: number;
  entries: number;
  default_category: string | null;
  issues: string;
  parse_issues: number;
}

/** A spec file that only grew at its end: its new row, and its new entries. */
export interface Appended {
  path: string;
  num: number;
  sha256: string;
  size: number;
  entries: number;
  defaultCategory: string | null;
  issues: Issue[];
  parseIssues: number;
  /** Every entry's spot, encoded (`encodeSpots`): the old rows as stored, then the new ones. */
  spots: Uint8Array;
  /** The new entries (positions from `entries - tail.length`). */
  tail: KnowledgeEntry[];
}

/**
 * A spec file whose old bytes are the start of its new bytes (an entry appended, as `spec add`
 * does) keeps its old rows: the scan resumes after the last old entry (when that is a reusable
 * block, so a whole scan reaches the same point in the same state), and only what follows is
 * parsed. Exactly the whole parse's rows; null when that cannot be vouched for (the file did not
 * just grow, its last entry is not a reusable block, or a new entry has no sid: twin suffixes of
 * derived ids count the whole file).
 */
export function scanAppended(
  store: DerivedStore,
  file: string,
  text: string,
  /** The file's bytes, or only their length when the prefix is known. */
  buf: Buffer | number,
  hash: string,
  old: PreviousFile,
  /** The caller knows the first `old.size` bytes are the ones `old.sha256` was taken from. */
  prefixKnown = false,
): Appended | null {
  const size = typeof buf === 'number' ? buf : buf.length;
  if (old.utf8 !== 1 || old.entries === 0 || size <= old.size) return null;
  // A conflict may open before the resume point and close after it: only a whole scan sees it.
  if (conflictMarkerLines(text).length > 0) return null;
  if (!prefixKnown && (typeof buf === 'number' || sha256(buf.subarray(0, old.size)) !== old.sha256)) return null;
  const blob = store
    .prepare('SELECT spots FROM spec_files WHERE num = ? AND sha256 = ?')
    .pluck(true)
    .get(old.num, old.sha256) as Buffer | undefined;
  if (!blob) return null;
  const stored = new Spots(blob, old.entries);
  const last = stored.at(old.entries - 1);
  if (last.end === null || last.byteEnd === null) return null;
  const from = last.end;
  // Lines are counted from the last old entry's start (its line is stored), not from the file's start.
  const seed = { offset: last.offset, line: last.line ?? 1, lineStart: text.lastIndexOf('\n', last.offset - 1) + 1 };
  const scanned = scanSpecRows(text, file, { from, defaultCategory: old.default_category, seed });
  if (scanned.entries.some((e) => !e.hasSid)) return null;
  // The old issues before the resume point stand; those after it were found again.
  const cut = new LineIndex(text, seed).at(from);
  const before = (i: Issue) =>
    i.line === undefined || i.line < cut.line || (i.line === cut.line && (i.column ?? 0) < cut.column);
  const oldIssues = JSON.parse(old.issues) as Issue[];
  const keptParse = oldIssues.slice(0, old.parse_issues).filter(before);
  const keptView = oldIssues.slice(old.parse_issues).filter(before);
  const issues = [
    ...keptParse,
    ...scanned.issues.slice(0, scanned.parseIssues),
    ...keptView,
    ...scanned.issues.slice(scanned.parseIssues),
  ];
  let chars = from;
  let bytes = last.byteEnd;
  const byteAt = (offset: number) => {
    bytes += Buffer.byteLength(text.slice(chars, offset));
    chars = offset;
    return bytes;
  };
  const added = scanned.entries.map((e, i) => {
    const spot = scanned.spots[i];
    const range: [number, number] | null =
      spot.end === null || spot.offset < chars ? null : [byteAt(spot.offset), byteAt(spot.end)];
    return spotOf(e, spot, range);
  });
  return {
    path: file,
    num: old.num,
    sha256: hash,
    size,
    entries: old.entries + scanned.entries.length,
    defaultCategory: old.default_category,
    issues,
    parseIssues: keptParse.length + scanned.parseIssues,
    // Spots are fixed-width rows: the old ones are kept as stored, the new ones follow.
    spots: Buffer.concat([blob, encodeSpots(added)]),
    tail: scanned.entries,
  };
}

/** Saves a grown spec file: its row, and the rows of its new entries (the old ones stand). */
export function saveAppended(store: DerivedStore, a: Appended): void {
  store
    .prepare(
      'UPDATE spec_files SET sha256 = ?, size = ?, entries = ?, issues = ?, parse_issues = ?, spots = ? WHERE num = ?',
    )
    .run(a.sha256, a.size, a.entries, JSON.stringify(a.issues), a.parseIssues, a.spots, a.num);
  // The old rows end at the old entry count (their spots said so): the new ones only add.
  const from = a.entries - a.tail.length;
  statements(store).putIds(a.num, from, encodeKeys(keysOf(a.tail), from));
}

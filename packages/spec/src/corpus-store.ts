import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Issue, sha256 } from '@maestro/core';
import type { DerivedStore, SectionSpec } from '@maestro/store';
import { byteRanges, type ParsedFileRows, type StoredItem, scanSpecCached } from './corpus-pack.js';
import { LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';

export {
  entriesOfItems,
  type ItemEnds,
  type PackedSpec,
  type ParsedFileRows,
  type StoredItem,
  scanSpecCached,
} from './corpus-pack.js';

/**
 * The `spec` section of the derived-state store: every corpus file's parsed entries, one row per
 * entry, keyed by the file's content sha256 (`spec_files`) and, inside spec files, by the sha256 of
 * each `<spec-entry>` block (`spec_entries.block`). An unchanged file is never parsed again; a
 * changed spec file re-parses only the blocks whose bytes are new. Rows are derived state only:
 * the loader checks every file's hash first and rebuilds what does not match.
 */

/** The source files whose code decides what a parse returns; their bytes are part of the revision. */
const PARSER_SOURCES = [
  'corpus-store',
  'corpus-pack',
  'spec-view',
  'spec-file',
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
    revision: `1-${h.digest('hex').slice(0, 16)}`,
    ddl: [
      // spec_files is a rowid table: a file's data runs to megabytes, past what WITHOUT ROWID suits;
      // spec_entries rows are small (what lookups need), so they are clustered by file and position.
      `CREATE TABLE spec_files (
         path TEXT NOT NULL PRIMARY KEY,
         sha256 TEXT NOT NULL,
         size INTEGER NOT NULL,
         utf8 INTEGER NOT NULL,
         entries INTEGER NOT NULL,
         default_category TEXT,
         issues TEXT NOT NULL,
         parse_issues INTEGER NOT NULL,
         data TEXT NOT NULL
       )`,
      `CREATE TABLE spec_entries (
         file TEXT NOT NULL,
         pos INTEGER NOT NULL,
         id TEXT NOT NULL,
         store TEXT NOT NULL,
         line INTEGER,
         status TEXT NOT NULL,
         title TEXT NOT NULL,
         content_hash TEXT NOT NULL,
         supersedes TEXT NOT NULL,
         superseded_by TEXT,
         legacy INTEGER NOT NULL,
         dup_title TEXT,
         start INTEGER NOT NULL,
         end INTEGER,
         byte_start INTEGER,
         byte_end INTEGER,
         PRIMARY KEY (file, pos)
       ) WITHOUT ROWID`,
      'CREATE INDEX spec_entries_id ON spec_entries (id)',
    ],
  };
  return section;
}

/** Saves parsed files (their rows replace the old ones) and forgets files that are gone. */
export function saveParsedFiles(store: DerivedStore, parsed: readonly ParsedFileRows[], gone: readonly string[]) {
  const delFile = store.prepare('DELETE FROM spec_files WHERE path = ?');
  const delEntries = store.prepare('DELETE FROM spec_entries WHERE file = ?');
  const putFile = store.prepare(
    'INSERT INTO spec_files (path, sha256, size, utf8, entries, default_category, issues, parse_issues, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const putEntry = store.prepare(
    'INSERT INTO spec_entries (file, pos, id, store, line, status, title, content_hash, supersedes, superseded_by, legacy, dup_title, start, end, byte_start, byte_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const path of gone) {
    delFile.run(path);
    delEntries.run(path);
  }
  for (const f of parsed) {
    delFile.run(f.path);
    delEntries.run(f.path);
    const data = JSON.stringify(f.items);
    putFile.run(
      f.path,
      f.sha256,
      f.size,
      f.utf8 ? 1 : 0,
      f.items.length,
      f.defaultCategory,
      JSON.stringify(f.issues),
      f.parseIssues,
      data,
    );
    const ranges = f.text === null ? null : byteRanges(f.text, f.items, f.ends);
    f.items.forEach(([id, line, offset], pos) => {
      const e = f.entries[pos];
      putEntry.run(
        f.path,
        pos,
        id,
        e.store,
        line,
        e.status,
        e.title,
        e.contentHash,
        JSON.stringify(e.supersedes),
        e.supersededBy,
        e.legacy ? 1 : 0,
        e.titleSource !== 'content' && e.titleSource !== 'none' ? e.title.trim().toLowerCase() : null,
        offset,
        f.ends[pos] ?? null,
        ranges?.[pos]?.[0] ?? null,
        ranges?.[pos]?.[1] ?? null,
      );
    });
  }
}

/** The stored row of a spec file before it changed, as the loader read it. */
export interface PreviousFile {
  sha256: string;
  size: number;
  utf8: number;
  entries: number;
  default_category: string | null;
  issues: string;
  parse_issues: number;
}

/** A spec file that only grew at its end: its new row, and the rows of its new entries. */
export interface Appended {
  path: string;
  sha256: string;
  size: number;
  entries: number;
  defaultCategory: string | null;
  issues: Issue[];
  parseIssues: number;
  /** The file's whole items JSON (the old items, then the new ones). */
  data: string;
  /** Rows of `spec_entries` past the old ones: the new entries. */
  tail: { pos: number; entry: KnowledgeEntry; item: StoredItem; end: number | null; bytes: [number, number] | null }[];
}

/**
 * A spec file whose old bytes are the start of its new bytes (an entry appended, as `spec add`
 * does) keeps its old rows: the scan resumes after the last old entry (when that is a reusable
 * block, so a whole scan reaches the same point in the same state), and only what follows is
 * parsed. Exactly the whole parse's result; null when that cannot be vouched for (the file did not
 * just grow, its last entry is not a reusable block, or a new entry has no sid: twin suffixes of
 * derived ids count the whole file).
 */
export function scanAppended(
  store: DerivedStore,
  file: string,
  text: string,
  buf: Buffer,
  hash: string,
  old: PreviousFile,
): Appended | null {
  if (old.utf8 !== 1 || old.entries === 0 || buf.length <= old.size) return null;
  if (sha256(buf.subarray(0, old.size)) !== old.sha256) return null;
  const last = store
    .prepare('SELECT pos, end, byte_end FROM spec_entries WHERE file = ? ORDER BY pos DESC LIMIT 1')
    .get(file) as { pos: number; end: number | null; byte_end: number | null } | undefined;
  if (!last || last.end === null || last.byte_end === null || last.pos !== old.entries - 1) return null;
  const from = last.end;
  const scanned = scanSpecCached(text, file, new Map(), { from, defaultCategory: old.default_category });
  if (scanned.entries.some((e) => !e.hasSid)) return null;
  const data = store.prepare('SELECT data FROM spec_files WHERE path = ?').pluck(true).get(file) as string | undefined;
  if (data === undefined || !data.endsWith(']')) return null;
  // The old issues before the resume point stand; those after it were found again.
  const cut = new LineIndex(text).at(from);
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
  let bytes = last.byte_end;
  const byteAt = (offset: number) => {
    bytes += Buffer.byteLength(text.slice(chars, offset));
    chars = offset;
    return bytes;
  };
  const tail = scanned.items.map((item, i) => {
    const end = scanned.ends[i] ?? null;
    const start = item[2];
    const range: [number, number] | null = end === null || start < chars ? null : [byteAt(start), byteAt(end)];
    return { pos: old.entries + i, entry: scanned.entries[i], item, end, bytes: range };
  });
  const added = scanned.items.length ? `,${JSON.stringify(scanned.items).slice(1)}` : ']';
  return {
    path: file,
    sha256: hash,
    size: buf.length,
    entries: old.entries + scanned.items.length,
    defaultCategory: old.default_category,
    issues,
    parseIssues: keptParse.length + scanned.parseIssues,
    data: scanned.items.length ? data.slice(0, -1) + added : data,
    tail,
  };
}

/** Saves a grown spec file: its row, and the rows of its new entries (the old ones stand). */
export function saveAppended(store: DerivedStore, a: Appended): void {
  store
    .prepare(
      'UPDATE spec_files SET sha256 = ?, size = ?, entries = ?, issues = ?, parse_issues = ?, data = ? WHERE path = ?',
    )
    .run(a.sha256, a.size, a.entries, JSON.stringify(a.issues), a.parseIssues, a.data, a.path);
  store.prepare('DELETE FROM spec_entries WHERE file = ? AND pos >= ?').run(a.path, a.entries - a.tail.length);
  const put = store.prepare(
    'INSERT INTO spec_entries (file, pos, id, store, line, status, title, content_hash, supersedes, superseded_by, legacy, dup_title, start, end, byte_start, byte_end) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const t of a.tail) {
    const e = t.entry;
    put.run(
      a.path,
      t.pos,
      t.item[0],
      e.store,
      t.item[1],
      e.status,
      e.title,
      e.contentHash,
      JSON.stringify(e.supersedes),
      e.supersededBy,
      e.legacy ? 1 : 0,
      e.titleSource !== 'content' && e.titleSource !== 'none' ? e.title.trim().toLowerCase() : null,
      t.item[2],
      t.end,
      t.bytes?.[0] ?? null,
      t.bytes?.[1] ?? null,
    );
  }
}

import { createHash, hash as oneShotHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Issue, sha256 } from '@maestro/core';
import type { DerivedStore, SectionSpec } from '@maestro/store';
import { decodeEntities } from './entities.js';
import { readFrontmatter } from './frontmatter.js';
import { LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';
import { CLOSE, findClose, nextOpen, OPEN, pushText, type SegmentSink, type SpecEntryNode } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { viewContext, viewOfEntry, viewOfLegacy } from './spec-view.js';

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

/**
 * One entry of a stored file: its id (twin suffix included), line, offset of its first character,
 * block key (null when the block is not reusable, and for legacy entries and knowhow), and its
 * packed spec view, or the knowhow entry itself.
 */
export type StoredItem = [id: string, line: number | null, offset: number, block: string | null, data: unknown];

/** Where an entry's reusable block ends (its `spec_entries.end`), by item; null for the others. */
export type ItemEnds = (number | null)[];

/** A parsed file ready to be stored: its sha256, issues, entries (as loaded) and their items. */
export interface ParsedFileRows {
  path: string;
  sha256: string;
  size: number;
  utf8: boolean;
  issues: Issue[];
  entries: KnowledgeEntry[];
  items: StoredItem[];
  ends: ItemEnds;
  defaultCategory: string | null;
  /** The file's text (spec files), for the byte range of each reusable block. */
  text: string | null;
  /** How many of `issues` come before the file's view warnings (0 for knowhow: not resumable). */
  parseIssues: number;
}

/** Byte offsets (UTF-8) of each reusable block's start and end, counted incrementally. */
function byteRanges(text: string, items: readonly StoredItem[], ends: ItemEnds): [number, number][] | null[] {
  const ascii = Buffer.byteLength(text) === text.length;
  let chars = 0;
  let bytes = 0;
  const to = (offset: number) => {
    if (ascii) return offset;
    bytes += Buffer.byteLength(text.slice(chars, offset));
    chars = offset;
    return bytes;
  };
  const out: ([number, number] | null)[] = [];
  items.forEach(([, , offset], i) => {
    const end = ends[i];
    if (end === null || end === undefined || offset < chars) {
      out.push(null);
      return;
    }
    const start = to(offset);
    out.push([start, to(end)]);
  });
  return out as [number, number][];
}

/**
 * A spec entry's stored form: a JSON array (no keys, so about half the size of the object) of the
 * view's fields that do not depend on where the block sits, plus what the loader needs to replay
 * the block's parse issues at its new position.
 */
export type PackedSpec = [
  preTwinId: string,
  title: string,
  /** The content, or where it sits in the file as [offset from the entry's start, length]. */
  content: string | [number, number],
  category: string | null,
  keywords: string[],
  description: string | null,
  date: string | null,
  status: KnowledgeEntry['status'],
  confidence: string | null,
  supersedes: string[],
  supersededBy: string | null,
  ref: string | null,
  source: string | null,
  contentHash: string,
  flags: number,
  conflict: KnowledgeEntry['conflict'],
  titleSource: KnowledgeEntry['titleSource'],
  attributes: Record<string, string>,
  /** Length of the opening tag (0 for legacy entries). */
  tagLength: number,
  /** Tag problems: offset from the block start, message, hint. */
  problems: [number, string, string][],
  unclosed: 0 | 1,
  /** View warnings (all at the block's line and column): code, message, hint. */
  warnings: [string, string, string][],
];

/**
 * The content as a place in the text when the text holds it verbatim (LF, nothing unescaped: the
 * usual case) within the entry's own bytes, so the stored row stays small and the loaded string is
 * a slice of the file's text instead of a copy.
 */
function contentRef(e: KnowledgeEntry, text: string, start: number, end: number): string | [number, number] {
  if (e.content === '') return '';
  const at = text.indexOf(e.content, start);
  return at !== -1 && at + e.content.length <= end ? [at - start, e.content.length] : e.content;
}

function packSpec(
  e: KnowledgeEntry,
  content: string | [number, number],
  tagLength: number,
  problems: PackedSpec[19],
  unclosed: 0 | 1,
  warnings: PackedSpec[21],
): PackedSpec {
  return [
    e.id,
    e.title,
    content,
    e.category,
    e.keywords,
    e.description,
    e.date,
    e.status,
    e.confidence,
    e.supersedes,
    e.supersededBy,
    e.ref,
    e.source,
    e.contentHash,
    (e.legacy ? 1 : 0) | (e.hasSid ? 2 : 0),
    e.conflict,
    e.titleSource,
    e.attributes ?? {},
    tagLength,
    problems,
    unclosed,
    warnings,
  ];
}

/** The view `viewOfEntry` / `viewOfLegacy` builds, field for field and in the same key order. */
function unpackSpec(
  d: PackedSpec,
  file: string,
  line: number | null,
  id: string,
  text: string,
  offset: number,
): KnowledgeEntry {
  const c = d[2];
  return {
    id,
    store: 'spec',
    title: d[1],
    content: typeof c === 'string' ? c : text.slice(offset + c[0], offset + c[0] + c[1]),
    category: d[3],
    keywords: d[4],
    description: d[5],
    date: d[6],
    status: d[7],
    confidence: d[8],
    supersedes: d[9],
    supersededBy: d[10],
    ref: d[11],
    source: d[12],
    file,
    line,
    contentHash: d[13],
    legacy: (d[14] & 1) === 1,
    hasSid: (d[14] & 2) === 2,
    type: null,
    conflict: d[15],
    titleSource: d[16],
    attributes: d[17],
  };
}

/**
 * The entries of a stored file: spec items are packed (`text` is the file's text, which their
 * content is sliced from); a knowhow item is the entry itself.
 */
export function entriesOfItems(file: string, items: readonly StoredItem[], text: string): KnowledgeEntry[] {
  const out: KnowledgeEntry[] = [];
  for (const [id, line, offset, , data] of items) {
    if (file.startsWith('knowhow/')) out.push(data as KnowledgeEntry);
    else out.push(unpackSpec(data as PackedSpec, file, line, id, text, offset));
  }
  return out;
}

/** No `<spec-entry` or `</spec-entry` starts inside the opening tag, so the block ends where a scan from its start says. */
function tagIsClean(text: string, open: number, tagLength: number): boolean {
  const from = open + OPEN.length;
  const end = open + tagLength;
  const o = text.indexOf(OPEN, from);
  if (o !== -1 && o < end) return false;
  const c = text.indexOf(CLOSE, from);
  return c === -1 || c >= end;
}

function blockKey(salt: string, text: string, start: number, end: number): string {
  return oneShotHash('sha256', salt + text.slice(start, end), 'hex').slice(0, 32);
}

/**
 * Exactly what `scanSpecFile` + `specEntrySink` return for a spec file (same entries, same issues
 * in the same order), reusing the stored view of every `<spec-entry>` block whose bytes (and the
 * file's default category) are unchanged. A block is reused only when its opening tag is
 * well-formed and holds no `<spec-entry` / `</spec-entry` (then where it ends depends on its own
 * bytes alone); every other block, legacy entries and the text between entries are parsed as usual.
 */
export function scanSpecCached(
  text: string,
  file: string,
  reuse: ReadonlyMap<string, PackedSpec>,
  resume?: { from: number; defaultCategory: string | null },
): {
  entries: KnowledgeEntry[];
  issues: Issue[];
  /** How many of `issues` are parse issues (the view warnings follow). */
  parseIssues: number;
  items: StoredItem[];
  ends: ItemEnds;
  defaultCategory: string | null;
  reused: number;
} {
  const issueFile = `.workflow/${file}`;
  const issues: Issue[] = [];
  const viewIssues: Issue[] = [];
  const lines = new LineIndex(text);
  const at = (offset: number) => lines.at(offset);
  const issue = (offset: number, severity: Issue['severity'], code: string, message: string, hint: string) =>
    issues.push({ severity, code, message, hint, file: issueFile, ...at(offset) });
  // Resuming (a file that grew at its end): the scan starts after the last kept block, as a whole
  // scan would reach it; the frontmatter was read then and its category is given.
  const frontmatter = resume ? null : readFrontmatter(text, issueFile, at, issues);
  const ctx = resume
    ? { file, issueFile, defaultCategory: resume.defaultCategory, issues: viewIssues }
    : viewContext(file, issueFile, frontmatter, viewIssues);
  const salt = `${ctx.defaultCategory === null ? '\u0001' : ctx.defaultCategory}\u0000`;
  const entries: KnowledgeEntry[] = [];
  const items: StoredItem[] = [];
  const ends: ItemEnds = [];
  const used = new Set<string>();
  const twins = new Map<string, number>();
  let reused = 0;
  const add = (e: KnowledgeEntry, offset: number, block: string | null, data: PackedSpec, end: number | null) => {
    if (!e.hasSid) {
      const n = (twins.get(e.id) ?? 0) + 1;
      twins.set(e.id, n);
      if (n > 1) e.id = `${e.id}-${n}`;
    }
    items.push([e.id, e.line, offset, block, data]);
    ends.push(end);
    entries.push(e);
  };
  const legacySink: SegmentSink = (s) => {
    if (s.kind !== 'legacy') return;
    const before = viewIssues.length;
    const e = viewOfLegacy(s, ctx);
    const content = contentRef(e, text, s.offset, s.offset + s.raw.length);
    add(e, s.offset, null, packSpec(e, content, 0, [], 0, warningsSince(viewIssues, before)), null);
  };
  let textStart = resume ? resume.from : frontmatter ? frontmatter.end : 0;
  let pos = textStart;
  for (;;) {
    const open = nextOpen(text, pos);
    if (open === -1) break;
    const guess = findClose(text, open + OPEN.length);
    const guessEnd = guess.bodyEnd + guess.close.length;
    const key = blockKey(salt, text, open, guessEnd);
    const hit = reuse.get(key);
    if (hit !== undefined && hit[18] > 0 && tagIsClean(text, open, hit[18])) {
      // A block used twice (exact twins) gets its own copy: entries never share arrays.
      const d = used.has(key) ? (JSON.parse(JSON.stringify(hit)) as PackedSpec) : hit;
      used.add(key);
      for (const [rel, message, hint] of d[19]) issue(open + rel, 'warning', 'SPEC_TAG_ATTRIBUTE', message, hint);
      if (d[20] === 1) unclosed(issue, open);
      pushText(legacySink, text.slice(textStart, open), textStart, at, issueFile, issues);
      const { line, column } = at(open);
      for (const [code, message, hint] of d[21]) {
        viewIssues.push({ severity: 'warning', code, message, hint, file: issueFile, line, column });
      }
      add(unpackSpec(d, file, line, d[0], text, open), open, key, d, guessEnd);
      reused++;
      pos = guessEnd;
      textStart = pos;
      continue;
    }
    const tag = scanOpenTag(text, open, decodeEntities);
    if (!tag) {
      issue(
        open,
        'error',
        'SPEC_TAG_MALFORMED',
        'malformed <spec-entry> opening tag (no closing > before a blank line or the end); kept as text',
        'close the opening tag with > and quote every attribute value',
      );
      pos = open + OPEN.length;
      continue;
    }
    const problems: PackedSpec[19] = [];
    for (const p of tag.problems) {
      issue(p.offset, 'warning', 'SPEC_TAG_ATTRIBUTE', p.message, p.hint);
      problems.push([p.offset - open, p.message, p.hint]);
    }
    const { close, bodyEnd } = findClose(text, tag.end);
    if (!close) unclosed(issue, open);
    pushText(legacySink, text.slice(textStart, open), textStart, at, issueFile, issues);
    const { line, column } = at(open);
    const node: SpecEntryNode = {
      kind: 'entry',
      attributes: tag.attributes,
      tail: tag.tail,
      body: text.slice(tag.end, bodyEnd),
      close,
      offset: open,
      line,
      column,
    };
    const before = viewIssues.length;
    const e = viewOfEntry(node, ctx);
    const end = bodyEnd + close.length;
    const content = contentRef(e, text, open, end);
    const data = packSpec(e, content, tag.end - open, problems, close ? 0 : 1, warningsSince(viewIssues, before));
    const reusable = end === guessEnd && tagIsClean(text, open, tag.end - open);
    add(e, open, reusable ? key : null, data, reusable ? end : null);
    pos = end;
    textStart = pos;
  }
  pushText(legacySink, text.slice(textStart), textStart, at, issueFile, issues);
  const parseIssues = issues.length;
  for (const i of viewIssues) issues.push(i);
  return { entries, issues, parseIssues, items, ends, defaultCategory: ctx.defaultCategory, reused };
}

function unclosed(
  issue: (offset: number, severity: Issue['severity'], code: string, message: string, hint: string) => void,
  open: number,
) {
  issue(
    open,
    'error',
    'SPEC_ENTRY_UNCLOSED',
    '<spec-entry> has no closing </spec-entry>; its body runs to the next entry or the end of the file',
    'add </spec-entry> after the entry body',
  );
}

function warningsSince(issues: Issue[], from: number): PackedSpec[21] {
  const out: PackedSpec[21] = [];
  for (let i = from; i < issues.length; i++) out.push([issues[i].code, issues[i].message, issues[i].hint ?? '']);
  return out;
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

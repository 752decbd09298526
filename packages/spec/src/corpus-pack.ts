import { hash as oneShotHash } from 'node:crypto';
import type { Issue } from '@maestro/core';
import { decodeEntities } from './entities.js';
import { readFrontmatter } from './frontmatter.js';
import { LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';
import { CLOSE, findClose, nextOpen, OPEN, pushText, type SegmentSink, type SpecEntryNode } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { viewContext, viewOfEntry, viewOfLegacy } from './spec-view.js';

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
export function byteRanges(text: string, items: readonly StoredItem[], ends: ItemEnds): [number, number][] | null[] {
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
export function contentRef(e: KnowledgeEntry, text: string, start: number, end: number): string | [number, number] {
  if (e.content === '') return '';
  const at = text.indexOf(e.content, start);
  return at !== -1 && at + e.content.length <= end ? [at - start, e.content.length] : e.content;
}

export function packSpec(
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
export function unpackSpec(
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
export function tagIsClean(text: string, open: number, tagLength: number): boolean {
  const from = open + OPEN.length;
  const end = open + tagLength;
  const o = text.indexOf(OPEN, from);
  if (o !== -1 && o < end) return false;
  const c = text.indexOf(CLOSE, from);
  return c === -1 || c >= end;
}

export function blockKey(salt: string, text: string, start: number, end: number): string {
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

export function unclosed(
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

export function warningsSince(issues: Issue[], from: number): PackedSpec[21] {
  const out: PackedSpec[21] = [];
  for (let i = from; i < issues.length; i++) out.push([issues[i].code, issues[i].message, issues[i].hint ?? '']);
  return out;
}

import type { Issue } from '@maestro/core';
import { conflictIssues } from './conflict-markers.js';
import { decodeEntities } from './entities.js';
import { readFrontmatter } from './frontmatter.js';
import { LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';
import { CLOSE, findClose, nextOpen, OPEN, pushText, type SegmentSink, type SpecEntryNode } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { viewContext, viewOfEntry, viewOfLegacy } from './spec-view.js';

/**
 * Where one entry sits in its file, as the store keeps it: the offset (UTF-16 code units) of its
 * first character, its line (null for knowhow), and where its block ends when the block is
 * reusable (its opening tag clean, so its bytes alone decide its view; null for the others, legacy
 * entries and knowhow included).
 */
export interface EntrySpot {
  offset: number;
  line: number | null;
  end: number | null;
}

/** A parsed file ready to be stored: its sha256, issues, entries (as loaded) and where they sit. */
export interface ParsedFileRows {
  path: string;
  sha256: string;
  size: number;
  utf8: boolean;
  issues: Issue[];
  entries: KnowledgeEntry[];
  spots: EntrySpot[];
  defaultCategory: string | null;
  /** The file's text (spec files), for the byte range of each reusable block. */
  text: string | null;
  /** How many of `issues` come before the file's view warnings (0 for knowhow: not resumable). */
  parseIssues: number;
  /** Each entry's id and link values as parsed, when the entries may be renamed before they are saved. */
  keys?: { id: string; links: string[] }[];
}

/** Byte offsets (UTF-8) of each reusable block's start and end, counted incrementally; null for the others. */
export function byteRanges(text: string, spots: readonly EntrySpot[]): ([number, number] | null)[] {
  const ranges = new ByteRanges(text);
  return spots.map((s) => ranges.next(s));
}

/** `byteRanges` one spot after the other, in file order. */
export class ByteRanges {
  private readonly ascii: boolean;
  private chars = 0;
  private bytes = 0;
  constructor(private readonly text: string) {
    this.ascii = Buffer.byteLength(text) === text.length;
  }
  next({ offset, end }: EntrySpot): [number, number] | null {
    if (end === null || offset < this.chars) return null;
    const start = this.to(offset);
    return [start, this.to(end)];
  }
  private to(offset: number): number {
    if (this.ascii) return offset;
    this.bytes += Buffer.byteLength(this.text.slice(this.chars, offset));
    this.chars = offset;
    return this.bytes;
  }
}

/** No `<spec-entry` or `</spec-entry` starts inside the opening tag, so the block ends where a scan from its start says. */
export function tagIsClean(text: string, open: number, tagLength: number): boolean {
  const inside = text.slice(open + OPEN.length, open + tagLength);
  return !inside.includes(OPEN) && !inside.includes(CLOSE);
}

/**
 * Exactly what `scanSpecFile` + `specEntrySink` return for a spec file (same entries, same issues
 * in the same order), plus where each entry sits (`EntrySpot`). A `<spec-entry>` block is marked
 * reusable (its `end` set) when its opening tag is well-formed and holds no `<spec-entry` /
 * `</spec-entry`: then where it ends and what it parses to depend on its own bytes (and the file's
 * default category) alone, so a lookup may parse it from its byte range without the rest of the file.
 */
export function scanSpecRows(
  text: string,
  file: string,
  resume?: { from: number; defaultCategory: string | null; seed?: { offset: number; line: number; lineStart: number } },
  /** Given: each entry and its spot go to it as they are scanned, and neither is kept (both lists come back empty). */
  onEntry?: (e: KnowledgeEntry, spot: EntrySpot) => void,
): {
  entries: KnowledgeEntry[];
  issues: Issue[];
  /** How many of `issues` are parse issues (the view warnings follow). */
  parseIssues: number;
  spots: EntrySpot[];
  defaultCategory: string | null;
} {
  const issueFile = `.workflow/${file}`;
  const issues: Issue[] = [];
  const viewIssues: Issue[] = [];
  const lines = new LineIndex(text, resume?.seed);
  const at = (offset: number) => lines.at(offset);
  const issue = (offset: number, severity: Issue['severity'], code: string, message: string, hint: string) =>
    issues.push({ severity, code, message, hint, file: issueFile, ...at(offset) });
  // Resuming (a file that grew at its end): the scan starts after the last kept block, as a whole
  // scan would reach it; the frontmatter was read then and its category is given.
  const frontmatter = resume ? null : readFrontmatter(text, issueFile, at, issues);
  const ctx = resume
    ? { file, issueFile, defaultCategory: resume.defaultCategory, issues: viewIssues }
    : viewContext(file, issueFile, frontmatter, viewIssues);
  const entries: KnowledgeEntry[] = [];
  const spots: EntrySpot[] = [];
  const twins = new Map<string, number>();
  const add = (e: KnowledgeEntry, offset: number, end: number | null) => {
    if (!e.hasSid) {
      const n = (twins.get(e.id) ?? 0) + 1;
      twins.set(e.id, n);
      if (n > 1) e.id = `${e.id}-${n}`;
    }
    const spot = { offset, line: e.line, end };
    if (onEntry) {
      onEntry(e, spot);
      return;
    }
    spots.push(spot);
    entries.push(e);
  };
  const legacySink: SegmentSink = (s) => {
    if (s.kind === 'legacy') add(viewOfLegacy(s, ctx), s.offset, null);
  };
  let textStart = resume ? resume.from : frontmatter ? frontmatter.end : 0;
  let pos = textStart;
  for (;;) {
    const open = nextOpen(text, pos);
    if (open === -1) break;
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
    for (const p of tag.problems) issue(p.offset, 'warning', 'SPEC_TAG_ATTRIBUTE', p.message, p.hint);
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
    const e = viewOfEntry(node, ctx);
    const end = bodyEnd + close.length;
    // Reusable: no `<spec-entry` / `</spec-entry` inside the tag, so a scan of the block alone ends here.
    const reusable = tagIsClean(text, open, tag.end - open);
    add(e, open, reusable ? end : null);
    pos = end;
    textStart = pos;
  }
  pushText(legacySink, text.slice(textStart), textStart, at, issueFile, issues);
  // A resumed scan is only asked for a file without conflicts (`scanAppended`).
  if (!resume) for (const i of conflictIssues(text, issueFile)) issues.push(i);
  const parseIssues = issues.length;
  for (const i of viewIssues) issues.push(i);
  return { entries, issues, parseIssues, spots, defaultCategory: ctx.defaultCategory };
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

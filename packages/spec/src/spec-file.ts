import type { Issue, Parsed } from '@maestro/core';
import { conflictIssues } from './conflict-markers.js';
import { decodeEntities } from './entities.js';
import { type Frontmatter, readFrontmatter } from './frontmatter.js';
import { detectEol, LineIndex } from './lines.js';
import { renderTagPieces, type SpecAttribute, scanOpenTag } from './spec-tag.js';

/**
 * The lossless model of one `.workflow/specs/*.md` file: an ordered list of segments whose
 * source texts concatenate to exactly the file's bytes. Text between entries (BOM, frontmatter,
 * prose, headings) is kept verbatim; entries keep their tag pieces, body and closing tag.
 */
export interface SpecTextSegment {
  kind: 'text';
  raw: string;
}

/** A `<spec-entry ...>...</spec-entry>` block. */
export interface SpecEntryNode {
  kind: 'entry';
  attributes: SpecAttribute[];
  /** Whitespace before the tag's `>` plus the `>` itself. */
  tail: string;
  /** Everything between the opening tag and the closing tag, verbatim. */
  body: string;
  /** The closing tag as written, or '' when the entry is unclosed (an issue is reported). */
  close: string;
  /** Offset, 1-based line and column of `<spec-entry` in the parsed text. */
  offset: number;
  line: number;
  column: number;
}

/** A legacy `### [category] [date] title` (or `### [date] title`) entry outside any tag. */
export interface SpecLegacyNode {
  kind: 'legacy';
  /** The heading line through the end of its body, verbatim. */
  raw: string;
  category: string | null;
  date: string | null;
  title: string;
  offset: number;
  line: number;
  column: number;
}

export type SpecSegment = SpecTextSegment | SpecEntryNode | SpecLegacyNode;

export interface SpecFileModel {
  /** The path used in issues (as passed to `parseSpecFile`). */
  path: string;
  bom: boolean;
  /** Line ending new text written into this file uses. */
  eol: '\n' | '\r\n';
  frontmatter: Frontmatter | null;
  segments: SpecSegment[];
}

export const OPEN = '<spec-entry';
export const CLOSE = '</spec-entry';

function isTagStart(text: string, at: number): boolean {
  const c = text[at + OPEN.length];
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

/** Next `<spec-entry` followed by whitespace at or after `from`, or -1. */
export function nextOpen(text: string, from: number): number {
  let i = text.indexOf(OPEN, from);
  while (i !== -1 && !isTagStart(text, i)) i = text.indexOf(OPEN, i + 1);
  return i;
}

/**
 * Parses a spec file. Never throws: every malformed construct becomes an issue (with file, line,
 * column and a hint) and the rest of the file still parses. `serializeSpecFile(parse(t)) === t`.
 */
export function parseSpecFile(text: string, path: string): Parsed<SpecFileModel> {
  const segments: SpecSegment[] = [];
  const { frontmatter, issues } = scanSpecFile(text, path, () => (s) => segments.push(s));
  return {
    value: { path, bom: text.charCodeAt(0) === 0xfeff, eol: detectEol(text), frontmatter, segments },
    issues,
  };
}

/** Receives a spec file's segments in file order, as they are scanned. */
export type SegmentSink = (segment: SpecSegment) => void;

/**
 * The scanner behind `parseSpecFile`: hands each segment to the sink `open(frontmatter)` returns
 * instead of collecting them, so a reader that only wants entries (`loadCorpus`) lets each
 * entry's nodes go as soon as its view is built. Returns the frontmatter and the parse issues.
 */
export function scanSpecFile(
  text: string,
  path: string,
  openSink: (frontmatter: Frontmatter | null) => SegmentSink,
): { frontmatter: Frontmatter | null; issues: Issue[] } {
  const issues: Issue[] = [];
  const lines = new LineIndex(text);
  const at = (offset: number) => lines.at(offset);
  const issue = (offset: number, severity: Issue['severity'], code: string, message: string, hint: string) =>
    issues.push({ severity, code, message, hint, file: path, ...at(offset) });
  const frontmatter = readFrontmatter(text, path, at, issues);
  const sink = openSink(frontmatter);
  if (frontmatter) sink({ kind: 'text', raw: text.slice(0, frontmatter.end) });
  let textStart = frontmatter ? frontmatter.end : 0;
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
    if (!close) {
      issue(
        open,
        'error',
        'SPEC_ENTRY_UNCLOSED',
        '<spec-entry> has no closing </spec-entry>; its body runs to the next entry or the end of the file',
        'add </spec-entry> after the entry body',
      );
    }
    pushText(sink, text.slice(textStart, open), textStart, at, path, issues);
    const { line, column } = at(open);
    sink({
      kind: 'entry',
      attributes: tag.attributes,
      tail: tag.tail,
      body: text.slice(tag.end, bodyEnd),
      close,
      offset: open,
      line,
      column,
    });
    pos = bodyEnd + close.length;
    textStart = pos;
  }
  pushText(sink, text.slice(textStart), textStart, at, path, issues);
  for (const i of conflictIssues(text, path)) issues.push(i);
  return { frontmatter, issues };
}

/** The closing tag for a body starting at `from`: ends at `</spec-entry>` or, if missing, the next opening tag. */
export function findClose(text: string, from: number): { close: string; bodyEnd: number } {
  const next = nextOpen(text, from);
  let c = text.indexOf(CLOSE, from);
  while (c !== -1 && (next === -1 || c < next)) {
    let e = c + CLOSE.length;
    while (text[e] === ' ' || text[e] === '\t') e++;
    if (text[e] === '>') return { close: text.slice(c, e + 1), bodyEnd: c };
    c = text.indexOf(CLOSE, c + 1);
  }
  return { close: '', bodyEnd: next === -1 ? text.length : next };
}

const LEGACY_HEADING = /^###[ \t]+\[([^\]\n]*)\](?:[ \t]+\[(\d{4}-\d{2}-\d{2}[^\]\n]*)\])?[ \t]+(.*?)[ \t]*\r?$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}/;

/** Splits a text span into plain text and legacy `### [category] [date] title` entries. */
export function pushText(
  sink: SegmentSink,
  raw: string,
  base: number,
  at: (o: number) => { line: number; column: number },
  path: string,
  issues: Issue[],
): void {
  if (raw === '') return;
  reportStrayClose(raw, base, at, path, issues);
  let plainStart = 0;
  let search = raw.indexOf('### [');
  while (search !== -1) {
    if (search > 0 && raw[search - 1] !== '\n') {
      search = raw.indexOf('### [', search + 1);
      continue;
    }
    const eol = raw.indexOf('\n', search);
    const headingLine = raw.slice(search, eol === -1 ? raw.length : eol);
    const m = LEGACY_HEADING.exec(headingLine);
    const legacy = m ? legacyFields(m) : null;
    if (!legacy) {
      search = raw.indexOf('### [', search + 1);
      continue;
    }
    const end = legacyEnd(raw, eol === -1 ? raw.length : eol + 1);
    if (search > plainStart) sink({ kind: 'text', raw: raw.slice(plainStart, search) });
    sink({
      kind: 'legacy',
      raw: raw.slice(search, end),
      ...legacy,
      offset: base + search,
      ...at(base + search),
    });
    plainStart = end;
    search = raw.indexOf('### [', end);
  }
  if (plainStart < raw.length) sink({ kind: 'text', raw: raw.slice(plainStart) });
}

function legacyFields(m: RegExpExecArray): { category: string | null; date: string | null; title: string } | null {
  const [, first, second, title] = m;
  if (second !== undefined) return { category: first.trim(), date: second.trim(), title: title.trim() };
  if (DATE_ONLY.test(first.trim())) return { category: null, date: first.trim(), title: title.trim() };
  return null;
}

/** A legacy entry runs until the next heading of level 1–3 or the end of the span. */
function legacyEnd(raw: string, from: number): number {
  const re = /^#{1,3}[ \t]/gm;
  re.lastIndex = from;
  const m = re.exec(raw);
  return m ? m.index : raw.length;
}

function reportStrayClose(
  raw: string,
  base: number,
  at: (o: number) => { line: number; column: number },
  path: string,
  issues: Issue[],
): void {
  let i = raw.indexOf(CLOSE);
  while (i !== -1) {
    issues.push({
      severity: 'warning',
      code: 'SPEC_STRAY_CLOSE',
      message: '</spec-entry> without a matching opening tag',
      hint: 'remove it, or add the missing <spec-entry ...> line',
      file: path,
      ...at(base + i),
    });
    i = raw.indexOf(CLOSE, i + 1);
  }
}

/** The exact source text of an entry block. */
export function renderEntryNode(node: SpecEntryNode): string {
  return renderTagPieces(node.attributes, node.tail) + node.body + node.close;
}

/** Serialises a model back to text; for an unmodified model this is the original, byte for byte. */
export function serializeSpecFile(model: SpecFileModel): string {
  let out = '';
  for (const s of model.segments) out += s.kind === 'entry' ? renderEntryNode(s) : s.raw;
  return out;
}

import { inputError } from '@maestro/core';
import { escapeAttribute, escapeSpecContent } from './entities.js';
import { type KnowledgeEntry, SPEC_CATEGORIES, type SpecCategory } from './model.js';
import { CATEGORY_FILE } from './seeds.js';
import { parseSpecFile, type SpecEntryNode, type SpecFileModel, serializeSpecFile } from './spec-file.js';
import type { SpecAttribute } from './spec-tag.js';
import { specFileEntries } from './spec-view.js';

/**
 * Pure text transforms on spec files (text in, text out). Promote and audit build the exact bytes
 * of their multi-file commits with these; the lifecycle functions of this package use them too.
 */

/** The writer's attribute order; new attributes are inserted where this order puts them. */
export const SPEC_ATTRIBUTE_ORDER = [
  'category',
  'keywords',
  'date',
  'sid',
  'title',
  'description',
  'source',
  'ref',
  'confidence',
  'conflict-marker',
  'conflict-note',
  'conflict-date',
  'supersedes',
  'superseded-by',
  'status',
] as const;

export interface SpecEntryInput {
  category: string;
  keywords: readonly string[];
  /** `YYYY-MM-DD`. */
  date: string;
  sid?: string | null;
  title: string;
  description?: string | null;
  source?: string | null;
  ref?: string | null;
  confidence?: string | null;
  conflictMarker?: string | null;
  conflictNote?: string | null;
  conflictDate?: string | null;
  supersedes?: readonly string[];
  supersededBy?: string | null;
  status?: 'active' | 'deprecated' | null;
  content: string;
}

export function isSpecCategory(value: string): value is SpecCategory {
  return (SPEC_CATEGORIES as readonly string[]).includes(value);
}

/** The file a category's new entries go to; anything unknown goes to `learnings.md`. */
export function categoryFileFor(category: string): string {
  return isSpecCategory(category) ? CATEGORY_FILE[category] : 'learnings.md';
}

/** One-line text (for titles in headings): whitespace runs collapsed. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Renders a new entry block with LF line endings, attributes in writer order, values escaped,
 * and content escaped so it cannot open or close an entry. No trailing newline.
 */
export function renderSpecEntry(input: SpecEntryInput): string {
  const attrs: [string, string | null | undefined][] = [
    ['category', input.category],
    ['keywords', input.keywords.join(',')],
    ['date', input.date],
    ['sid', input.sid],
    ['title', oneLine(input.title)],
    ['description', input.description],
    ['source', input.source],
    ['ref', input.ref],
    ['confidence', input.confidence],
    ['conflict-marker', input.conflictMarker],
    ['conflict-note', input.conflictNote],
    ['conflict-date', input.conflictDate],
    ['supersedes', input.supersedes?.length ? input.supersedes.join(',') : null],
    ['superseded-by', input.supersededBy],
    ['status', input.status === 'deprecated' ? 'deprecated' : null],
  ];
  const tag = attrs
    .filter(([k, v]) => v !== null && v !== undefined && (v !== '' || k === 'keywords'))
    .map(([k, v]) => ` ${k}="${escapeAttribute(String(v))}"`)
    .join('');
  const content = escapeSpecContent(input.content.replace(/\r\n?/g, '\n').trim());
  const heading = escapeSpecContent(oneLine(input.title));
  return `<spec-entry${tag}>\n\n### ${heading}\n\n${content}\n\n</spec-entry>`;
}

/**
 * Appends an entry (rendered block or input) at the end of a spec file, separated by a blank
 * line, in the file's own line ending, ending with a newline. Nothing before it changes except
 * that a missing final newline is added.
 */
export function appendSpecEntry(text: string, entry: SpecEntryInput | string): string {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  let block = typeof entry === 'string' ? entry : renderSpecEntry(entry);
  block = block.replace(/\r\n/g, '\n');
  if (eol === '\r\n') block = block.replace(/\n/g, '\r\n');
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return `${text.slice(0, text.length - body.length)}${block}${eol}`;
  let out = text;
  if (!out.endsWith('\n')) out += eol;
  if (!endsWithBlankLine(out)) out += eol;
  return `${out}${block}${eol}`;
}

/** `/\n[ \t]*\r?\n$/.test(text)`, read from the end (the regex scans a whole file of many megabytes). */
function endsWithBlankLine(text: string): boolean {
  let i = text.length - 1;
  if (text[i] !== '\n') return false;
  i--;
  if (text[i] === '\r') i--;
  while (i >= 0 && (text[i] === ' ' || text[i] === '\t')) i--;
  return i >= 0 && text[i] === '\n';
}

/** A located entry: its node in the model and its view. */
export interface LocatedSpecEntry {
  node: SpecEntryNode | null;
  entry: KnowledgeEntry;
  segmentIndex: number;
}

/** Every entry of a parsed model paired with its node (null node for legacy entries). */
export function locateEntries(model: SpecFileModel, file: string): LocatedSpecEntry[] {
  const views = specFileEntries(model, file, file, []);
  const out: LocatedSpecEntry[] = [];
  let v = 0;
  model.segments.forEach((s, i) => {
    if (s.kind === 'text') return;
    out.push({ node: s.kind === 'entry' ? s : null, entry: views[v++], segmentIndex: i });
  });
  return out;
}

/** Every entry id (sid or derived id) of a spec file, in file order. */
export function specFileIds(text: string, file: string): string[] {
  return locateEntries(parseSpecFile(text, file).value, file).map((l) => l.entry.id);
}

/** Sids written in the file (for uniqueness checks when drawing new ones). */
export function specFileSids(text: string, file: string): string[] {
  return locateEntries(parseSpecFile(text, file).value, file)
    .filter((l) => l.entry.hasSid)
    .map((l) => l.entry.id);
}

/** An entry of the file whose title equals `title` (trimmed, case-insensitive), deprecated ones included. */
export function findDuplicateTitle(text: string, file: string, title: string): KnowledgeEntry | null {
  const want = title.trim().toLowerCase();
  for (const { entry } of locateEntries(parseSpecFile(text, file).value, file)) {
    if (entry.titleSource === 'content' || entry.titleSource === 'none') continue;
    if (entry.title.trim().toLowerCase() === want) return entry;
  }
  return null;
}

const ORDER_INDEX = new Map<string, number>(SPEC_ATTRIBUTE_ORDER.map((n, i) => [n, i]));

/** Leading whitespace of an attribute piece. */
function leadOf(a: SpecAttribute | undefined): string {
  return a ? /^\s*/.exec(a.raw)![0] || ' ' : ' ';
}

/**
 * Applies attribute changes to one entry node (value null removes every occurrence). Existing
 * attributes are rewritten in place; new ones are inserted where the writer order puts them.
 */
export function withAttributes(node: SpecEntryNode, changes: Readonly<Record<string, string | null>>): SpecEntryNode {
  let attributes = [...node.attributes];
  for (const [name, value] of Object.entries(changes)) {
    const idx = attributes.findIndex((a) => a.name === name);
    if (value === null) {
      attributes = attributes.filter((a) => a.name !== name);
      continue;
    }
    if (idx !== -1) {
      attributes[idx] = { name, value, raw: `${leadOf(attributes[idx])}${name}="${escapeAttribute(value)}"` };
      continue;
    }
    const order = ORDER_INDEX.get(name) ?? Number.POSITIVE_INFINITY;
    let at = attributes.findIndex((a) => (ORDER_INDEX.get(a.name) ?? -1) > order);
    if (at === -1) at = attributes.length;
    const neighbour = attributes[at] ?? attributes[attributes.length - 1];
    attributes.splice(at, 0, { name, value, raw: `${leadOf(neighbour)}${name}="${escapeAttribute(value)}"` });
  }
  return { ...node, attributes };
}

/**
 * Sets or removes attributes of the entry `id` (sid or derived id) in a spec file's text.
 * `file` is the path relative to `.workflow/` (derived ids depend on its stem). Every other
 * byte, CRLF line endings included, is kept. Throws UNKNOWN_ID (exit 2) if there is no such
 * tagged entry, LEGACY_ENTRY if it is a legacy heading entry.
 */
export function setSpecEntryAttributes(
  text: string,
  id: string,
  changes: Readonly<Record<string, string | null>>,
  file: string,
): string {
  const model = parseSpecFile(text, file).value;
  const found = locateEntries(model, file).find((l) => l.entry.id === id);
  if (!found)
    throw inputError('UNKNOWN_ID', `no spec entry with id ${id} in ${file}`, {
      hint: 'run `maestro spec list` for the ids',
    });
  if (!found.node) {
    throw inputError(
      'LEGACY_ENTRY',
      `${id} is a legacy "### [category] [date] title" entry in ${file}; it has no attributes to edit`,
      {
        hint: `convert it to a <spec-entry> block (see ${file}:${found.entry.line})`,
      },
    );
  }
  const segments = [...model.segments];
  segments[found.segmentIndex] = withAttributes(found.node, changes);
  return serializeSpecFile({ ...model, segments });
}

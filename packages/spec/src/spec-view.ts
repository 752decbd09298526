import { type Issue, normalizeText, sha256 } from '@maestro/core';
import { type Frontmatter, fmString } from './frontmatter.js';
import { type KnowledgeEntry, SPEC_CATEGORIES } from './model.js';
import { FILE_CATEGORY } from './seeds.js';
import type { SegmentSink, SpecEntryNode, SpecFileModel, SpecLegacyNode } from './spec-file.js';
import { cleanContent, fileStem, firstLine, splitBody, splitIdList, splitKeywords } from './spec-text.js';

/**
 * The parsed view of spec entries (`KnowledgeEntry`), computed from the lossless file model.
 *
 * Identity: the `sid` attribute when present. An entry without one gets a derived id
 * `D-` + the first 16 hex of sha256(file stem, NUL, normalised title, NUL, normalised content).
 * It depends only on the entry itself and its file, so inserting or removing other entries never
 * changes it. Two entries of one file with the same title and content (exact twins) get `-2`,
 * `-3`, ... in file order. `maestro spec backfill-sid` replaces derived ids with real sids.
 */

const VALID_CATEGORIES = new Set<string>(SPEC_CATEGORIES);
const CONFIDENCE = new Set(['high', 'medium', 'low', 'contested']);

/** The category a file's entries default to: frontmatter `category`, else the seed file name. */
export function fileCategory(model: SpecFileModel, file: string): string | null {
  return frontmatterCategory(model.frontmatter, file);
}

function frontmatterCategory(frontmatter: Frontmatter | null, file: string): string | null {
  const fm = fmString(frontmatter?.data ?? null, 'category');
  if (fm) return fm.trim();
  return FILE_CATEGORY[file.slice(file.lastIndexOf('/') + 1)] ?? null;
}

export function derivedSpecId(file: string, title: string, content: string): string {
  return derivedFromNormalized(file, title, normalizeText(content));
}

function derivedFromNormalized(file: string, title: string, normalizedContent: string): string {
  return `D-${sha256(`${fileStem(file)}\u0000${normalizeText(title)}\u0000${normalizedContent}`).slice(0, 16)}`;
}

/** Id and content hash sharing one normalisation of the content (the costly part of a parse). */
function identity(file: string, sid: string | undefined, title: string, content: string) {
  const normalized = normalizeText(content);
  return { id: sid || derivedFromNormalized(file, title, normalized), contentHash: sha256(normalized) };
}

export interface ViewContext {
  file: string;
  issueFile: string;
  defaultCategory: string | null;
  issues: Issue[];
}

function warn(ctx: ViewContext, node: { line: number; column: number }, code: string, message: string, hint: string) {
  ctx.issues.push({
    severity: 'warning',
    code,
    message,
    hint,
    file: ctx.issueFile,
    line: node.line,
    column: node.column,
  });
}

/** Decoded attributes by name, first occurrence wins; only looked up with names Object.prototype lacks. */
type Attrs = Record<string, string | undefined>;

function entryCategory(node: SpecEntryNode, attrs: Attrs, ctx: ViewContext): string | null {
  const raw = attrs.category?.trim();
  if (!raw) {
    warn(ctx, node, 'SPEC_CATEGORY_MISSING', 'entry has no category attribute', 'add category="..."');
    return ctx.defaultCategory;
  }
  if (!VALID_CATEGORIES.has(raw)) {
    warn(
      ctx,
      node,
      'SPEC_CATEGORY_INVALID',
      `category "${raw}" is not one of ${SPEC_CATEGORIES.join(', ')}`,
      'use one of the seven categories',
    );
  }
  return raw;
}

function entryStatus(node: SpecEntryNode, attrs: Attrs, ctx: ViewContext): 'active' | 'deprecated' {
  const s = attrs.status?.trim().toLowerCase();
  if (s === 'deprecated' || s === 'superseded') return 'deprecated';
  if (s && s !== 'active')
    warn(
      ctx,
      node,
      'SPEC_STATUS_UNKNOWN',
      `status "${s}" is not active or deprecated; read as active`,
      'use status="deprecated" or remove it',
    );
  return 'active';
}

function entryDate(node: SpecEntryNode, attrs: Attrs, ctx: ViewContext): string | null {
  const d = attrs.date?.trim();
  if (d && /^\d{4}-\d{2}-\d{2}/.test(d)) return d.slice(0, 10);
  warn(
    ctx,
    node,
    'SPEC_DATE_INVALID',
    d ? `date "${d}" is not YYYY-MM-DD` : 'entry has no date attribute',
    'write date="YYYY-MM-DD"',
  );
  return null;
}

function entryLinks(
  node: SpecEntryNode,
  attrs: Attrs,
  ctx: ViewContext,
): { supersedes: string[]; supersededBy: string | null } {
  let by = attrs['superseded-by']?.trim();
  const alias = attrs.superseded_by?.trim();
  if (!by && alias) {
    by = alias;
    warn(
      ctx,
      node,
      'SPEC_ATTRIBUTE_ALIAS',
      'superseded_by is read as superseded-by',
      'rename the attribute to superseded-by',
    );
  }
  return { supersedes: splitIdList(attrs.supersedes), supersededBy: by || null };
}

/**
 * Decoded attributes by name, the first occurrence of a name wins, built in one pass that also
 * finds repeated names (returned in order, one per extra occurrence). A name that `in` finds on a
 * plain object (`constructor`, `toString`, ...) is never stored, as it never was.
 */
function attributeRecord(node: SpecEntryNode): { record: Record<string, string>; repeated: string[] | null } {
  const record: Record<string, string> = {};
  let repeated: string[] | null = null;
  let inherited: Set<string> | null = null;
  for (const a of node.attributes) {
    const name = a.name;
    if (!name) continue;
    if (!(name in record)) {
      record[name] = a.value;
    } else if (Object.hasOwn(record, name) || inherited?.has(name)) {
      if (repeated === null) repeated = [];
      repeated.push(name);
    } else {
      if (inherited === null) inherited = new Set();
      inherited.add(name);
    }
  }
  return { record, repeated };
}

/** The view of one tagged entry. `id` is the sid or the derived id (before twin suffixes). */
export function viewOfEntry(node: SpecEntryNode, ctx: ViewContext): KnowledgeEntry {
  const { record, repeated } = attributeRecord(node);
  const attrs: Attrs = record;
  const { heading, content } = splitBody(node.body);
  const titleAttr = attrs.title?.trim();
  const title = titleAttr || heading || firstLine(content);
  const sid = attrs.sid?.trim();
  const confidence = attrs.confidence?.trim().toLowerCase() || null;
  if (confidence && !CONFIDENCE.has(confidence)) {
    warn(
      ctx,
      node,
      'SPEC_CONFIDENCE_UNKNOWN',
      `confidence "${confidence}" is not high, medium, low or contested; ignored`,
      'fix or remove it',
    );
  }
  const marker = attrs['conflict-marker']?.trim();
  if (repeated) {
    for (const name of repeated)
      warn(
        ctx,
        node,
        'SPEC_ATTRIBUTE_DUPLICATE',
        `attribute "${name}" appears twice; the first is used`,
        'remove the second one',
      );
  }
  // One object literal with a fixed shape (no spreads): spreads made this the hottest line of a parse.
  const ident = identity(ctx.file, sid, title, content);
  const links = entryLinks(node, attrs, ctx);
  return {
    id: ident.id,
    store: 'spec',
    title,
    content,
    category: entryCategory(node, attrs, ctx),
    keywords: splitKeywords(attrs.keywords),
    description: attrs.description?.trim() || null,
    date: entryDate(node, attrs, ctx),
    status: entryStatus(node, attrs, ctx),
    confidence: confidence && CONFIDENCE.has(confidence) ? confidence : null,
    supersedes: links.supersedes,
    supersededBy: links.supersededBy,
    ref: attrs.ref?.trim() || null,
    source: attrs.source?.trim() || null,
    file: ctx.file,
    line: node.line,
    contentHash: ident.contentHash,
    legacy: false,
    hasSid: Boolean(sid),
    type: null,
    conflict: marker ? { marker, note: attrs['conflict-note'] ?? null, date: attrs['conflict-date'] ?? null } : null,
    titleSource: titleAttr ? 'attribute' : heading ? 'heading' : content ? 'content' : 'none',
    attributes: record,
  };
}

export function viewOfLegacy(node: SpecLegacyNode, ctx: ViewContext): KnowledgeEntry {
  const nl = node.raw.indexOf('\n');
  const content = cleanContent(nl === -1 ? '' : node.raw.slice(nl + 1));
  if (node.category && !VALID_CATEGORIES.has(node.category)) {
    warn(
      ctx,
      node,
      'SPEC_CATEGORY_INVALID',
      `category "${node.category}" is not one of ${SPEC_CATEGORIES.join(', ')}`,
      'use one of the seven categories',
    );
  }
  const ident = identity(ctx.file, undefined, node.title, content);
  return {
    id: ident.id,
    store: 'spec',
    title: node.title,
    content,
    category: node.category ?? ctx.defaultCategory,
    keywords: [],
    description: null,
    date: node.date ? node.date.slice(0, 10) : null,
    status: 'active',
    confidence: null,
    supersedes: [],
    supersededBy: null,
    ref: null,
    source: null,
    file: ctx.file,
    line: node.line,
    contentHash: ident.contentHash,
    legacy: true,
    hasSid: false,
    type: null,
    conflict: null,
    titleSource: 'heading',
    attributes: {},
  };
}

/**
 * Every entry of a parsed spec file, in file order. `file` is relative to `.workflow/`
 * (`specs/x.md`); `issueFile` is how issues name the file. Twin derived ids get suffixes.
 */
export function specFileEntries(
  model: SpecFileModel,
  file: string,
  issueFile: string,
  issues: Issue[],
): KnowledgeEntry[] {
  const out: KnowledgeEntry[] = [];
  const sink = specEntrySink(file, issueFile, model.frontmatter, issues, out);
  for (const s of model.segments) sink(s);
  return out;
}

/** What the entry views of one spec file share: its path, default category and issue list. */
export function viewContext(
  file: string,
  issueFile: string,
  frontmatter: Frontmatter | null,
  issues: Issue[],
): ViewContext {
  return { file, issueFile, defaultCategory: frontmatterCategory(frontmatter, file), issues };
}

/**
 * `specFileEntries` one segment at a time: appends each entry's view to `out` (and its warnings
 * to `issues`) as the scanner (`scanSpecFile`) reaches it.
 */
export function specEntrySink(
  file: string,
  issueFile: string,
  frontmatter: Frontmatter | null,
  issues: Issue[],
  out: KnowledgeEntry[],
): SegmentSink {
  const ctx = viewContext(file, issueFile, frontmatter, issues);
  const twins = new Map<string, number>();
  return (s) => {
    if (s.kind === 'text') return;
    const e = s.kind === 'entry' ? viewOfEntry(s, ctx) : viewOfLegacy(s, ctx);
    if (!e.hasSid) {
      const n = (twins.get(e.id) ?? 0) + 1;
      twins.set(e.id, n);
      if (n > 1) e.id = `${e.id}-${n}`;
    }
    out.push(e);
  };
}

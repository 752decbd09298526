import { contentHash, type Issue, type Parsed, slugify } from '@maestro/core';
import { type Frontmatter, fmList, fmString, readFrontmatter } from './frontmatter.js';
import { detectEol, LineIndex } from './lines.js';
import type { KnowledgeEntry } from './model.js';

/**
 * The lossless model of one `.workflow/knowhow/*.md` document: the original text plus its parsed
 * frontmatter (strings only) and body. Serialising an untouched model returns the text itself;
 * edits go through `setKnowhowFields`, which rewrites only the top-level keys it changes.
 */
export interface KnowhowFileModel {
  path: string;
  text: string;
  bom: boolean;
  eol: '\n' | '\r\n';
  frontmatter: Frontmatter | null;
  /** Parsed frontmatter mapping ({} when there is none; null when it is invalid). */
  data: Record<string, unknown> | null;
  /** Text after the frontmatter, verbatim. */
  body: string;
}

/** Knowhow type → file prefix (maestro-flow §2.3). */
export const KNOWHOW_TYPES = {
  session: 'KNW',
  tip: 'TIP',
  template: 'TPL',
  recipe: 'RCP',
  reference: 'REF',
  decision: 'DCS',
  asset: 'AST',
  blueprint: 'BLP',
  document: 'DOC',
} as const;
export type KnowhowType = keyof typeof KNOWHOW_TYPES;

export function parseKnowhowFile(text: string, path: string): Parsed<KnowhowFileModel> {
  const issues: Issue[] = [];
  const lines = new LineIndex(text);
  const frontmatter = readFrontmatter(text, path, (o) => lines.at(o), issues);
  if (!frontmatter) {
    issues.push({
      severity: 'warning',
      code: 'KNOWHOW_NO_FRONTMATTER',
      message: 'knowhow document has no YAML frontmatter; title taken from its first heading or file name',
      hint: 'add a --- frontmatter block with title and type',
      file: path,
      line: 1,
      column: 1,
    });
  }
  const bodyStart = frontmatter ? frontmatter.end : text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return {
    value: {
      path,
      text,
      bom: text.charCodeAt(0) === 0xfeff,
      eol: detectEol(text),
      frontmatter,
      data: frontmatter ? frontmatter.data : {},
      body: text.slice(bodyStart),
    },
    issues,
  };
}

/** The file's text; identical to what was parsed unless it was built by an edit. */
export function serializeKnowhowFile(model: KnowhowFileModel): string {
  return model.text;
}

/** `knowhow-` + slug of the file stem: maestro-flow's wiki id, the one knowhow id everywhere. */
export function knowhowIdFor(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  return `knowhow-${slugify(base.endsWith('.md') ? base.slice(0, -3) : base, 1000)}`;
}

function firstHeading(body: string): string | null {
  const m = /^#{1,6}[ \t]+(.+?)[ \t]*\r?$/m.exec(body);
  return m ? m[1] : null;
}

const KNOWN_TYPES = new Set(Object.keys(KNOWHOW_TYPES));

/** The `KnowledgeEntry` view of a knowhow document. `file` is relative to `.workflow/`. */
export function knowhowEntry(model: KnowhowFileModel, file: string, issues: Issue[]): KnowledgeEntry {
  const d = model.data;
  const fmTitle = fmString(d, 'title')?.trim();
  const heading = fmTitle ? null : firstHeading(model.body);
  const stem = file.slice(file.lastIndexOf('/') + 1).replace(/\.md$/, '');
  const type = fmString(d, 'type')?.trim() || null;
  if (model.frontmatter && d && !(type && KNOWN_TYPES.has(type))) {
    issues.push({
      severity: 'warning',
      code: 'KNOWHOW_TYPE_UNKNOWN',
      message: type
        ? `knowhow type "${type}" is not one of ${[...KNOWN_TYPES].join(', ')}`
        : 'knowhow document has no type',
      hint: 'set type: to one of the nine knowhow types',
      file: model.path,
      line: 1,
      column: 1,
    });
  }
  const rawStatus = (fmString(d, 'status') ?? fmString(d, 'lifecycleStatus') ?? '').trim().toLowerCase();
  const content = model.body.replace(/\r\n/g, '\n').trim();
  const created = fmString(d, 'created')?.trim() ?? '';
  const keywords: string[] = [];
  for (const k of [...fmList(d, 'keywords'), ...fmList(d, 'tags')]) {
    const v = k.trim().toLowerCase();
    if (v && !keywords.includes(v)) keywords.push(v);
  }
  const marker = fmString(d, 'conflictMarker');
  return {
    id: knowhowIdFor(file),
    store: 'knowhow',
    title: fmTitle || heading || stem,
    content,
    category: fmString(d, 'category')?.trim() || fmString(d, 'specCategory')?.trim() || null,
    keywords,
    description: fmString(d, 'description')?.trim() || fmString(d, 'summary')?.trim() || null,
    date: /^\d{4}-\d{2}-\d{2}/.test(created) ? created.slice(0, 10) : null,
    status: rawStatus === 'deprecated' || rawStatus === 'superseded' ? 'deprecated' : 'active',
    confidence: fmString(d, 'confidence')?.trim().toLowerCase() || null,
    supersedes: fmList(d, 'supersedes'),
    supersededBy: fmString(d, 'supersededBy')?.trim() || null,
    ref: null,
    source: fmString(d, 'source')?.trim() || fmString(d, 'sourceRef')?.trim() || null,
    file,
    line: null,
    contentHash: contentHash(content),
    legacy: false,
    hasSid: false,
    type,
    conflict: marker ? { marker, note: fmString(d, 'conflictNote'), date: fmString(d, 'conflictDate') } : null,
    titleSource: fmTitle ? 'frontmatter' : heading ? 'heading' : 'filename',
    explicitId: fmString(d, 'explicitId')?.trim() || null,
  };
}

import { unescapeSpecContent } from './entities.js';
import type { SpecEntryNode } from './spec-file.js';

/** String helpers of the spec entry view (`spec-view.ts`): keyword and id lists, body and content. */

/** The first attribute of that name, decoded, or undefined. */
export function attributeOf(node: SpecEntryNode, name: string): string | undefined {
  for (const a of node.attributes) if (a.name === name) return a.value;
  return undefined;
}

/** Splits a `keywords` value: commas (ASCII or full-width); a value without commas splits on spaces. */
export function splitKeywords(value: string | undefined): string[] {
  if (!value) return [];
  const parts = /[，、]/.test(value)
    ? value.split(/[,，、]/)
    : value.includes(',')
      ? value.split(',')
      : value.split(/\s+/);
  const out: string[] = [];
  for (const p of parts) {
    const k = p.trim().toLowerCase();
    if (k && !out.includes(k)) out.push(k);
  }
  return out;
}

/** Splits a comma-separated sid list (`supersedes`). */
export function splitIdList(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const p of value.split(/[,\s]+/)) if (p && !out.includes(p)) out.push(p);
  return out;
}

export function fileStem(file: string): string {
  const base = file.slice(file.lastIndexOf('/') + 1);
  return base.endsWith('.md') ? base.slice(0, -3) : base;
}

/** Splits an entry body into its `### ` heading (if it opens the body) and its content. */
export function splitBody(body: string): { heading: string | null; content: string } {
  let lead = 0;
  for (;;) {
    const c = body.charCodeAt(lead);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    lead++;
  }
  if (body.startsWith('###', lead) && (body[lead + 3] === ' ' || body[lead + 3] === '\t')) {
    const nl = body.indexOf('\n', lead);
    const line = body.slice(lead + 4, nl === -1 ? body.length : nl);
    const rest = nl === -1 ? '' : body.slice(nl + 1);
    return { heading: line.trim(), content: cleanContent(rest) };
  }
  return { heading: null, content: cleanContent(body) };
}

/** Display title of an entry that has neither a title attribute nor a heading. */
export function firstLine(content: string): string {
  const line = content.split('\n', 1)[0].trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export function cleanContent(text: string): string {
  // The checks skip two whole-text regex passes for the usual content (LF, no escaped tags).
  const lf = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  const trimmed = lf.trim();
  return trimmed.includes('&') ? unescapeSpecContent(trimmed) : trimmed;
}

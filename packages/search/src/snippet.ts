import { SNIPPET_CHARS } from './config.js';

export interface Snippet {
  text: string;
  /** [start, end) ranges in `text`, sorted, non-overlapping. */
  highlights: [number, number][];
}

const ASCII_WORD = /^[a-z0-9_]+$/;
const ASCII_ALNUM = /[A-Za-z0-9]/;
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;

/** Strings to look for in the text for one matched term (a folded plural is looked for unfolded too). */
function needlesFor(term: string): string[] {
  if (ASCII_WORD.test(term) && term.endsWith('y') && term.length > 2) return [term, `${term.slice(0, -1)}ies`];
  return [term];
}

/**
 * A match of an ASCII term must start a word or a CamelCase piece: "json" in parseJsonText or in
 * 用json, not in "xjson".
 */
function startsPiece(original: string, at: number): boolean {
  if (at === 0) return true;
  const prev = original[at - 1];
  if (!ASCII_ALNUM.test(prev)) return true;
  return LOWER.test(prev) && UPPER.test(original[at]);
}

function occurrences(original: string, lower: string, needles: string[]): { at: number; end: number; n: number }[] {
  const out: { at: number; end: number; n: number }[] = [];
  needles.forEach((needle, n) => {
    if (!needle) return;
    const ascii = ASCII_WORD.test(needle);
    for (let at = lower.indexOf(needle), found = 0; at >= 0 && found < 50; at = lower.indexOf(needle, at + 1)) {
      if (ascii && !startsPiece(original, at)) continue;
      out.push({ at, end: at + needle.length, n });
      found++;
    }
  });
  return out.sort((a, b) => a.at - b.at || b.end - a.end);
}

/** The window start that covers the most distinct needles within `SNIPPET_CHARS`. */
function bestStart(occ: { at: number; end: number; n: number }[]): number {
  let best = occ[0].at;
  let bestCount = 0;
  for (const o of occ) {
    const seen = new Set<number>();
    for (const p of occ) if (p.at >= o.at && p.end <= o.at + SNIPPET_CHARS) seen.add(p.n);
    if (seen.size > bestCount) {
      bestCount = seen.size;
      best = o.at;
    }
  }
  return best;
}

function safeCut(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at - 1 : at;
}

/**
 * About `SNIPPET_CHARS` characters of `source` (whitespace collapsed) around the densest cluster
 * of matched terms and phrases, with "…" where it was cut and the matches as highlight ranges.
 */
export function makeSnippet(source: string, terms: readonly string[], phrases: readonly string[] = []): Snippet {
  const raw = source.replace(/\s+/g, ' ').trim();
  const folded = raw.normalize('NFKC');
  // Show the user's own characters; match on the normalised form. Where normalisation changed the
  // length (ligatures, some compatibility characters) positions would not line up: show that form.
  const text = folded.length === raw.length ? raw : folded;
  const lower = folded.toLowerCase();
  const needles = [...terms.flatMap(needlesFor), ...phrases.map((p) => p.normalize('NFKC').toLowerCase().trim())];
  const occ = lower.length === text.length ? occurrences(folded, lower, needles) : [];
  let start = 0;
  if (occ.length && text.length > SNIPPET_CHARS) {
    start = Math.max(0, bestStart(occ) - 30);
    const space = text.lastIndexOf(' ', start);
    if (space >= 0 && start - space < 20) start = space + 1;
    else if (start > 0 && text[start - 1] !== ' ') start = safeCut(text, start);
    if (text.length - start < SNIPPET_CHARS) start = Math.max(0, text.length - SNIPPET_CHARS);
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    end = space > start + SNIPPET_CHARS / 2 ? space : safeCut(text, end);
  }
  const prefix = start > 0 ? '…' : '';
  const body = text.slice(start, end).trim();
  const lead = text.slice(start, end).length - text.slice(start, end).trimStart().length;
  const highlights: [number, number][] = [];
  for (const o of occ) {
    if (o.at < start + lead || o.end > start + lead + body.length) continue;
    const s = o.at - start - lead + prefix.length;
    const e = o.end - start - lead + prefix.length;
    const last = highlights[highlights.length - 1];
    if (last && s < last[1]) last[1] = Math.max(last[1], e);
    else highlights.push([s, e]);
  }
  return { text: prefix + body + (end < text.length ? '…' : ''), highlights };
}

import { normalizeText, sha256 } from '@maestro/core';

const QUOTES = /["'“”‘’`「」『』]/g;
/** Whitespace next to a CJK character or any punctuation: formatting, not wording (`必须 使用`, `a , b`). */
const LOOSE_SPACE = /\s+(?=[^\p{L}\p{N}]|\p{Script=Han})|(?<=[^\p{L}\p{N}\s]|\p{Script=Han})\s+/gu;
/** Markdown emphasis markers (`**bold**`, `__bold__`): markup, not wording. */
const EMPHASIS = /\*\*|__/g;
/** Terminal punctuation at the very end: `Use UTC.` and `Use UTC` say the same. */
const TRAILING = /[.。!！;；]+$/u;

/**
 * The matcher's view of a text: the one normaliser (NFKC, lower case, collapsed whitespace) plus
 * quote characters removed, as maestro-flow's reconciler does, so that `"x"` and `x` are the same.
 */
export function matchNormalize(text: string): string {
  const norm = normalizeText(text);
  const bare = norm.replace(QUOTES, '');
  // The normaliser already collapsed whitespace: only removed quotes can leave it uneven.
  return bare.length === norm.length ? bare : bare.replace(/\s+/g, ' ').trim();
}

/**
 * Exact-duplicate key: the matcher normal form without formatting: whitespace next to CJK
 * characters or punctuation (Chinese is written without spaces, so `必须 使用` and `必须使用` are
 * the same sentence, and so are `a, b` and `a ,b`), markdown emphasis and terminal punctuation.
 * Only whitespace between two letters or digits remains, as one space.
 */
export function exactKey(text: string): string {
  return exactKeyOfNormal(matchNormalize(text));
}

/** `exactKey` of a text already in matcher normal form. */
export function exactKeyOfNormal(norm: string): string {
  const plain =
    norm.includes('**') || norm.includes('__') ? norm.replace(EMPHASIS, '').replace(/\s+/g, ' ').trim() : norm;
  const bare = plain.replace(TRAILING, '').trimEnd();
  return sha256(dropLooseSpaces(bare));
}

/** Whitespace next to a CJK character or any punctuation removed (`LOOSE_SPACE`). */
export function dropLooseSpaces(text: string): string {
  return ASCII_SINGLE_SPACED.test(text) ? dropLooseAsciiSpaces(text) : text.replace(LOOSE_SPACE, '');
}

/** Printable ASCII whose only whitespace is single spaces: `dropLooseAsciiSpaces` applies. */
const ASCII_SINGLE_SPACED = /^(?:[\x21-\x7e]| (?! ))*$/;

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * `text.replace(LOOSE_SPACE, '')` for a text `ASCII_SINGLE_SPACED` accepts, without the Unicode
 * regexp: each space goes when the character before or after it is not a letter or digit.
 */
function dropLooseAsciiSpaces(text: string): string {
  let out = '';
  let from = 0;
  for (let i = text.indexOf(' '); i >= 0; i = text.indexOf(' ', i + 1)) {
    const loose =
      (i + 1 < text.length && !isAsciiAlnum(text.charCodeAt(i + 1))) ||
      (i > 0 && !isAsciiAlnum(text.charCodeAt(i - 1)));
    if (!loose) continue;
    out += text.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

const REF_TOKEN = /\p{Script=Han}|[\p{L}\p{N}_-]+/gu;

/** maestro-flow's token set: a single Han character, or a run of letters, digits, `_` or `-`. */
export function refTokens(norm: string): Set<string> {
  return new Set(norm.match(REF_TOKEN) ?? []);
}

/** maestro-flow's trigram set: 3-character windows of the text without whitespace. */
export function refTrigrams(norm: string): Set<string> {
  const s = norm.replace(/\s+/g, '');
  const out = new Set<string>();
  if (s.length <= 3) {
    if (s) out.add(s);
    return out;
  }
  for (let i = 0; i + 3 <= s.length; i++) out.add(s.slice(i, i + 3));
  return out;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  const inter = intersectionSize(a, b);
  return inter / (a.size + b.size - inter);
}

export function dice(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  return (2 * intersectionSize(a, b)) / (a.size + b.size);
}

function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let n = 0;
  for (const x of small) if (large.has(x)) n++;
  return n;
}

/** maestro-flow's lexical similarity: 0.55 × Jaccard(tokens) + 0.45 × Dice(trigrams). */
export function refSimilarity(
  a: { tokens: ReadonlySet<string>; grams: ReadonlySet<string> },
  b: { tokens: ReadonlySet<string>; grams: ReadonlySet<string> },
): number {
  return Math.min(1, 0.55 * jaccard(a.tokens, b.tokens) + 0.45 * dice(a.grams, b.grams));
}

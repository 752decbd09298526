import { normalizeText, sha256 } from '@maestro/core';

const QUOTES = /["'“”‘’`「」『』]/g;
/** Whitespace next to a CJK character or any punctuation: formatting, not wording (`必须 使用`, `a , b`). */
const LOOSE_SPACE = /\s+(?=[^\p{L}\p{N}]|\p{Script=Han})|(?<=[^\p{L}\p{N}\s]|\p{Script=Han})\s+/gu;
/** Markdown emphasis markers (`**bold**`, `__bold__`): markup, not wording. */
const EMPHASIS = /\*\*|__/g;
/** Terminal punctuation at the very end (`.` `。` `!` `！` `;` `；`): `Use UTC.` and `Use UTC` say the same. */

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
  const bare = withoutTrailing(plain);
  return sha256(ASCII.test(bare) ? asciiTight(bare) : bare.replace(LOOSE_SPACE, ''));
}

/** `text.replace(TRAILING, '').trimEnd()`, without a regular expression. */
function withoutTrailing(text: string): string {
  let end = text.length;
  while (end > 0 && isTerminal(text.charCodeAt(end - 1))) end--;
  return (end === text.length ? text : text.slice(0, end)).trimEnd();
}

/** A character of TRAILING: `.` `。` `!` `！` `;` `；`. */
function isTerminal(c: number): boolean {
  return c === 46 || c === 33 || c === 59 || c === 0x3002 || c === 0xff01 || c === 0xff1b;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * `text.replace(LOOSE_SPACE, '')` for an ASCII text in matcher normal form (whitespace only as
 * single spaces): a space goes when the character after it, or the one before it, is neither a
 * letter nor a digit (no character there counts as one: the lookarounds need a character; and
 * LOOSE_SPACE's whitespace before a space never occurs here).
 */
function asciiTight(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(' '); at !== -1; at = text.indexOf(' ', at + 1)) {
    const after = at + 1 < text.length ? text.charCodeAt(at + 1) : 48;
    const before = at > 0 ? text.charCodeAt(at - 1) : 48;
    if (alnum(after) && alnum(before)) continue;
    out += text.slice(from, at);
    from = at + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `[A-Za-z0-9]`: ASCII's letters and digits. */
function alnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
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

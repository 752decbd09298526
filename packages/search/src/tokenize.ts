/**
 * The tokeniser shared by indexing, querying, phrase matching, snippets and MMR signatures.
 *
 * Text is NFKC-normalised and lower-cased (the same normalisation as `normalizeText` in
 * @maestro/core) and cut into runs:
 * - a **CJK run** (Han, Hiragana, Katakana, Hangul) is indexed as every character *and* every
 *   adjacent pair, so a one-character query ("图") matches inside a longer word ("图谱"), and a
 *   longer query is matched by its pairs ("认证" → 认证; "认证失败" → 认证 证失 失败);
 * - any other **word run** (letters, digits, `_`) is split into identifier pieces — snake_case at
 *   `_`, CamelCase at case changes (`parseJSONText` → parse json text) — plus the whole identifier
 *   when it had several pieces, so both `json` and `parsejsontext` find it. Pieces shorter than 2
 *   characters and English stop words are dropped; a plural is folded to its WordNet lemma
 *   (tests → test, boxes → box, cookies → cookie; news and series stay), by the plain rule
 *   (drop `-s`, `-ies` → `-y`) for words WordNet does not know.
 * Mixed text such as `jwt认证` is two runs: `jwt` and `认证`.
 *
 * Field length (for BM25F length normalisation) counts words and CJK characters, not the extra
 * pair/whole-identifier tokens, so Chinese and English text of the same size have the same length.
 */

import { TERM_MAX } from '@maestro/core';
import { singular } from '@maestro/lexicon';

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
const WORD_CHAR = `[\\p{L}\\p{N}\\p{M}_]--[${CJK}]`;
// `v` flag for class subtraction; built with the constructor so the ES2022 target accepts it.
// Runs are matched in pieces of at most TERM_MAX characters: an unbounded `+` over one 5 MB word
// overflows the regexp engine's stack. A word cut into pieces is longer than any term and skipped.
// `runs` scans code points by hand with these two classes (what the regexp
// `([CJK]{1,TERM_MAX})|[WORD_CHAR]{1,TERM_MAX}` over the text would match, without a match
// object per word); tokenize.test.ts holds the two together.
const CJK_CHAR = new RegExp(`^[${CJK}]$`, 'v');
const WORD_CHAR_1 = new RegExp(`^[${WORD_CHAR}]$`, 'v');
const PIECE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[^\p{Lu}\p{Ll}\p{N}_]+/gu;
const SIMPLE_WORD = /^[A-Z]?[a-z0-9]+$/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_ALPHA = /^[a-z]+$/;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'an and are as at be by for from has have in into is it its of on or that the their then there these ' +
    'this those to was were which with ' +
    // Question words and pronouns: agent prompts are questions ("how do we store timestamps?").
    'we our us you your me my how what when where why who do does did'
  ).split(' '),
);

/**
 * Folds an English plural onto its lemma: WordNet's where the plain rule would be wrong
 * (boxes → box, viruses → virus, news → news), else the plain rule: queries → query, tests →
 * test; -ss, -us, -is left alone (`singular` of @maestro/lexicon).
 */
export const stem: (piece: string) => string = singular;

/** Identifier pieces of one word run, lower-cased, unfiltered. */
export function wordPieces(word: string): string[] {
  if (SIMPLE_WORD.test(word)) return [word.toLowerCase()];
  const out: string[] = [];
  for (const part of word.split('_')) {
    if (!part) continue;
    if (SIMPLE_WORD.test(part)) out.push(part.toLowerCase());
    else for (const m of part.matchAll(PIECE)) out.push(m[0].toLowerCase());
  }
  return out;
}

function keep(piece: string): boolean {
  return piece.length >= 2 && !STOP_WORDS.has(piece);
}

/** The index/query terms of one non-CJK word run, in emission order. */
function computeWordTerms(word: string): readonly string[] {
  const out: string[] = [];
  const pieces = wordPieces(word);
  for (const p of pieces) if (keep(p)) out.push(stem(p));
  if (pieces.length > 1) {
    const whole = word.toLowerCase();
    if (whole.length >= 2) out.push(whole);
  }
  return out;
}

/**
 * `computeWordTerms` per distinct word: a corpus has far fewer distinct words than words, and
 * the pieces, stop words and WordNet plural folding then cost one map lookup per occurrence.
 */
const wordTermsCache = new Map<string, readonly string[]>();
const WORD_CACHE_MAX = 500_000;

/** Emits the index/query terms of one non-CJK word run. */
function wordTerms(word: string, emit: (term: string) => void): void {
  let terms = wordTermsCache.get(word);
  if (terms === undefined) {
    terms = computeWordTerms(word);
    if (wordTermsCache.size >= WORD_CACHE_MAX) wordTermsCache.clear();
    wordTermsCache.set(word, terms);
  }
  for (let i = 0; i < terms.length; i++) emit(terms[i]);
}

const OTHER = 0;
const WORD = 1;
const HAN = 2;
/** Class of each ASCII code: letters, digits and `_` are word characters. */
const ASCII_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (/[A-Za-z0-9_]/.test(String.fromCharCode(c))) ASCII_CLASS[c] = WORD;
const codeClass = new Map<number, number>();

function classOf(cp: number): number {
  if (cp < 128) return ASCII_CLASS[cp];
  let c = codeClass.get(cp);
  if (c === undefined) {
    const ch = String.fromCodePoint(cp);
    c = CJK_CHAR.test(ch) ? HAN : WORD_CHAR_1.test(ch) ? WORD : OTHER;
    codeClass.set(cp, c);
  }
  return c;
}

/**
 * The CJK runs (cut into pieces of at most TERM_MAX characters) and the word runs of a text,
 * NFKC-normalised, without the words longer than TERM_MAX characters (dropped whole, so a hex
 * dump adds no terms). Characters are code points; anything else separates runs.
 */
function runs(text: string, onWord: (word: string) => void, onHan: (run: string) => void): void {
  // ASCII is already in NFKC form: the ICU call is skipped for it (as `normalizeText` does).
  const s = ASCII_ONLY.test(text) ? text : text.normalize('NFKC');
  const n = s.length;
  let i = 0;
  while (i < n) {
    let cp = s.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff) {
      cp = s.codePointAt(i) as number;
      if (cp > 0xffff) width = 2;
    }
    const cls = classOf(cp);
    if (cls === OTHER) {
      i += width;
      continue;
    }
    const start = i;
    let pieceStart = i;
    let count = 0;
    i += width;
    count++;
    while (i < n) {
      cp = s.charCodeAt(i);
      width = 1;
      if (cp >= 0xd800 && cp <= 0xdbff) {
        cp = s.codePointAt(i) as number;
        if (cp > 0xffff) width = 2;
      }
      if (classOf(cp) !== cls) break;
      if (cls === HAN && count === TERM_MAX) {
        onHan(s.slice(pieceStart, i));
        pieceStart = i;
        count = 0;
      }
      i += width;
      count++;
    }
    if (cls === HAN) onHan(s.slice(pieceStart, i));
    else if (count <= TERM_MAX) onWord(s.slice(start, i));
  }
}

/**
 * Document side: calls `emit` once per term occurrence and returns the field length
 * (words + CJK characters).
 */
export function analyzeDocument(text: string, emit: (term: string) => void): number {
  if (!text) return 0;
  let length = 0;
  runs(
    text,
    (word) => {
      length++;
      wordTerms(word, emit);
    },
    (run) => {
      const chars = Array.from(run);
      length += chars.length;
      for (let i = 0; i < chars.length; i++) {
        emit(chars[i]);
        if (i + 1 < chars.length) emit(chars[i] + chars[i + 1]);
      }
    },
  );
  return length;
}

/** Query side: distinct terms in first-seen order. A CJK run of 2+ characters contributes its pairs only. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  const emit = (t: string) => {
    seen.add(t);
  };
  runs(
    text,
    (word) => wordTerms(word, emit),
    (run) => {
      const chars = Array.from(run);
      if (chars.length === 1) emit(chars[0]);
      for (let i = 0; i + 1 < chars.length; i++) emit(chars[i] + chars[i + 1]);
    },
  );
  return [...seen];
}

/**
 * The shape of a query for expansion: its kept English terms in order (repeats kept, so adjacent
 * words can be joined: "time zone" → timezone) and its CJK runs (segmented into dictionary words
 * by the caller).
 */
export function queryShape(text: string): { words: string[]; han: string[] } {
  const words: string[] = [];
  const han: string[] = [];
  runs(
    text,
    (word) => {
      for (const p of wordPieces(word)) if (keep(p) && ASCII_ALPHA.test(p)) words.push(stem(p));
    },
    (run) => han.push(run),
  );
  return { words, han };
}

/** Positional tokens for phrase matching: identifier pieces and single CJK characters, nothing dropped. */
export function sequenceTokens(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  // No spread into push: a long text has more tokens than a call may take arguments.
  runs(
    text,
    (word) => {
      for (const t of wordPieces(word)) out.push(t);
    },
    (run) => {
      for (const t of Array.from(run)) out.push(t);
    },
  );
  return out;
}

/** True when `needle` occurs as a contiguous run inside `hay`. */
export function containsSequence(hay: readonly string[], needle: readonly string[]): boolean {
  if (needle.length === 0) return true;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

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
const RUN = new RegExp(`([${CJK}]{1,${TERM_MAX}})|[${WORD_CHAR}]{1,${TERM_MAX}}`, 'gv');
const WORD_AT = new RegExp(`[${WORD_CHAR}]`, 'vy');
const PIECE = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+\p{N}*|\p{Lu}+\p{N}*|\p{N}+|[^\p{Lu}\p{Ll}\p{N}_]+/gu;
const SIMPLE_WORD = /^[A-Z]?[a-z0-9]+$/;
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

/** Emits the index/query terms of one non-CJK word run. */
function wordTerms(word: string, emit: (term: string) => void): void {
  const pieces = wordPieces(word);
  for (const p of pieces) if (keep(p)) emit(stem(p));
  if (pieces.length > 1) {
    const whole = word.toLowerCase();
    if (whole.length >= 2) emit(whole);
  }
}

/**
 * The CJK runs (`m[1]` set) and word runs of a text, NFKC-normalised, without the words longer
 * than TERM_MAX characters (their pieces are dropped whole, so a hex dump adds no terms).
 */
function* runs(text: string): Generator<RegExpMatchArray> {
  const s = text.normalize('NFKC');
  let skipAt = -1;
  for (const m of s.matchAll(RUN)) {
    if (m[1] !== undefined) {
      yield m;
      continue;
    }
    const end = (m.index ?? 0) + m[0].length;
    WORD_AT.lastIndex = end;
    if (m.index === skipAt || WORD_AT.test(s)) skipAt = end;
    else yield m;
  }
}

/**
 * Document side: calls `emit` once per term occurrence and returns the field length
 * (words + CJK characters).
 */
export function analyzeDocument(text: string, emit: (term: string) => void): number {
  if (!text) return 0;
  let length = 0;
  for (const m of runs(text)) {
    if (m[1] !== undefined) {
      const chars = Array.from(m[1]);
      length += chars.length;
      for (let i = 0; i < chars.length; i++) {
        emit(chars[i]);
        if (i + 1 < chars.length) emit(chars[i] + chars[i + 1]);
      }
    } else {
      length++;
      wordTerms(m[0], emit);
    }
  }
  return length;
}

/** Query side: distinct terms in first-seen order. A CJK run of 2+ characters contributes its pairs only. */
export function queryTerms(text: string): string[] {
  const seen = new Set<string>();
  const emit = (t: string) => {
    seen.add(t);
  };
  for (const m of runs(text)) {
    if (m[1] !== undefined) {
      const chars = Array.from(m[1]);
      if (chars.length === 1) emit(chars[0]);
      for (let i = 0; i + 1 < chars.length; i++) emit(chars[i] + chars[i + 1]);
    } else wordTerms(m[0], emit);
  }
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
  for (const m of runs(text)) {
    if (m[1] !== undefined) han.push(m[1]);
    else for (const p of wordPieces(m[0])) if (keep(p) && ASCII_ALPHA.test(p)) words.push(stem(p));
  }
  return { words, han };
}

/** Positional tokens for phrase matching: identifier pieces and single CJK characters, nothing dropped. */
export function sequenceTokens(text: string): string[] {
  const out: string[] = [];
  if (!text) return out;
  for (const m of runs(text)) {
    // No spread into push: a long text has more tokens than a call may take arguments.
    for (const t of m[1] !== undefined ? Array.from(m[1]) : wordPieces(m[0])) out.push(t);
  }
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

import { normalizeText } from '@maestro/core';

/** Han, Hiragana, Katakana, Hangul and CJK punctuation: roughly one token per character. */
const CJK =
  /[\u3000-\u303f\u3040-\u30ff\u3100-\u312f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
const CJK_GLOBAL = new RegExp(CJK.source, 'gu');
const CJK_RUN = new RegExp(`${CJK.source}+`, 'gu');

/**
 * A conservative token estimate that does not under-count CJK text: every CJK character counts
 * as one token, everything else as one token per four characters (rounded up). The reference
 * CLI's `chars / 4` under-counts Chinese by about 4x, which would blow any hard budget.
 */
export function estimateTokens(text: string): number {
  if (text === '') return 0;
  const cjk = text.match(CJK_GLOBAL)?.length ?? 0;
  const rest = text.length - cjk;
  return cjk + Math.ceil(rest / 4);
}

export type TokenEstimator = (text: string) => number;

const STOP_WORDS = new Set(
  (
    'the and for with that this from what when where which who whom whose why how are was were been being have has had ' +
    'does did doing can could should would will shall may might must not but about into over under than then them they ' +
    'their there these those you your yours our ours its his her hers him she use using used via per any all some such ' +
    'only also just more most very much many few each other same own out off again once here both either neither nor yes ' +
    'please tell give show explain write make need want know like get got let lets'
  ).split(' '),
);

/**
 * Matching terms of a text: lower-cased NFKC words of 3+ letters or digits outside a stop list,
 * and overlapping bigrams of every CJK run (Chinese has no spaces to split on).
 */
export function terms(text: string): string[] {
  const out = new Set<string>();
  for (const word of normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? []) {
    for (const run of word.match(CJK_RUN) ?? []) {
      const chars = [...run];
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i] + chars[i + 1]);
    }
    for (const w of word.replace(CJK_RUN, ' ').split(' ')) {
      if (w.length >= 3 && !STOP_WORDS.has(w)) out.add(stem(w));
    }
  }
  return [...out];
}

/** A light suffix stripper so `deploys`, `deployed` and `deployment` meet at `deploy`. */
export function stem(word: string): string {
  const cut = (n: number) => word.length - n >= 4;
  if (word.endsWith('ments') && cut(5)) return word.slice(0, -5);
  if (word.endsWith('ment') && cut(4)) return word.slice(0, -4);
  if (word.endsWith('ings') && cut(4)) return word.slice(0, -4);
  if (word.endsWith('ing') && cut(3)) return word.slice(0, -3);
  if (word.endsWith('ies') && cut(3)) return `${word.slice(0, -3)}y`;
  if (/(?:s|x|z|ch|sh)es$/.test(word) && cut(2)) return word.slice(0, -2);
  if (word.endsWith('ed') && cut(2)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && cut(1)) return word.slice(0, -1);
  return word;
}

/** A prepared target (name, description, file text) for repeated matching. */
export interface TermIndex {
  words: Set<string>;
}

export function termIndex(text: string): TermIndex {
  return { words: new Set(terms(text)) };
}

/** Same word, or one a prefix of the other when both are 4+ characters (offline ~ offline-mode). */
function hit(term: string, index: TermIndex): boolean {
  if (index.words.has(term)) return true;
  if (term.length < 4 || CJK.test(term)) return false;
  for (const w of index.words) {
    if (w.length >= 4 && (w.startsWith(term) || term.startsWith(w))) return true;
  }
  return false;
}

/** The query terms found in the target. */
export function matchedTerms(queryTerms: readonly string[], index: TermIndex): string[] {
  return queryTerms.filter((t) => hit(t, index));
}

/**
 * Relevance in [0, 1]: the share of query terms the target contains. CJK bigrams count half,
 * since one shared bigram between two Chinese sentences is weak evidence.
 */
export function matchScore(queryTerms: readonly string[], index: TermIndex): number {
  if (queryTerms.length === 0) return 0;
  let total = 0;
  let got = 0;
  for (const t of queryTerms) {
    const w = CJK.test(t) ? 0.5 : 1;
    total += w;
    if (hit(t, index)) got += w;
  }
  return total === 0 ? 0 : got / total;
}

export function isCjkTerm(term: string): boolean {
  return CJK.test(term);
}

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
    'please tell give show explain write make need want know like get got let lets ought whether'
  ).split(' '),
);

/** True for an English word the matcher ignores (the, how, should, …). */
export const isStopWord = (w: string) => STOP_WORDS.has(w);

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

/**
 * Query terms may carry alternatives (`expandedTerms` in expand.ts): entries after the literal
 * terms, encoded as `ALT` + the term they stand for + `ALT` + weight + `ALT` + their own terms
 * (all of which must be in the target, exactly). They count nothing on their own: a query term the target
 * lacks scores its best alternative's weight instead of 0. Terms filtered out of a list take
 * their alternatives' meaning with them (an alternative whose term is gone is ignored).
 */
export const ALT = '\u0000';

interface Alt {
  of: string;
  weight: number;
  terms: string[];
}

const altMemo = new Map<string, Alt>();

function parseAlt(entry: string): Alt {
  let a = altMemo.get(entry);
  if (!a) {
    const [, of, weight, terms] = entry.split(ALT);
    a = { of, weight: Number(weight), terms: terms.split(' ') };
    if (altMemo.size > 10_000) altMemo.clear();
    altMemo.set(entry, a);
  }
  return a;
}

export const isAlternative = (t: string) => t.charCodeAt(0) === 0;

/** The literal query terms of a list (its alternatives left out). */
export function literalTerms(queryTerms: readonly string[]): string[] {
  return queryTerms.filter((t) => !isAlternative(t));
}

/** A query list split once into its literal terms and, per term, its alternatives. */
const prepared = new WeakMap<readonly string[], { literal: string[]; alts: Map<string, Alt[]> }>();

function prepare(queryTerms: readonly string[]) {
  let p = prepared.get(queryTerms);
  if (!p) {
    const literal: string[] = [];
    const alts = new Map<string, Alt[]>();
    for (const t of queryTerms) {
      if (!isAlternative(t)) literal.push(t);
      else {
        const a = parseAlt(t);
        const list = alts.get(a.of) ?? [];
        list.push(a);
        alts.set(a.of, list);
      }
    }
    p = { literal, alts };
    prepared.set(queryTerms, p);
  }
  return p;
}

/** Per literal term, how well the target has it: 1 literally, else its best alternative's weight. */
function hits(queryTerms: readonly string[], index: TermIndex): Map<string, number> {
  const { literal, alts } = prepare(queryTerms);
  const out = new Map<string, number>();
  for (const t of literal) {
    let got = hit(t, index) ? 1 : 0;
    // Exactly: a compound (widgettimeline) must not match its first word by prefix.
    if (got === 0)
      for (const a of alts.get(t) ?? []) if (a.weight > got && a.terms.every((x) => index.words.has(x))) got = a.weight;
    out.set(t, got);
  }
  return out;
}

/** The query terms found in the target, literally or through an alternative. */
export function matchedTerms(queryTerms: readonly string[], index: TermIndex): string[] {
  const got = hits(queryTerms, index);
  return literalTerms(queryTerms).filter((t) => (got.get(t) ?? 0) > 0);
}

/**
 * Relevance in [0, 1]: the share of query terms the target contains (a term found only through
 * an alternative counts its weight). CJK bigrams count half, since one shared bigram between two
 * Chinese sentences is weak evidence.
 */
export function matchScore(queryTerms: readonly string[], index: TermIndex): number {
  const got = hits(queryTerms, index);
  if (got.size === 0) return 0;
  let total = 0;
  let sum = 0;
  for (const [t, g] of got) {
    const w = CJK.test(t) ? 0.5 : 1;
    total += w;
    sum += w * g;
  }
  return total === 0 ? 0 : sum / total;
}

export function isCjkTerm(term: string): boolean {
  return CJK.test(term);
}

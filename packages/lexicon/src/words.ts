import { readFileSync } from 'node:fs';
import { MaestroError } from '@maestro/core';

/**
 * Word-level tables for search and the pack selector, keyed by surface words (compiled by
 * `scripts/build-terms.mjs` from WordNet 3.1 and CC-CEDICT into `data/*.tsv`). Each file is
 * read as bytes on the first lookup that needs it and binary-searched in place: nothing is
 * parsed, so a query pays one file read, not a dictionary build.
 */
export interface Related {
  /** WordNet derivations that keep the word's stem (log → logger, logging). */
  derived: readonly string[];
  /** The other words of its most frequent WordNet sense (forbid → prohibit, proscribe). */
  synonyms: readonly string[];
}

const NONE: Related = { derived: [], synonyms: [] };
const EMPTY: readonly string[] = [];

class Table {
  private buf: Buffer | null = null;
  constructor(private readonly file: string) {}

  private bytes(): Buffer {
    if (this.buf === null) {
      const url = new URL(`../data/${this.file}`, import.meta.url);
      try {
        this.buf = readFileSync(url);
      } catch (cause) {
        throw new MaestroError('LEXICON_MISSING', `cannot read the compiled word table ${url.pathname}`, {
          hint: 'run `pnpm build` (it compiles WordNet and CC-CEDICT into packages/lexicon/data/)',
          cause,
        });
      }
    }
    return this.buf;
  }

  /** The value of `key` (the text after the tab), or null. Lines are sorted by their key's bytes. */
  get(key: string): string | null {
    const buf = this.bytes();
    const k = Buffer.from(key);
    let lo = 0;
    let hi = buf.length;
    // Invariant: the line holding the key, if any, starts in [lo, hi).
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = mid === 0 ? 0 : buf.lastIndexOf(10, mid - 1) + 1;
      const c = compareKey(buf, start, k);
      if (c === 0) {
        const tab = start + k.length;
        const end = buf.indexOf(10, tab);
        return buf.toString('utf8', tab + 1, end < 0 ? buf.length : end);
      }
      if (c < 0) {
        const end = buf.indexOf(10, start);
        if (end < 0) return null;
        lo = end + 1;
      } else hi = start;
    }
    return null;
  }
}

/** Compares the key of the line at `start` (bytes up to the tab) with `k`. */
function compareKey(buf: Buffer, start: number, k: Buffer): number {
  for (let i = 0; ; i++) {
    const a = buf[start + i];
    const lineEnded = a === 9 || a === 10 || a === undefined;
    if (i === k.length) return lineEnded ? 0 : 1;
    if (lineEnded) return -1;
    if (a !== k[i]) return a - k[i];
  }
}

const en = new Table('words-en.tsv');
const enZh = new Table('en-zh.tsv');
const zhEn = new Table('zh-en.tsv');
const memo = new Map<string, string | null>();

function cached(table: Table, key: string): string | null {
  let v = memo.get(key);
  if (v === undefined) {
    v = table.get(key);
    if (memo.size > 100_000) memo.clear();
    memo.set(key, v);
  }
  return v;
}

/**
 * The lemma of an English plural where the plain rule (drop `-s`, `-ies` → `-y`) is wrong by
 * WordNet (boxes → box, cookies → cookie, viruses → virus), the word itself where the rule must
 * not apply (news, series, always), or null where the plain rule is right or WordNet does not know
 * the word.
 */
export function pluralLemma(word: string): string | null {
  return cached(en, `f:${word}`);
}

/** True when WordNet 3.1 has the word (lower case, one word) as a lemma: zone, not timezone. */
export function isEnglishWord(word: string): boolean {
  return cached(en, `e:${word}`) !== null;
}

/**
 * The singular of an English word (lower case): WordNet's lemma where the plain rule is wrong
 * (`pluralLemma`), else the plain rule (queries → query, tests → test; -ss, -us, -is and words
 * under 4 letters left alone).
 */
export function singular(word: string): string {
  const n = word.length;
  if (n < 4 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  // Memoised apart from the table lookups: an index build folds every plural of a corpus.
  let out = singularMemo.get(word);
  if (out === undefined) {
    out = singularOf(word, n);
    if (singularMemo.size > 200_000) singularMemo.clear();
    singularMemo.set(word, out);
  }
  return out;
}

const singularMemo = new Map<string, string>();

function singularOf(word: string, n: number): string {
  if (!ASCII_WORD.test(word)) return word;
  const lemma = pluralLemma(word);
  if (lemma !== null) return lemma;
  if (n > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  const prev = word.charCodeAt(n - 2);
  if (prev === 115 /* s */ || prev === 117 /* u */ || prev === 105 /* i */) return word;
  return word.slice(0, -1);
}

/** WordNet derivations and synonyms of an English lemma (lower case); empty when it has none. */
export function relatedWords(word: string): Related {
  const v = cached(en, `e:${word}`);
  if (v === null) return NONE;
  const bar = v.indexOf('|');
  const split = (s: string) => (s ? s.split(' ') : EMPTY);
  return { derived: split(v.slice(0, bar)), synonyms: split(v.slice(bar + 1)) };
}

/** English glosses (one or two words each: "log", "time zone") of a simplified Chinese word. */
export function englishGlosses(word: string): readonly string[] {
  const v = cached(zhEn, `z:${word}`);
  return v === null ? EMPTY : v.split('|');
}

/** Simplified Chinese words whose CC-CEDICT gloss is exactly `phrase` (one or two English words). */
export function chineseWords(phrase: string): readonly string[] {
  const v = cached(enZh, `r:${phrase}`);
  return v === null ? EMPTY : v.split(' ');
}

const ASCII_WORD = /^[a-z]+$/;
const VOWEL = /[aeiou]/;

/** Regular inflections of an English lemma: -ing, -ed (e-drop, consonant doubling, y → ied). */
export function inflections(w: string): string[] {
  if (w.length < 3 || !ASCII_WORD.test(w)) return [];
  const out: string[] = [];
  if (w.endsWith('e')) out.push(`${w.slice(0, -1)}ing`, `${w}d`);
  else if (/[^aeiou]y$/.test(w)) out.push(`${w}ing`, `${w.slice(0, -1)}ied`);
  else {
    out.push(`${w}ing`, `${w}ed`);
    // log → logging, stop → stopped: one vowel before a final consonant.
    if (/[^aeiou][aeiou][bdgklmnprtv]$/.test(w)) out.push(`${w}${w.at(-1)}ing`, `${w}${w.at(-1)}ed`);
  }
  return out;
}

/** Lemmas an -ing/-ed form may come from (logging → log, cached → cache), WordNet words only. */
export function deinflect(w: string): string[] {
  const m = /^(.+?)(ing|ed)$/.exec(w);
  if (!m || !ASCII_WORD.test(w)) return [];
  const stemPart = m[1];
  if (stemPart.length < 2 || !VOWEL.test(stemPart)) return [];
  const out = [stemPart, `${stemPart}e`];
  if (/(.)\1$/.test(stemPart)) out.push(stemPart.slice(0, -1));
  if (m[2] === 'ed' && stemPart.endsWith('i')) out.push(`${stemPart.slice(0, -1)}y`);
  return out.filter((b) => b.length >= 3 && isEnglishWord(b));
}

import { appendAll } from '@maestro/core';
import { segmentChinese as dictionarySegments, lexicon as general } from '@maestro/lexicon';
import { type LexEntry, lexicon } from './lexicon.js';
import { stem } from './stem.js';

/** One meaningful piece of a clause, in reading order. */
export type Unit =
  | { kind: 'lex'; entry: LexEntry; surface: string }
  | { kind: 'word'; term: string; surface: string }
  | { kind: 'han'; terms: string[]; surface: string }
  /** A dictionary word (WordNet, or a Chinese word through its CC-CEDICT glosses): concept terms, strongest first. */
  | { kind: 'gloss'; terms: readonly string[]; surface: string }
  | { kind: 'num'; index: number }
  | { kind: 'path' };

const TOKEN = /§n\d+|§p|[a-z0-9][a-z0-9_+#-]*(?:[.:][a-z0-9_+#-]+)*|\p{Script=Han}+/gu;

/** `[a-z0-9]`: how TOKEN's Latin tokens start (its other tokens start with `§` or a Han character). */
function latinStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** Splits a fragment into units: lexicon phrases (longest match), unknown words, CJK bigrams, numbers, paths. */
export function segment(fragment: string): Unit[] {
  const tokens = fragment.match(TOKEN) ?? [];
  const units: Unit[] = [];
  // The Latin words of the current run, a trailing `-` or `.` cut off.
  let latin: string[] = [];
  for (const token of tokens) {
    if (token.startsWith('§')) {
      if (latin.length) latin = segmentLatin(latin, units);
      units.push(token === '§p' ? { kind: 'path' } : { kind: 'num', index: Number(token.slice(2)) });
    } else if (!latinStart(token.charCodeAt(0))) {
      // TOKEN's third kind: a run of Han characters.
      if (latin.length) latin = segmentLatin(latin, units);
      appendAll(units, segmentHan(token));
    } else {
      const last = token.charCodeAt(token.length - 1);
      latin.push(last === 45 || last === 46 ? token.replace(/[-.]+$/, '') : token);
    }
  }
  if (latin.length) segmentLatin(latin, units);
  return units;
}

/**
 * What segmentation needs of one word, computed once per distinct word (a corpus repeats a small
 * vocabulary): its stem, the longest lexicon phrase it can start (0: none) and, for a word that
 * stands alone, its units. Units are shared between texts: never mutate them.
 */
export interface WordInfo {
  stem: string;
  phrase: number;
  units: readonly Unit[];
}

const wordMemo = new Map<string, WordInfo>();
const MEMO_CAP = 200_000;

export function infoOf(w: string): WordInfo {
  let info = wordMemo.get(w);
  if (info) return info;
  const lex = lexicon();
  const st = stem(w);
  const entry = lex.latin.get(st);
  const units: Unit[] = [];
  if (entry) units.push({ kind: 'lex', entry, surface: w });
  else if (w.length > 1 && !/^\d+$/.test(w)) {
    // A common English word stands for its most frequent WordNet sense, so synonyms meet
    // (utilize → use) and so does a Chinese word glossed with it; any other word is a name (`w:`).
    const term = general().isWord(st) ? general().concept(st) : `w:${st}`;
    units.push({ kind: 'word', term, surface: w });
    const member = memberOf(w);
    if (member) units.push(member);
  }
  info = { stem: st, phrase: lex.latinFirst.get(st) ?? 0, units };
  if (wordMemo.size >= MEMO_CAP) wordMemo.clear();
  wordMemo.set(w, info);
  return info;
}

/** Appends the units of a run of Latin words to `out`; returns a fresh empty run. */
function segmentLatin(words: string[], out: Unit[]): string[] {
  const lex = lexicon();
  const n = words.length;
  const infos: WordInfo[] = new Array(n);
  for (let k = 0; k < n; k++) infos[k] = infoOf(words[k]);
  let i = 0;
  while (i < n) {
    const info = infos[i];
    const max = Math.min(info.phrase, n - i);
    let len = 0;
    if (max >= 2) {
      // The phrase keys starting here (stems joined by spaces), tried longest first.
      const keys: string[] = [];
      let key = info.stem;
      for (let k = 1; k < max; k++) {
        key = `${key} ${infos[i + k].stem}`;
        keys.push(key);
      }
      for (len = max; len >= 2; len--) {
        const entry = lex.latin.get(keys[len - 2]);
        if (!entry) continue;
        out.push({ kind: 'lex', entry, surface: words.slice(i, i + len).join(' ') });
        break;
      }
    }
    if (len >= 2) {
      i += len;
      continue;
    }
    const units = info.units;
    for (let k = 0; k < units.length; k++) out.push(units[k]);
    i++;
  }
  return [];
}

const EXTENSIONS = new Set([
  'js',
  'ts',
  'tsx',
  'jsx',
  'mjs',
  'cjs',
  'py',
  'rs',
  'go',
  'md',
  'json',
  'sh',
  'css',
  'html',
]);

/**
 * The member a dotted identifier ends with (`client.ws.bufferedAmount` → `bufferedamount`), or
 * the head of a hyphenated compound (`keyboard-focusable` → focus), as a second unit: one text
 * writes `el.innerHTML` or "keyboard-focusable", its paraphrase `innerHTML` or "focusable". Only
 * concepts (and, for identifiers, plain words), never cues (a member named `must` is no modal).
 */
function memberOf(w: string): Unit | null {
  const dot = w.lastIndexOf('.');
  const dash = w.lastIndexOf('-');
  const cut = Math.max(dot, dash);
  if (cut <= 0) return null;
  const last = w.slice(cut + 1);
  if (last.length < 3 || EXTENSIONS.has(last) || /^\d/.test(last)) return null;
  const key = stem(last);
  const entry = lexicon().latin.get(key);
  if (entry?.concept && !entry.stance && !entry.flip && !entry.scope && !entry.negTail && !entry.bound) {
    return { kind: 'lex', entry: { concept: entry.concept, generic: entry.generic }, surface: last };
  }
  // A compound's head that no list knows adds nothing a reader would match on.
  return entry || cut === dash ? null : { kind: 'word', term: `w:${key}`, surface: last };
}

/** Length of the longest lexicon word starting at `at`, or 0. */
function longerFrom(run: string, at: number): number {
  const lex = lexicon();
  for (let len = Math.min(lex.hanMax, run.length - at); len >= 3; len--) {
    if (lex.han.has(run.slice(at, at + len))) return len;
  }
  return 0;
}

const hanMemo = new Map<string, readonly Unit[]>();

/** Units of a run of Chinese characters, memoised by run (corpora repeat their phrases). */
function segmentHan(run: string): readonly Unit[] {
  let units = hanMemo.get(run);
  if (!units) {
    units = segmentHanRun(run);
    if (hanMemo.size >= MEMO_CAP) hanMemo.clear();
    hanMemo.set(run, units);
  }
  return units;
}

function segmentHanRun(run: string): Unit[] {
  const lex = lexicon();
  const out: Unit[] = [];
  let unknown = '';
  const flush = () => {
    if (!unknown) return;
    for (const piece of glossPieces(unknown)) out.push(piece);
    unknown = '';
  };
  let i = 0;
  while (i < run.length) {
    let matched = false;
    for (let len = Math.min(lex.hanMax, run.length - i); len >= 1; len--) {
      const word = run.slice(i, i + len);
      const entry = lex.han.get(word);
      if (!entry) continue;
      // 从不可信: a two-character match (从不, "never") that cuts a longer word starting at its
      // second character (不可信, "untrusted") gives way to it.
      if (len === 2 && longerFrom(run, i + 1) > 2) continue;
      flush();
      out.push({ kind: 'lex', entry, surface: word });
      i += len;
      matched = true;
      break;
    }
    if (matched) continue;
    unknown += run[i];
    i++;
  }
  flush();
  return out;
}

/**
 * Characters the project vocabulary does not know: dictionary words become their English gloss
 * concepts (so they meet an English text), and every piece also keeps its character bigrams (so
 * two Chinese texts still meet where the dictionary has no word).
 */
function glossPieces(unknown: string): Unit[] {
  const out: Unit[] = [];
  let rest = '';
  const flushRest = () => {
    if (!rest) return;
    const terms: string[] = [];
    if (rest.length === 1) terms.push(`h:${rest}`);
    for (let k = 0; k + 2 <= rest.length; k++) terms.push(`h:${rest.slice(k, k + 2)}`);
    out.push({ kind: 'han', terms, surface: rest });
    rest = '';
  };
  for (const word of dictionarySegments(unknown)) {
    const glosses = word.length > 1 ? general().glosses(word) : [];
    if (glosses.length === 0) {
      rest += word;
      continue;
    }
    flushRest();
    out.push({ kind: 'gloss', terms: glosses, surface: word });
  }
  flushRest();
  return out;
}

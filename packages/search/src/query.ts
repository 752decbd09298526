import { englishGlosses, segmentChinese } from '@maestro/lexicon';
import { queryShape, queryTerms, STOP_WORDS, sequenceTokens } from './tokenize.js';

export interface QueryPhrase {
  /** The text between the quotes, as typed. */
  text: string;
  /** Positional tokens that must appear contiguously in one field. */
  tokens: string[];
  /** The phrase's own query terms; an entry must contain all of them before its text is checked. */
  terms: string[];
}

export interface ParsedQuery {
  raw: string;
  /** Distinct query terms (phrase terms included), in first-seen order. */
  terms: string[];
  phrases: QueryPhrase[];
  /** Its kept English terms in order, repeats kept (for compounds and adjacency). */
  words: string[];
  /** Its CJK runs (segmented into dictionary words for expansion). */
  han: string[];
}

// Straight, curly and (after NFKC) full-width double quotes.
const PHRASE = /["\u201c\u201d]([^"\u201c\u201d]*)["\u201c\u201d]/g;

/**
 * The character pairs of a query's Chinese runs that carry no word of it: pairs that straddle two
 * CC-CEDICT words (机上 in 手机上会) and the pairs of function words, whose first gloss is an
 * English stop word (怎么 how, 我们 we, 什么 what) — the Chinese counterparts of the English words
 * the tokenizer drops. A run the dictionary finds no word in keeps all its pairs.
 */
export function chineseNoise(runs: readonly string[]): Set<string> {
  const noise = new Set<string>();
  for (const run of runs) {
    const words = segmentChinese(run);
    if (!words.some((w) => w.length >= 2)) continue;
    const keep = new Set<string>();
    for (const w of words) {
      if (w.length < 2) continue;
      const first = englishGlosses(w)[0];
      if (first !== undefined && first.split(' ').every((x) => STOP_WORDS.has(x))) continue;
      for (const p of queryTerms(w)) keep.add(p);
    }
    for (const p of queryTerms(run)) if (!keep.has(p)) noise.add(p);
  }
  return noise;
}

/** Query terms without the Chinese noise pairs (all of them when nothing else would be left). */
function withoutNoise(terms: string[], han: readonly string[]): string[] {
  const noise = chineseNoise(han);
  if (noise.size === 0) return terms;
  const kept = terms.filter((t) => !noise.has(t));
  return kept.length > 0 ? kept : terms;
}

/**
 * Splits a query into free terms and quoted phrases. Words outside quotes are OR-ed and ranked by
 * BM25F; a quoted phrase must occur word for word (punctuation and case aside) in one field of the
 * entry. An unmatched quote is ignored. With `phrases: false` quotes are plain punctuation (for
 * prose such as an agent's prompt, where quoting is not a request for an exact match).
 */
export function parseQuery(raw: string, options: { phrases?: boolean } = {}): ParsedQuery {
  const text = raw.normalize('NFKC');
  const phrases: QueryPhrase[] = [];
  if (options.phrases === false) {
    const prose = text.replace(/["\u201c\u201d]/g, ' ');
    const shape = queryShape(prose);
    return { raw, terms: withoutNoise(queryTerms(prose), shape.han), phrases, ...shape };
  }
  for (const m of text.matchAll(PHRASE)) {
    const tokens = sequenceTokens(m[1]);
    if (tokens.length > 0) phrases.push({ text: m[1], tokens, terms: queryTerms(m[1]) });
  }
  const free = text.replace(PHRASE, ' $1 ').replace(/["\u201c\u201d]/g, ' ');
  const shape = queryShape(free);
  const phraseTerms = new Set(phrases.flatMap((p) => p.terms));
  const terms = withoutNoise(queryTerms(free), shape.han).concat();
  // A quoted phrase keeps every one of its terms (they are checked word for word).
  for (const t of queryTerms(free)) if (phraseTerms.has(t) && !terms.includes(t)) terms.push(t);
  return { raw, terms, phrases, ...shape };
}

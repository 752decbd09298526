import { queryShape, queryTerms, sequenceTokens } from './tokenize.js';

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
    return { raw, terms: queryTerms(prose), phrases, ...queryShape(prose) };
  }
  for (const m of text.matchAll(PHRASE)) {
    const tokens = sequenceTokens(m[1]);
    if (tokens.length > 0) phrases.push({ text: m[1], tokens, terms: queryTerms(m[1]) });
  }
  const free = text.replace(PHRASE, ' $1 ').replace(/["\u201c\u201d]/g, ' ');
  return { raw, terms: queryTerms(free), phrases, ...queryShape(free) };
}

/**
 * Every constant of prompt-time recall in one place (docs/context.md quotes them). Scores are the
 * search projection's BM25F scores (coverage and time decay included), on the corpus as it is.
 */
export const RECALL = {
  /** Hits asked from search, in pure relevance order (diversity comes after, here). */
  candidates: 12,
  /** At most this many entries are recalled for one prompt. */
  maxEntries: 4,
  /**
   * The floor, in units of the idf of a term found in one entry only (BM25 scores grow with the
   * corpus, so the floor does too): a top hit below it means nothing in the project is about the
   * prompt, and nothing is injected. On a 250-entry project the floor is about 3.6: a hit matching
   * one common prompt word scores 0.5–2.5 there, one about the prompt's subject 3.5 and more.
   */
  floorRareTerms: 0.7,
  /**
   * Below this many entries there is no absolute floor (only the relative one): idf cannot tell a
   * distinctive term from a common one in a handful of entries, and a small corpus bounds what
   * can be injected anyway.
   */
  floorMinEntries: 10,
  /**
   * Once the top hit clears the floor, a hit weaker than this fraction of it is never injected
   * beside it (the absolute floor gates the prompt, this one each further entry).
   */
  relativeFloor: 0.5,
  /** One entry's text is cut beyond this many tokens (with the `maestro load` line to read it whole). */
  entryTokens: 400,
  /** An entry that cannot get at least this many tokens of text is not shown cut to nothing. */
  minEntryTokens: 60,
  /** When packs are also activated, the recalled block takes at most this share of the budget. */
  share: 0.6,
} as const;

/** The name of the recalled-knowledge element (an XML-like data wrapper). */
export const RECALLED_ELEMENT = 'recalled-knowledge';

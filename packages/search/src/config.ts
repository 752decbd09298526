/**
 * Every ranking constant in one place, so that docs/search.md can quote them and a change is one
 * reviewed diff. Bumping anything that changes what is *stored* (tokeniser, fields) needs a new
 * `TOKENIZER_REVISION`, which makes every persisted index rebuild itself.
 */

/** Stored in the index manifest; an index built with another revision is rebuilt, never reused. */
export const TOKENIZER_REVISION = 'tok-3';
/** Binary layout version of `index.bin`. */
export const INDEX_FORMAT = 2;

/** The four BM25F fields, in storage order. */
export const FIELDS = ['title', 'tags', 'description', 'body'] as const;
export type FieldName = (typeof FIELDS)[number];

export interface FieldConfig {
  /** Multiplies the field's normalised term frequency. */
  weight: number;
  /** Length normalisation strength: 0 ignores length, 1 fully normalises by length / average length. */
  b: number;
}

/**
 * BM25F field configuration. `tags` holds the keywords plus the category; it is a bag of labels,
 * so its length is not normalised (b = 0). Titles are short and similar in length (b = 0.3).
 */
export const FIELD_CONFIG: Record<FieldName, FieldConfig> = {
  title: { weight: 4, b: 0.3 },
  tags: { weight: 2.5, b: 0 },
  description: { weight: 1.5, b: 0.6 },
  body: { weight: 1, b: 0.75 },
};

export const RANKING = {
  /** BM25 term-frequency saturation. */
  k1: 1.2,
  /**
   * Query coverage: score × (coverageFloor + (1 − coverageFloor) × matched idf ÷ query idf), so an
   * entry matching every query term beats one that repeats a single rare term.
   */
  coverageFloor: 0.6,
  /**
   * Time decay by the entry's `date`: factor = floor + (1 − floor) × 2^(−age / halfLife), age in days
   * from the injected clock, in whole days (future dates count as age 0). Undated entries get the
   * factor of an entry exactly one half-life old.
   */
  decayFloor: 0.6,
  halfLifeDays: { spec: 365, knowhow: 180 },
} as const;

export const SELECTION = {
  /** Candidate pool handed to selection: max(poolFactor × (offset + limit), poolMin), at most poolMax. */
  poolFactor: 3,
  poolMin: 40,
  poolMax: 1000,
  /** Balanced mode, first passes: at most this many results per family (the entry's file). */
  familyCap: 1,
  /** MMR: λ × relevance − (1 − λ) × max similarity to what is already selected. */
  mmrLambda: 0.85,
  /** Body characters that take part in the MMR similarity signature (with title, description, tags). */
  signatureBodyChars: 200,
  /**
   * Phrase queries: once the pool is full, check at most this many more candidates before
   * stopping (the page is unaffected; the total becomes a lower bound).
   */
  phraseCheckBudget: 2000,
  /** The exploration slot needs a page of at least this many results. */
  explorationMinLimit: 4,
  /** ... and a candidate whose score is at least this fraction of the top score. */
  explorationFloor: 0.35,
} as const;

export const LIMITS = { defaultLimit: 10, maxLimit: 500 } as const;

/** Snippet window, in characters of the whitespace-collapsed text. */
export const SNIPPET_CHARS = 180;

/**
 * A file whose mtime is this close to (or after) the moment its index entry was built is "racily
 * clean" (git's term): its stat cannot prove it unchanged, so it is re-checked by hash next time.
 */
export const RACY_WINDOW_MS = 2000;

/**
 * Every ranking constant in one place, so that docs/search.md can quote them and a change is one
 * reviewed diff. Bumping anything that changes what is *stored* (tokeniser, fields) needs a new
 * `TOKENIZER_REVISION`, which makes every persisted index rebuild itself.
 */

/** Stored in the index manifest; an index built with another revision is rebuilt, never reused. */
export const TOKENIZER_REVISION = 'tok-4';
/** Binary layout version of `index.bin` (4: one varint per posting for its delta, fields and "all once"). */
export const INDEX_FORMAT = 4;

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

/**
 * Query expansion (`expand.ts`): words of the same meaning found through WordNet 3.1 and
 * CC-CEDICT (`@maestro/lexicon`), scored as alternatives of the query term they stand for. An
 * entry that contains the query term itself is scored on it alone, exactly as without expansion;
 * an entry that does not gets its best alternative × `weight`, and `cover` × the term's idf
 * towards query coverage. So literal matches keep their order and expansions only add entries
 * below them that a literal query would have missed.
 */
export const EXPANSION = {
  /** Regular inflections of the term present in the index (log → logged, logging). */
  inflection: { weight: 0.8, cover: 1 },
  /** Two adjacent query words written as one in the index (time zone → timezone); per word. */
  compound: { weight: 0.5, cover: 1 },
  /** One query word that the index has as two words (timezone → time + zone, both required). */
  split: { weight: 0.8, cover: 1 },
  /** WordNet derivations that keep the stem (log → logger; validate → validation). */
  derived: { weight: 0.6, cover: 0.8 },
  /** The other words of the term's most frequent WordNet sense (forbid → prohibit). */
  synonym: { weight: 0.4, cover: 0.6 },
  /** CC-CEDICT, Chinese ↔ English (日志 ↔ log, 时区 ↔ time zone); shared across a word's pairs. */
  gloss: { weight: 0.5, cover: 0.8 },
  /** At most this many alternatives per query term (best kinds first). */
  maxPerTerm: 12,
  /**
   * Adjacency: an entry in which two consecutive query words (or their compound) stand next to
   * each other scores × (1 + adjacency). Checked on the candidate pool only (the page comes from it).
   */
  adjacency: 0.25,
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

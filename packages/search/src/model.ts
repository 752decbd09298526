import type { EntryStatus, KnowledgeStore } from '@maestro/spec';
import type { TextBlocks } from './codec.js';

/** What the index keeps of a `KnowledgeEntry` besides its body text (which is stored separately). */
export interface IndexDoc {
  /** The canonical `KnowledgeEntry.id` (sid or knowhow id): the id `maestro load --id` accepts. */
  id: string;
  store: KnowledgeStore;
  title: string;
  category: string | null;
  keywords: string[];
  description: string | null;
  date: string | null;
  status: EntryStatus;
  /** Relative to `.workflow/`; also the family key for the family cap. */
  file: string;
  line: number | null;
  type: string | null;
  confidence: string | null;
}

/**
 * The search projection in memory, the same whether just built or read from `index.bin`: an
 * inverted index in compressed-sparse-row form. Term `t` (position in the code-unit-sorted
 * `terms`) has postings `termStart[t] .. termStart[t+1]`; posting `p` is document `postDoc[p]`
 * with field term frequencies `postTf[4p .. 4p+3]` (title, tags, description, body; capped at 255).
 * What every query needs of every matching document (store, status, date) is in typed arrays;
 * the rest of a document (`doc`, `body`) is decoded only for the few that are shown or compared.
 * An index opened from `index.bin` decodes a term's postings only when `prepare` is asked for it.
 */
export interface SearchIndex {
  /** Number of documents. */
  size: number;
  /** Document `d`'s labels, decoded on first use. */
  doc(d: number): IndexDoc;
  /** The indexed part of the entry's body (`indexedText(KnowledgeEntry.content)`), decoded on demand. */
  body(d: number): string;
  /** Per document: `FLAG_KNOWHOW` (else spec) | `FLAG_DEPRECATED`. */
  flags: Uint8Array;
  /**
   * Makes the postings of these terms (positions in `terms`; negative ones are ignored) readable
   * in `postDoc` / `postTf`. Absent when every posting is already in memory (a just-built index).
   */
  prepare?(ranks: readonly number[]): void;
  /** Position of `term` in `terms`, or -1, without materialising `terms` (an index opened from disk). */
  termRank?(term: string): number;
  /**
   * The stored, still-compressed text blocks holding exactly these documents (an index opened
   * from disk), or null when a block also holds other documents: what an update copies over.
   */
  textBlocksOf?(first: number, count: number): TextBlocks | null;
  /** Per document: days since the epoch of its `date`, NaN when undated. */
  dateDays: Float64Array;
  terms: string[];
  termStart: Uint32Array;
  postDoc: Uint32Array;
  postTf: Uint8Array;
  /** Field lengths, 4 per document. */
  lengths: Uint32Array;
  /** Mean length of each field over the documents that have it (BM25F length normalisation). */
  avgLengths: number[];
}

export const FLAG_KNOWHOW = 1;
export const FLAG_DEPRECATED = 2;

export type SearchMode = 'balanced' | 'relevance';
/** Why a result is on the page: best remaining match, picked for variety, or the exploration slot. */
export type SelectionReason = 'relevance' | 'diversity' | 'exploration';

/** Facets, filters, paging and mode. Facets and status are applied before candidate truncation. */
export interface RankOptions {
  /** Only `spec` or only `knowhow` entries. */
  type?: KnowledgeStore;
  /** Category, compared after normalisation (NFKC, lower case). */
  category?: string;
  /** Keywords the entry must all carry (`--tag`, repeatable), compared after normalisation. */
  tags?: string[];
  /** Only entries with this status; `deprecated` implies `includeDeprecated`. */
  status?: EntryStatus;
  /** Deprecated entries are excluded unless this is true (invariant 6). */
  includeDeprecated?: boolean;
  /** Page size, 1..500 (default 10). */
  limit?: number;
  /** Results to skip, ≥ 0 (default 0). */
  offset?: number;
  /** `balanced` (default) diversifies the page; `relevance` is pure score order. */
  mode?: SearchMode;
}

export interface RankContext {
  /** The clock for time decay (inject a fixed one for byte-stable output). */
  now: Date;
  /**
   * How often each entry id was shown, or null when the counters are missing or unreadable (the
   * exploration slot is then off). Exposure never changes a score.
   */
  exposure: ReadonlyMap<string, number> | null;
}

/** One result: the entry's identity and labels, its score, why it was selected, and a snippet. */
export interface RankedHit {
  rank: number;
  id: string;
  store: KnowledgeStore;
  title: string;
  category: string | null;
  keywords: string[];
  status: EntryStatus;
  /** `high` | `medium` | `low` | `contested`, or null (contested entries carry a conflict marker). */
  confidence: string | null;
  date: string | null;
  file: string;
  line: number | null;
  /** BM25F × coverage × time decay, rounded to 4 decimals. */
  score: number;
  /** score ÷ the best score of the query (0..1]. */
  relevance: number;
  selection_reason: SelectionReason;
  /** About 180 characters of the body (or description) around the matched terms. */
  snippet: string;
  /** [start, end) character ranges of matched terms inside `snippet`. */
  highlights: [number, number][];
  /** The query terms this entry matched. */
  matched_terms: string[];
}

export interface Ranking {
  /** Entries that matched the query and passed every facet and filter (before paging). */
  total: number;
  /** False when a phrase query stopped checking early: `total` is then a lower bound (the page is exact). */
  total_exact: boolean;
  hits: RankedHit[];
  /** The index document number of each hit, same order (for `SearchIndex.body(d)`). */
  docs: number[];
  /** True when exposure counters were available, so an exploration slot could be used. */
  exploration_available: boolean;
}

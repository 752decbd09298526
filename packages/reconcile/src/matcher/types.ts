import type { KnowledgeEntry } from '@maestro/spec';
import type { MatchMemo } from './trace.js';
import type { VerdictPolicy } from './verdict.js';

export type Disposition =
  | 'unique'
  | 'exact_duplicate'
  | 'semantic_duplicate'
  | 'extends'
  | 'related'
  | 'potential_conflict'
  | 'supersede_candidate';

/** The relation of a candidate to one corpus entry: any disposition but `unique`. */
export type Relation = Exclude<Disposition, 'unique'>;

export type Eligibility = 'eligible' | 'review_required' | 'suppressed';

export type CandidateAction = 'propose' | 'reaffirm' | 'supersede' | 'contest';

/**
 * What the matcher needs of a candidate. A ledger candidate (`LedgerCandidate`) satisfies it;
 * optional fields default to a plain `propose` with no evidence.
 */
export interface CandidateInput {
  candidate_id: string;
  target: 'spec' | 'knowhow';
  action?: CandidateAction;
  title: string;
  content: string;
  category?: string | null;
  evidence_refs?: readonly string[];
}

/** The corpus fields the matcher reads; a full `KnowledgeEntry` satisfies it. */
export type MatchableEntry = Pick<KnowledgeEntry, 'id' | 'store' | 'title' | 'content'> &
  Partial<Pick<KnowledgeEntry, 'status' | 'file' | 'line' | 'contentHash' | 'supersedes' | 'supersededBy' | 'ref'>>;

export interface MatchScores {
  lexical: number;
  semantic: number;
  title: number;
  relation: number;
  stance: number;
  composite: number;
}

export interface Match {
  knowledge_id: string;
  target: 'spec' | 'knowhow';
  title: string;
  relation: Relation;
  scores: MatchScores;
  novelty: number;
  evidence: string[];
  target_content_hash: string;
  source_path: string;
  source_line: number | null;
}

export interface Resolution {
  status: 'automatic' | 'confirmed';
  reason: string;
  resolved_at: string;
}

export interface Verdict {
  candidate_id: string;
  disposition: Disposition;
  promotion_eligibility: Eligibility;
  canonical_id: string | null;
  matches: Match[];
  /**
   * For a `reaffirm` candidate whose text duplicates an entry: that entry. Promotion records a
   * reaffirmation of it (outcome `reaffirmed`, no new entry) instead of dropping the candidate.
   */
  reaffirms: string | null;
  resolution: Resolution | null;
}

export interface ReconcileOptions {
  /**
   * Knowledge ids the run used (its ledger inputs). They widen retrieval (the entries and their
   * supersession neighbours are always scored) and set `relation = 1`, but never create a match.
   */
  seeds?: readonly string[];
  /** Stamped on automatic resolutions; defaults to the epoch so the function stays pure. */
  now?: string;
  /** The verdict policy's fitted numbers; defaults to `DEFAULT_POLICY`. */
  policy?: VerdictPolicy;
  /** Matches kept from an earlier run, each trusted only when its trace replays (see `MatchMemo`). */
  memo?: MatchMemo;
}

import type { WorkflowLayout } from '@maestro/fs';

/**
 * What promotion reads of a reconciliation receipt (`knowledge-reconciliation/1.0`, owned by
 * @maestro/reconcile): the verdict per candidate. Promotion never writes receipts.
 */
export interface ReceiptVerdict {
  candidate_id: string;
  disposition: string;
  promotion_eligibility: 'eligible' | 'review_required' | 'suppressed';
  canonical_id: string | null;
  /** For a `reaffirm` candidate whose text restates an entry: that entry. */
  reaffirms?: string | null;
  resolution: { status: 'automatic' | 'confirmed'; reason: string; resolved_at: string } | null;
}

/** A run's receipt judged against its three fences (candidate snapshot, corpus fingerprint, matcher revision). */
export type ReceiptCheck =
  | { state: 'missing' }
  | { state: 'stale'; reasons: string[] }
  | { state: 'fresh'; verdicts: ReceiptVerdict[] };

/**
 * Reads and fence-checks the receipts of some runs of a session (one corpus fingerprint for all).
 * Promotion calls it under the corpus lock; the default is @maestro/reconcile's
 * (`reconcileReceipts`). A damaged receipt throws the reader's named error.
 */
export interface ReceiptSource {
  check(
    layout: WorkflowLayout,
    sessionId: string,
    runIds: readonly string[],
    context?: { now?: string },
  ): Promise<Map<string, ReceiptCheck>>;
}

/** What the command asks for: explicit candidate ids, or every pending eligible one. */
export interface PromoteRequest {
  sessionId: string;
  /** Candidate ids; each value may hold several, comma-separated. */
  candidates?: readonly string[];
  all?: boolean;
}

/** How one candidate may be promoted, from the verdicts of all its source runs. */
export type CandidatePolicy =
  | { kind: 'create'; supersedes: string | null; disposition: string; canonicalId: string | null }
  | { kind: 'reaffirm'; entryId: string; disposition: string }
  | {
      kind: 'blocked';
      reason: 'review_required' | 'suppressed' | 'conflict';
      disposition: string;
      canonicalId: string | null;
      detail: string;
    };

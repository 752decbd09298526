import type { Match, Verdict } from '../matcher/types.js';
import type { Choice, DroppedResolution, Receipt, ReceiptCandidate } from '../schemas.js';
import { candidateContentHash, type SnapshotCandidate } from './snapshot.js';

/** What a human choice means for the verdict (maestro-flow §3.6). */
export const CHOICE_EFFECT: Record<Choice, Pick<ReceiptCandidate, 'disposition' | 'promotion_eligibility'>> = {
  duplicate: { disposition: 'semantic_duplicate', promotion_eligibility: 'suppressed' },
  related: { disposition: 'related', promotion_eligibility: 'eligible' },
  conflict: { disposition: 'potential_conflict', promotion_eligibility: 'suppressed' },
  supersede: { disposition: 'supersede_candidate', promotion_eligibility: 'eligible' },
  unique: { disposition: 'unique', promotion_eligibility: 'eligible' },
};

/** The choice a resolution without one (maestro-flow's) stands for. */
export function choiceOf(entry: Pick<ReceiptCandidate, 'disposition' | 'resolution'>): Choice | null {
  if (entry.resolution?.choice) return entry.resolution.choice;
  switch (entry.disposition) {
    case 'semantic_duplicate':
    case 'exact_duplicate':
      return 'duplicate';
    case 'potential_conflict':
      return 'conflict';
    case 'supersede_candidate':
      return 'supersede';
    case 'unique':
      return 'unique';
    default:
      return 'related';
  }
}

/** The corpus facts carry-over needs about a resolved target. */
export interface TargetState {
  status: string;
  contentHash: string;
}

export interface BuildReceiptInput {
  sessionId: string;
  runId: string;
  candidates: readonly SnapshotCandidate[];
  verdicts: readonly Verdict[];
  candidateSnapshotHash: string;
  corpusFingerprint: string;
  matcherRevision: string;
  generatedAt: string;
  /** The receipt being replaced (any revision), whose confirmed resolutions may carry over. */
  prior: Receipt | null;
  /** Entry facts by id (a `Map` does). */
  targets: { get(id: string): TargetState | undefined };
  retrievalLimit: number;
  /** Every corpus entry's hash (`corpusEntryHashes`), recorded so the receipt can be revalidated later. */
  entryHashes?: Readonly<Record<string, string>>;
}

export function countsOf(candidates: readonly ReceiptCandidate[]): Receipt['counts'] {
  const n = (f: (c: ReceiptCandidate) => boolean) => candidates.filter(f).length;
  return {
    candidates: candidates.length,
    unique: n((c) => c.disposition === 'unique'),
    duplicates: n((c) => c.disposition === 'exact_duplicate' || c.disposition === 'semantic_duplicate'),
    related: n((c) => c.disposition === 'related' || c.disposition === 'extends'),
    conflicts: n((c) => c.disposition === 'potential_conflict'),
    review_required: n((c) => c.promotion_eligibility === 'review_required'),
    suppressed: n((c) => c.promotion_eligibility === 'suppressed'),
  };
}

/**
 * Builds a receipt from fresh verdicts (pure). A confirmed human resolution in `prior` is carried
 * over while the candidate's content, the resolved target's content and status are unchanged
 * and no new review-level match has appeared; otherwise it is listed in `dropped_resolutions`.
 */
export function buildReceipt(input: BuildReceiptInput): Receipt {
  const byId = new Map(input.candidates.map((c) => [c.candidate_id, c]));
  const priorById = new Map((input.prior?.candidates ?? []).map((c) => [c.candidate_id, c]));
  const dropped: DroppedResolution[] = [];
  const rows: ReceiptCandidate[] = input.verdicts.map((v) => {
    const candidate = byId.get(v.candidate_id);
    const fresh: ReceiptCandidate = {
      ...v,
      content_hash: candidate ? candidateContentHash(candidate) : undefined,
    };
    if (fresh.content_hash === undefined) delete fresh.content_hash;
    const prior = priorById.get(v.candidate_id);
    if (!candidate || !prior || prior.resolution?.status !== 'confirmed') return fresh;
    const kept = carryOver(prior, fresh, candidate, input.targets, input.generatedAt);
    if ('dropped' in kept) {
      dropped.push(kept.dropped);
      return fresh;
    }
    return kept.entry;
  });
  // Earlier drops stay visible until the candidate is resolved again or leaves the run.
  for (const d of input.prior?.dropped_resolutions ?? []) {
    const row = rows.find((r) => r.candidate_id === d.candidate_id);
    if (row && row.resolution?.status !== 'confirmed' && !dropped.some((x) => x.candidate_id === d.candidate_id)) {
      dropped.push(d);
    }
  }
  const all = rows.flatMap((c) => c.matches);
  const receipt: Receipt = {
    schema_version: 'knowledge-reconciliation/1.0',
    session_id: input.sessionId,
    run_id: input.runId,
    candidate_snapshot_hash: input.candidateSnapshotHash,
    corpus_fingerprint: input.corpusFingerprint,
    matcher_revision: input.matcherRevision,
    generated_at: input.generatedAt,
    retrieval: {
      mode: 'lexical-kg',
      embedding_used: false,
      candidate_limit: input.retrievalLimit,
      identity_documents: all.filter((m) => m.relation === 'exact_duplicate').length,
      semantic_documents: all.filter((m) => m.relation !== 'exact_duplicate' && m.scores.relation === 0).length,
      relation_documents: all.filter((m) => m.scores.relation > 0).length,
    },
    counts: countsOf(rows),
    candidates: rows,
  };
  if (dropped.length) receipt.dropped_resolutions = dropped;
  if (input.entryHashes) receipt.corpus_entries = input.entryHashes as Record<string, string>; // shared, never mutated
  return receipt;
}

type CarryResult = { entry: ReceiptCandidate } | { dropped: DroppedResolution };

function carryOver(
  prior: ReceiptCandidate,
  fresh: ReceiptCandidate,
  candidate: SnapshotCandidate,
  targets: { get(id: string): TargetState | undefined },
  now: string,
): CarryResult {
  const res = prior.resolution!;
  const choice = choiceOf(prior) ?? 'related';
  const targetId = choice === 'unique' ? null : (res.target_id ?? prior.canonical_id);
  const drop = (because: DroppedResolution['dropped_because']): CarryResult => ({
    dropped: {
      candidate_id: prior.candidate_id,
      choice,
      target_id: targetId,
      reason: res.reason,
      resolved_at: res.resolved_at,
      dropped_because: because,
      dropped_at: now,
    },
  });
  const contentHash = candidateContentHash(candidate);
  if (res.candidate_content_hash && res.candidate_content_hash !== contentHash) return drop('candidate-changed');
  let targetHash: string | null = null;
  if (targetId) {
    const target = targets.get(targetId);
    if (target?.status !== 'active') return drop('target-missing');
    const recorded =
      res.target_content_hash ?? prior.matches.find((m) => m.knowledge_id === targetId)?.target_content_hash;
    if (!recorded || recorded !== target.contentHash) return drop('target-changed');
    targetHash = target.contentHash;
  }
  if (unseenEvidence(prior.matches, fresh.matches, targetId)) return drop('new-evidence');
  return {
    entry: {
      ...fresh,
      ...CHOICE_EFFECT[choice],
      canonical_id: targetId,
      reaffirms: candidate.action === 'reaffirm' && choice === 'duplicate' ? targetId : null,
      resolution: {
        ...res,
        choice,
        target_id: targetId,
        candidate_content_hash: contentHash,
        target_content_hash: targetHash,
        carried_over_at: now,
      },
    },
  };
}

/** A review-level match the person who resolved the candidate never saw (new entry or new content). */
function unseenEvidence(before: readonly Match[], after: readonly Match[], targetId: string | null): boolean {
  const seen = new Map(before.map((m) => [m.knowledge_id, m.target_content_hash]));
  return after.some(
    (m) =>
      m.relation !== 'related' && m.knowledge_id !== targetId && seen.get(m.knowledge_id) !== m.target_content_hash,
  );
}

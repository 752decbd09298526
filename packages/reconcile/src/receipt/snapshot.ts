import { contentHash, hashJson } from '@maestro/core';
import { matchNormalize } from '../matcher/text.js';
import type { CandidateInput } from '../matcher/types.js';

/** What a receipt's candidate snapshot covers: the candidate fields that can change a verdict. */
export interface SnapshotCandidate extends CandidateInput {
  source_kind?: string;
  status?: string;
}

/**
 * The candidate half of the freshness fence: sha256 over the run's non-promoted candidates
 * (ledger plus report drafts), sorted by id, each reduced to identity, action and normalised
 * title and content. Evidence, status and counts are left out, so staging a draft or rejecting a
 * candidate does not make the receipt stale; new content, a new candidate or a new action does.
 */
export function candidateSnapshotHash(
  input: readonly SnapshotCandidate[] | { candidates: readonly SnapshotCandidate[] },
  drafts: readonly SnapshotCandidate[] = [],
): string {
  const ledger = 'candidates' in input ? input.candidates : input;
  const ids = new Set(ledger.map((c) => c.candidate_id));
  const rows = [...ledger, ...drafts.filter((d) => !ids.has(d.candidate_id))]
    .filter((c) => c.status !== 'promoted')
    .map((c) => ({
      candidate_id: c.candidate_id,
      target: c.target,
      action: c.action ?? 'propose',
      title: matchNormalize(c.title ?? ''),
      content: matchNormalize(c.content),
      category: c.category ?? null,
      source_kind: c.source_kind ?? null,
    }))
    .sort((a, b) => (a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0));
  return hashJson(rows);
}

/** The content hash recorded with a verdict (the one content hash, @maestro/core). */
export function candidateContentHash(c: Pick<CandidateInput, 'content'>): string {
  return contentHash(c.content);
}

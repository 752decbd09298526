import type { CandidatePolicy, ReceiptVerdict } from './model.js';

type Blocked = Extract<CandidatePolicy, { kind: 'blocked' }>;

const confirmed = (v: ReceiptVerdict) => v.resolution?.status === 'confirmed';

function describe(v: ReceiptVerdict): string {
  const target = v.canonical_id ? ` of ${v.canonical_id}` : '';
  switch (v.disposition) {
    case 'exact_duplicate':
      return `it is an exact duplicate${target}`;
    case 'semantic_duplicate':
      return `it duplicates${target ? target.slice(3) : ' an existing entry'}`;
    case 'potential_conflict':
      return `it may conflict with${target ? target.slice(3) : ' an existing entry'}`;
    case 'supersede_candidate':
      return `it may supersede${target ? target.slice(3) : ' an existing entry'}`;
    default:
      return `its disposition is ${v.disposition}${target}`;
  }
}

/** One run's verdict on its own. */
function verdictPolicy(v: ReceiptVerdict): CandidatePolicy {
  const base = { disposition: v.disposition, canonicalId: v.canonical_id };
  if (v.disposition === 'potential_conflict' && confirmed(v)) {
    return { kind: 'blocked', reason: 'conflict', ...base, detail: `confirmed conflict: ${v.resolution?.reason}` };
  }
  // A reaffirmation restates an entry: recorded against it (no new entry), even when the text
  // duplicates it, which would otherwise be suppressed or wait for review.
  if (v.reaffirms) {
    return { kind: 'reaffirm', entryId: v.reaffirms, disposition: v.disposition };
  }
  if (v.promotion_eligibility === 'suppressed') {
    const why = confirmed(v) ? `resolved as duplicate: ${v.resolution?.reason}` : describe(v);
    return { kind: 'blocked', reason: 'suppressed', ...base, detail: why };
  }
  if (v.promotion_eligibility === 'review_required' && !confirmed(v)) {
    return { kind: 'blocked', reason: 'review_required', ...base, detail: `${describe(v)}; a person must resolve it` };
  }
  const supersedes = v.disposition === 'supersede_candidate' && confirmed(v) ? v.canonical_id : null;
  return { kind: 'create', supersedes, ...base };
}

const RANK: Record<Blocked['reason'], number> = { conflict: 0, suppressed: 1, review_required: 2 };

/**
 * Combines the verdicts of every source run of one candidate (pure). A confirmed conflict
 * anywhere wins, then suppression, then an open review; runs that disagree on what promotion
 * means (reaffirm vs create, different supersession targets) need review too.
 */
export function candidatePolicy(verdicts: readonly ReceiptVerdict[]): CandidatePolicy {
  if (verdicts.length === 0) {
    const detail = 'no receipt covers it';
    return { kind: 'blocked', reason: 'review_required', disposition: 'unknown', canonicalId: null, detail };
  }
  const each = verdicts.map(verdictPolicy);
  const blocked = each
    .filter((p): p is Blocked => p.kind === 'blocked')
    .sort((a, b) => RANK[a.reason] - RANK[b.reason]);
  if (blocked.length) return blocked[0];
  const first = each[0];
  const same = each.every((p) =>
    p.kind === 'create' && first.kind === 'create'
      ? p.supersedes === first.supersedes
      : p.kind === 'reaffirm' && first.kind === 'reaffirm' && p.entryId === first.entryId,
  );
  if (same) return first;
  return {
    kind: 'blocked',
    reason: 'review_required',
    disposition: first.disposition,
    canonicalId: null,
    detail: 'the receipts of its runs disagree on what promoting it means (new entry, reaffirmation or supersession)',
  };
}

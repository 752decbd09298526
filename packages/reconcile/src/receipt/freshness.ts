import type { WorkflowLayout } from '@maestro/fs';
import { MATCHER_REVISION } from '../matcher/reconcile.js';
import type { Freshness, Receipt } from '../schemas.js';
import {
  type CurrentCorpus,
  currentCorpus,
  onlyCorpusMoved,
  revalidateRun,
  revalidationReason,
} from '../session/revalidate-run.js';
import { runState } from '../session/run-state.js';
import { computeCorpusFingerprint, corpusFingerprintSync } from './fingerprint.js';
import { readReceipt, writeReceipt } from './io.js';

export interface Fences {
  candidate_snapshot_hash: string;
  corpus_fingerprint: string;
  matcher_revision: string;
}

export interface FreshnessReport {
  session_id: string;
  run_id: string;
  state: Freshness;
  /** Why a receipt is stale, one line per fence that moved (empty when fresh or missing). */
  reasons: string[];
  expected: Fences;
  receipt: Receipt | null;
}

/**
 * Compares a receipt with the current fences (pure). Any mismatch is `stale`, never an error:
 * the identity, the candidate snapshot, the corpus fingerprint and the matcher revision.
 */
export function compareFences(
  receipt: Receipt | null,
  expected: Fences,
  sessionId: string,
  runId: string,
): { state: Freshness; reasons: string[] } {
  if (!receipt) return { state: 'missing', reasons: [] };
  const reasons: string[] = [];
  if (receipt.session_id !== sessionId || receipt.run_id !== runId) {
    reasons.push(`receipt names ${receipt.session_id}/${receipt.run_id}, not ${sessionId}/${runId}`);
  }
  if (receipt.candidate_snapshot_hash !== expected.candidate_snapshot_hash) {
    reasons.push('the run’s candidates changed since it was reconciled');
  }
  if (receipt.corpus_fingerprint !== expected.corpus_fingerprint) {
    reasons.push('project knowledge (specs/knowhow) changed since it was reconciled');
  }
  if (receipt.matcher_revision !== expected.matcher_revision) {
    reasons.push(`matcher revision ${receipt.matcher_revision} is not the current ${expected.matcher_revision}`);
  }
  return { state: reasons.length ? 'stale' : 'fresh', reasons };
}

/**
 * Whether a run's receipt still holds: `missing`, `stale` (with the reasons) or `fresh`. A
 * damaged receipt throws `ReceiptCorruptError`; a damaged ledger throws the ledger's error.
 * Pass `fingerprint` when checking many runs, so the corpus is fingerprinted once.
 */
export async function checkFreshness(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  options: { fingerprint?: string } = {},
): Promise<FreshnessReport> {
  const state = runState(layout, sessionId, runId);
  const fingerprint = options.fingerprint ?? (await computeCorpusFingerprint(layout)).fingerprint;
  const expected: Fences = {
    candidate_snapshot_hash: state.candidate_snapshot_hash,
    corpus_fingerprint: fingerprint,
    matcher_revision: MATCHER_REVISION,
  };
  const receipt = readReceipt(layout, sessionId, runId);
  return {
    session_id: sessionId,
    run_id: runId,
    ...compareFences(receipt, expected, sessionId, runId),
    expected,
    receipt,
  };
}

/** The verdicts promotion reads from a fresh receipt. */
export type ReceiptCheck =
  | { state: 'missing' }
  | { state: 'stale'; reasons: string[] }
  | { state: 'fresh'; verdicts: Receipt['candidates'] };

/** How `checkReceipts` treats a receipt made against an older corpus. */
export interface CheckReceiptsOptions {
  /**
   * `memory` (the default): one that still holds counts as fresh; `write`: it is also written back
   * refreshed (call this under the corpus lock); `off`: any moved fence is stale.
   */
  revalidate?: 'off' | 'memory' | 'write';
  /** The time recorded in `revalidated_from` (ISO). */
  now?: string;
}

/**
 * Fence-checks the receipts of some runs of a session with one corpus fingerprint (the shape
 * @maestro/promote's `ReceiptSource.check` takes). A receipt whose only moved fence is the corpus
 * is revalidated (see `revalidateReceipt`): if no verdict can change it is fresh, otherwise stale
 * with the entry that made it so. Call it under the corpus lock so nothing can change between
 * this check and the write. A damaged receipt throws `ReceiptCorruptError`.
 */
export async function checkReceipts(
  layout: WorkflowLayout,
  sessionId: string,
  runIds: readonly string[],
  options: CheckReceiptsOptions = {},
): Promise<Map<string, ReceiptCheck>> {
  const { fingerprint } = await computeCorpusFingerprint(layout);
  const mode = options.revalidate ?? 'memory';
  const now = options.now ?? new Date().toISOString();
  const out = new Map<string, ReceiptCheck>();
  let current: CurrentCorpus | null = null;
  for (const runId of runIds) {
    const r = await checkFreshness(layout, sessionId, runId, { fingerprint });
    if (r.state === 'fresh' && r.receipt) {
      out.set(runId, { state: 'fresh', verdicts: r.receipt.candidates });
      continue;
    }
    if (r.state === 'missing' || !r.receipt) {
      out.set(runId, { state: 'missing' });
      continue;
    }
    if (mode === 'off' || !onlyCorpusMoved(r.receipt, r.expected, sessionId, runId)) {
      out.set(runId, { state: 'stale', reasons: r.reasons });
      continue;
    }
    current ??= await currentCorpus(layout, fingerprint);
    const v = revalidateRun(current, runState(layout, sessionId, runId), r.receipt, now);
    if (v.state === 'stale') {
      out.set(runId, { state: 'stale', reasons: [...r.reasons, revalidationReason(v)] });
      continue;
    }
    if (mode === 'write') await writeReceipt(layout, v.receipt);
    out.set(runId, { state: 'fresh', verdicts: v.receipt.candidates });
  }
  return out;
}

/**
 * Synchronous yes/no fence check (for @maestro/audit's guard): true only when the run's receipt
 * exists and all three fences hold. A damaged receipt throws `ReceiptCorruptError`.
 */
export function receiptIsFresh(layout: WorkflowLayout, sessionId: string, runId: string): boolean {
  const state = runState(layout, sessionId, runId);
  const receipt = readReceipt(layout, sessionId, runId);
  const expected: Fences = {
    candidate_snapshot_hash: state.candidate_snapshot_hash,
    corpus_fingerprint: corpusFingerprintSync(layout).fingerprint,
    matcher_revision: MATCHER_REVISION,
  };
  return compareFences(receipt, expected, sessionId, runId).state === 'fresh';
}

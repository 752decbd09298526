import type { Issue, Runtime } from '@maestro/core';
import { appendAll } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { listRuns, type SessionSummary, summarizeSession } from '@maestro/ledger';
import { MATCHER_REVISION, reconcile } from '../matcher/reconcile.js';
import { RETRIEVAL_LIMIT } from '../matcher/retrieve.js';
import { buildReceipt } from '../receipt/build.js';
import { computeCorpusFingerprint } from '../receipt/fingerprint.js';
import { compareFences, type Fences } from '../receipt/freshness.js';
import { keepCorruptCopy, ReceiptCorruptError, writeReceipt } from '../receipt/io.js';
import type { Freshness, Receipt } from '../schemas.js';
import { type MatchingCorpus, matchingCorpus } from './corpus-cache.js';
import { runMatchMemo } from './match-memo.js';
import {
  type ReadReceipt,
  readReceiptMemo,
  recallRevalidation,
  rememberReceipt,
  rememberRevalidation,
} from './receipt-memo.js';
import {
  type CurrentCorpus,
  currentCorpus,
  onlyCorpusMoved,
  revalidateRun,
  revalidationReason,
} from './revalidate-run.js';
import { type RunState, runState } from './run-state.js';

export interface ReconcileRunResult {
  run_id: string;
  /** State before this command; `corrupt` only with `refresh` (otherwise a damaged receipt throws). */
  before: Freshness | 'corrupt';
  after: Freshness;
  reasons: string[];
  regenerated: boolean;
  /** Set when a receipt made against an older corpus still holds: the old fingerprint and the delta's size. */
  revalidated: { from: string; added: number; changed: number; removed: number } | null;
  candidates: number;
  carried_over: number;
  dropped: number;
  /** Where a damaged receipt was kept before it was rewritten. */
  corrupt_copy: string | null;
}

export interface ReconcileSessionResult {
  session_id: string;
  corpus_fingerprint: string;
  matcher_revision: string;
  runs: ReconcileRunResult[];
  problems: Issue[];
}

/** The session-wide state reconcile, review and resolve share (internal). */
export interface SessionReceipts extends ReconcileSessionResult {
  summary: SessionSummary;
  fences: Map<string, Fences>;
  receipts: Map<string, Receipt | null>;
  states: Map<string, RunState>;
  /** Loaded only when something had to be regenerated or revalidated. */
  corpus: MatchingCorpus | null;
  current?: CurrentCorpus;
}

/**
 * A receipt made against an older corpus that still holds (see `revalidateReceipt`) counts as
 * fresh: in memory only, unless `refresh` (then it is written back, in place of a regeneration).
 * One that does not hold stays stale, with the entry that made it so among its reasons.
 */
async function revalidateInto(
  out: SessionReceipts,
  layout: WorkflowLayout,
  state: RunState,
  read: ReadReceipt,
  row: ReconcileRunResult,
  options: LoadOptions,
  runtime: Runtime,
): Promise<Receipt> {
  const { receipt } = read;
  const now = runtime.now().toISOString();
  // A read-only caller may take a memoised outcome (its receipt carries no entry hashes: never written).
  let r =
    options.memo && !options.refresh ? recallRevalidation(layout, read, out.corpus_fingerprint, state, now) : null;
  if (!r) {
    out.current ??= await currentCorpus(layout, out.corpus_fingerprint, out.corpus);
    out.corpus ??= out.current.corpus;
    const memo = runMatchMemo(layout, `${receipt.session_id}/${receipt.run_id}`);
    r = revalidateRun(out.current, state, receipt, now, read.entries, memo);
    memo?.save();
    rememberRevalidation(layout, read, out.corpus_fingerprint, state, r);
  }
  if (r.state === 'stale') {
    row.reasons = [...row.reasons, revalidationReason(r)];
    return receipt;
  }
  const { added, changed, removed } = r.delta;
  row.after = 'fresh';
  row.reasons = [];
  row.revalidated = {
    from: receipt.corpus_fingerprint,
    added: added.length,
    changed: changed.length,
    removed: removed.length,
  };
  if (options.refresh) rememberReceipt(layout, r.receipt, await writeReceipt(layout, r.receipt));
  return r.receipt;
}

/** `refresh`: regenerate what is not fresh; `memo`: the caller writes no receipt (memoised revalidations allowed). */
export interface LoadOptions {
  refresh?: boolean;
  memo?: boolean;
}

/**
 * Reconciles a session: every valid run with candidates gets its receipt checked against the
 * three fences; with `refresh`, missing, stale and damaged receipts are regenerated (confirmed
 * resolutions carried over where they still hold). Without `refresh` nothing is written, and a
 * damaged receipt throws `ReceiptCorruptError`. The corpus is fingerprinted once and parsed at
 * most once.
 */
export async function reconcileSession(
  layout: WorkflowLayout,
  sessionId: string,
  options: { refresh?: boolean },
  runtime: Runtime,
): Promise<ReconcileSessionResult> {
  const all = await loadSessionReceipts(layout, sessionId, options, runtime);
  return {
    session_id: all.session_id,
    corpus_fingerprint: all.corpus_fingerprint,
    matcher_revision: all.matcher_revision,
    runs: all.runs,
    problems: all.problems,
  };
}

export async function loadSessionReceipts(
  layout: WorkflowLayout,
  sessionId: string,
  options: LoadOptions,
  runtime: Runtime,
): Promise<SessionReceipts> {
  const summary = summarizeSession(layout, sessionId);
  const { fingerprint } = await computeCorpusFingerprint(layout);
  const out: SessionReceipts = {
    session_id: sessionId,
    corpus_fingerprint: fingerprint,
    matcher_revision: MATCHER_REVISION,
    runs: [],
    problems: [...summary.problems],
    summary,
    fences: new Map(),
    receipts: new Map(),
    states: new Map(),
    corpus: null,
  };
  // Every run with a valid run.json: a damaged ledger of one of them is the named error (exit 2),
  // not a run to skip, since this session's verdicts need it.
  for (const run of listRuns(layout, sessionId).runs) {
    const state = runState(layout, sessionId, run.run_id);
    out.states.set(run.run_id, state);
    appendAll(out.problems, state.problems);
    const expected: Fences = {
      candidate_snapshot_hash: state.candidate_snapshot_hash,
      corpus_fingerprint: fingerprint,
      matcher_revision: MATCHER_REVISION,
    };
    out.fences.set(run.run_id, expected);
    let read: ReadReceipt | null = null;
    let corrupt = false;
    try {
      read = readReceiptMemo(layout, sessionId, run.run_id);
    } catch (err) {
      if (!(err instanceof ReceiptCorruptError) || !options.refresh) throw err;
      corrupt = true;
    }
    let receipt: Receipt | null = read?.receipt ?? null;
    const check = compareFences(receipt, expected, sessionId, run.run_id);
    const row: ReconcileRunResult = {
      run_id: run.run_id,
      before: corrupt ? 'corrupt' : check.state,
      after: check.state,
      reasons: corrupt ? ['receipt is damaged'] : check.reasons,
      regenerated: false,
      revalidated: null,
      candidates: state.candidates.length,
      carried_over: 0,
      dropped: 0,
      corrupt_copy: null,
    };
    if (!corrupt && read && receipt && onlyCorpusMoved(receipt, expected, sessionId, run.run_id)) {
      receipt = await revalidateInto(out, layout, state, read, row, options, runtime);
    }
    if (options.refresh && (corrupt || row.after !== 'fresh') && (state.candidates.length > 0 || receipt || corrupt)) {
      if (corrupt) row.corrupt_copy = keepCorruptCopy(layout, sessionId, run.run_id, runtime);
      out.corpus ??= await matchingCorpus(layout, fingerprint);
      out.current ??= await currentCorpus(layout, fingerprint, out.corpus);
      receipt = regenerate(layout, out.current, state, expected, sessionId, receipt, runtime);
      rememberReceipt(layout, receipt, await writeReceipt(layout, receipt));
      row.after = 'fresh';
      row.regenerated = true;
      row.carried_over = receipt.candidates.filter(
        (c) => c.resolution?.carried_over_at === receipt?.generated_at,
      ).length;
      row.dropped = receipt.dropped_resolutions?.length ?? 0;
    }
    out.receipts.set(run.run_id, receipt);
    out.runs.push(row);
  }
  return out;
}

function regenerate(
  layout: WorkflowLayout,
  current: CurrentCorpus,
  state: RunState,
  fences: Fences,
  sessionId: string,
  prior: Receipt | null,
  runtime: Runtime,
): Receipt {
  const now = runtime.now().toISOString();
  const { corpus } = current;
  const memo = runMatchMemo(layout, `${sessionId}/${state.run_id}`);
  const verdicts = reconcile(state.candidates, corpus.index, { seeds: state.seeds, now, ...(memo ? { memo } : {}) });
  memo?.save();
  return buildReceipt({
    sessionId,
    runId: state.run_id,
    candidates: state.candidates,
    verdicts,
    candidateSnapshotHash: fences.candidate_snapshot_hash,
    corpusFingerprint: fences.corpus_fingerprint,
    matcherRevision: fences.matcher_revision,
    generatedAt: now,
    prior,
    targets: corpus.targets,
    retrievalLimit: RETRIEVAL_LIMIT,
    entryHashes: current.hashes,
  });
}

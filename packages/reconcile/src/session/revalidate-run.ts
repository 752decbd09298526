import type { WorkflowLayout } from '@maestro/fs';
import type { MatchMemo } from '../matcher/trace.js';
import type { Fences } from '../receipt/freshness.js';
import { type Revalidation, revalidateReceipt } from '../receipt/revalidate.js';
import type { Receipt } from '../schemas.js';
import { type MatchingCorpus, matchingCorpus } from './corpus-cache.js';
import type { EntryColumns } from './entry-columns.js';
import type { RunState } from './run-state.js';

/** The current corpus as revalidation needs it: matched once, hashed once, for many runs. */
export interface CurrentCorpus {
  fingerprint: string;
  corpus: MatchingCorpus;
  /** Every entry's hash by id (built on first read: a read-only revalidation compares bytes instead). */
  readonly hashes: Record<string, string>;
}

let last: { index: string; current: CurrentCorpus } | null = null;

/** Forgets the kept corpus (tests that compare sources, or a long-lived process after a write). */
export function forgetCurrentCorpus(): void {
  last = null;
}

/**
 * The current corpus for a fingerprint, kept for the rest of the process: a gate over many
 * sessions, or a backlog, loads and hashes it once. A new fingerprint replaces it.
 */
export async function currentCorpus(
  layout: WorkflowLayout,
  fingerprint: string,
  loaded: MatchingCorpus | null = null,
): Promise<CurrentCorpus> {
  const kept = last?.index === layout.index && last.current.fingerprint === fingerprint ? last.current : null;
  if (kept?.corpus.current()) return kept;
  const corpus = loaded ?? (await matchingCorpus(layout, fingerprint));
  let hashes: Record<string, string> | null = null;
  const current: CurrentCorpus = {
    fingerprint,
    corpus,
    get hashes() {
      hashes ??= corpus.entryHashes();
      return hashes;
    },
  };
  last = { index: layout.index, current };
  return current;
}

/**
 * True when a receipt's identity, candidate snapshot and matcher revision hold and only the corpus
 * fingerprint moved: the one case revalidation may carry over. A new matcher revision or new
 * candidates always need a regeneration.
 */
export function onlyCorpusMoved(receipt: Receipt | null, expected: Fences, sessionId: string, runId: string): boolean {
  return (
    receipt !== null &&
    receipt.session_id === sessionId &&
    receipt.run_id === runId &&
    receipt.candidate_snapshot_hash === expected.candidate_snapshot_hash &&
    receipt.matcher_revision === expected.matcher_revision &&
    receipt.corpus_fingerprint !== expected.corpus_fingerprint
  );
}

/**
 * Revalidates one run's receipt against the current corpus (pure on top of the loaded corpus).
 * With the receipt's entry hashes as columns (`before`), the delta compares bytes.
 */
export function revalidateRun(
  current: CurrentCorpus,
  state: RunState,
  receipt: Receipt,
  now: string,
  before: EntryColumns | null = null,
  memo: MatchMemo | null = null,
): Revalidation {
  const delta = before ? (current.corpus.entryDeltaColumns?.(before) ?? null) : null;
  return revalidateReceipt({
    receipt,
    candidates: state.candidates,
    seeds: state.seeds,
    corpus: current.corpus.index,
    fingerprint: current.fingerprint,
    hashes: () => current.hashes,
    ...(delta ? { delta: delta.delta } : before ? { delta: current.corpus.entryDelta(before) } : {}),
    ...(delta ? { entryColumns: delta.after } : {}),
    ...(memo ? { memo } : {}),
    now,
  });
}

/** The stale reason a failed revalidation adds to the fence reasons. */
export function revalidationReason(r: Extract<Revalidation, { state: 'stale' }>): string {
  return `not revalidated: ${r.reason}`;
}

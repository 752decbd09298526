import { appendAll, type Issue, inputError, type Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { listSessions, type SummaryCandidate, summarizeSession, updateDelta } from '@maestro/ledger';
import { MATCHER_REVISION, SEVERITY_ORDER } from '../matcher/reconcile.js';
import { computeCorpusFingerprint } from '../receipt/fingerprint.js';
import { compareFences } from '../receipt/freshness.js';
import { readReceipt } from '../receipt/io.js';
import type { Freshness, Receipt, ReceiptCandidate } from '../schemas.js';
import { type CurrentCorpus, currentCorpus, onlyCorpusMoved, revalidateRun } from './revalidate-run.js';
import { runState } from './run-state.js';

/** The reason prefix that marks a rejection as a backlog expiry (and so restorable). */
export const EXPIRY_PREFIX = 'expired:';

export interface BacklogItem {
  session_id: string;
  candidate_id: string;
  title: string;
  target: 'spec' | 'knowhow';
  status: SummaryCandidate['status'];
  stage: 'observed' | 'corroborated';
  run_ids: string[];
  first_recorded_at: string;
  age_days: number;
  freshness: Freshness;
  disposition: ReceiptCandidate['disposition'] | null;
  promotion_eligibility: ReceiptCandidate['promotion_eligibility'] | null;
  canonical_id: string | null;
  command: string;
}

export interface BacklogChange {
  session_id: string;
  candidate_id: string;
  run_ids: string[];
  reason: string;
}

export interface BacklogResult {
  schema_version: 'knowledge-backlog/1.0';
  generated_at: string;
  items: BacklogItem[];
  counts: {
    sessions: number;
    pending: number;
    observed: number;
    corroborated: number;
    review_required: number;
    unreconciled: number;
  };
  expired: BacklogChange[];
  restored: BacklogChange[];
  problems: Issue[];
}

const DAY_MS = 86_400_000;

export interface BacklogOptions {
  /** Soft-reject pending observed-only candidates first recorded more than this many days ago. */
  expireOlderThanDays?: number;
  /** Why (recorded on each expired candidate); a default names the rule. */
  reason?: string;
  /** Undo an expiry: candidates rejected by `--expire-observed` go back to pending. */
  restore?: readonly string[];
}

/**
 * Pending candidates across every session, by severity, corroboration and age. A damaged session,
 * ledger or receipt is reported in `problems` and the rest goes on. With `expireOlderThanDays`,
 * old observed-only candidates are soft-rejected (reversibly, with a reason) before listing.
 */
export async function knowledgeBacklog(
  layout: WorkflowLayout,
  options: BacklogOptions,
  runtime: Runtime,
): Promise<BacklogResult> {
  if (options.expireOlderThanDays !== undefined && !(options.expireOlderThanDays >= 0)) {
    throw inputError('INVALID_AGE', '--older-than must be a number of days, e.g. 30d');
  }
  const now = runtime.now();
  const result: BacklogResult = {
    schema_version: 'knowledge-backlog/1.0',
    generated_at: now.toISOString(),
    items: [],
    counts: { sessions: 0, pending: 0, observed: 0, corroborated: 0, review_required: 0, unreconciled: 0 },
    expired: [],
    restored: [],
    problems: [],
  };
  const { sessions, problems } = listSessions(layout);
  appendAll(result.problems, problems);
  const { fingerprint } = await computeCorpusFingerprint(layout);
  let loaded: Promise<CurrentCorpus> | null = null;
  const current = () => {
    loaded ??= currentCorpus(layout, fingerprint);
    return loaded;
  };
  for (const session of sessions) {
    try {
      await sessionBacklog(layout, session.session_id, options, runtime, { fingerprint, current }, result);
      result.counts.sessions++;
    } catch (err) {
      const e = err as Error & { location?: { file: string; line?: number } };
      result.problems.push({
        severity: 'error',
        code: (err as { code?: string }).code ?? 'SESSION_UNREADABLE',
        message: `session ${session.session_id} skipped: ${e.message}`,
        file: e.location?.file ?? `.workflow/sessions/${session.session_id}`,
        ...(e.location?.line !== undefined ? { line: e.location.line } : {}),
      });
    }
  }
  finish(result, options);
  return result;
}

/** Reports restore ids that were not expired, sorts by severity, corroboration, age, and counts. */
function finish(result: BacklogResult, options: BacklogOptions): void {
  const restored = new Set(result.restored.map((r) => r.candidate_id));
  for (const id of options.restore ?? []) {
    if (!restored.has(id)) {
      result.problems.push({
        severity: 'warning',
        code: 'NOT_EXPIRED',
        message: `${id} was not restored: it is not a candidate rejected by --expire-observed`,
        file: '.workflow/sessions',
      });
    }
  }
  result.items.sort(
    (a, b) =>
      rank(a.disposition) - rank(b.disposition) ||
      b.run_ids.length - a.run_ids.length ||
      a.first_recorded_at.localeCompare(b.first_recorded_at) ||
      a.candidate_id.localeCompare(b.candidate_id),
  );
  const c = result.counts;
  c.pending = result.items.length;
  c.observed = result.items.filter((i) => i.stage === 'observed').length;
  c.corroborated = result.items.filter((i) => i.stage === 'corroborated').length;
  c.review_required = result.items.filter((i) => i.promotion_eligibility === 'review_required').length;
  c.unreconciled = result.items.filter((i) => i.freshness !== 'fresh').length;
}

function rank(d: ReceiptCandidate['disposition'] | null): number {
  return d === null ? -1 : SEVERITY_ORDER.indexOf(d);
}

async function sessionBacklog(
  layout: WorkflowLayout,
  sessionId: string,
  options: BacklogOptions,
  runtime: Runtime,
  corpus: CorpusState,
  out: BacklogResult,
): Promise<void> {
  const now = runtime.now();
  let summary = summarizeSession(layout, sessionId);
  const restore = new Set(options.restore ?? []);
  const changed = await applyChanges(layout, sessionId, summary.candidates, options, restore, runtime, out);
  if (changed) summary = summarizeSession(layout, sessionId);
  appendAll(out.problems, summary.problems);
  const verdicts = await sessionVerdicts(layout, sessionId, summary.runs, corpus, out.problems, now.toISOString());
  for (const c of summary.candidates.filter((x) => x.status === 'pending')) {
    const v = verdicts.get(c.candidate_id) ?? { freshness: 'missing' as Freshness, entry: null };
    out.items.push({
      session_id: sessionId,
      candidate_id: c.candidate_id,
      title: c.title,
      target: c.target,
      status: c.status,
      stage: c.stage,
      run_ids: c.run_ids,
      first_recorded_at: c.first_recorded_at,
      age_days: Math.max(0, Math.floor((now.getTime() - Date.parse(c.first_recorded_at)) / DAY_MS)),
      freshness: v.freshness,
      disposition: v.entry?.disposition ?? null,
      promotion_eligibility: v.entry?.promotion_eligibility ?? null,
      canonical_id: v.entry?.canonical_id ?? null,
      command:
        v.freshness !== 'fresh'
          ? `maestro knowledge review ${sessionId} --refresh`
          : v.entry?.promotion_eligibility === 'eligible'
            ? `maestro knowledge promote ${sessionId} --candidate ${c.candidate_id}`
            : `maestro knowledge review ${sessionId}`,
    });
  }
}

type Verdicts = Map<string, { freshness: Freshness; entry: ReceiptCandidate | null }>;

/** The corpus fingerprint, and the current corpus loaded once, only if a receipt needs revalidating. */
interface CorpusState {
  fingerprint: string;
  current: () => Promise<CurrentCorpus>;
}

/** Per candidate: the worst freshness and the most severe verdict across its runs (tolerant reads). */
async function sessionVerdicts(
  layout: WorkflowLayout,
  sessionId: string,
  runs: readonly { run_id: string }[],
  corpus: CorpusState,
  problems: Issue[],
  now: string,
): Promise<Verdicts> {
  const verdicts: Verdicts = new Map();
  const worse = { fresh: 0, stale: 1, missing: 2 } as const;
  for (const run of runs) {
    const state = runState(layout, sessionId, run.run_id);
    let receipt: Receipt | null = null;
    try {
      receipt = readReceipt(layout, sessionId, run.run_id);
    } catch (err) {
      const loc = (err as { location?: { file: string } }).location;
      problems.push({
        severity: 'error',
        code: 'RECEIPT_CORRUPT',
        message: (err as Error).message,
        file: loc?.file ?? run.run_id,
      });
    }
    const fences = {
      candidate_snapshot_hash: state.candidate_snapshot_hash,
      corpus_fingerprint: corpus.fingerprint,
      matcher_revision: MATCHER_REVISION,
    };
    let runFreshness = compareFences(receipt, fences, sessionId, run.run_id).state;
    if (receipt && onlyCorpusMoved(receipt, fences, sessionId, run.run_id)) {
      const v = revalidateRun(await corpus.current(), state, receipt, now);
      if (v.state === 'revalidated') [runFreshness, receipt] = ['fresh', v.receipt];
    }
    for (const c of state.candidates) {
      const entry = receipt?.candidates.find((x) => x.candidate_id === c.candidate_id) ?? null;
      const f: Freshness = entry ? runFreshness : 'missing';
      const prev = verdicts.get(c.candidate_id);
      const freshness = prev && worse[prev.freshness] > worse[f] ? prev.freshness : f;
      const keep = prev?.entry && (!entry || rank(prev.entry.disposition) <= rank(entry.disposition));
      verdicts.set(c.candidate_id, { freshness, entry: keep ? (prev?.entry ?? null) : entry });
    }
  }
  return verdicts;
}

/** Expiry and restore, through the ledger's one write path. Returns whether anything changed. */
async function applyChanges(
  layout: WorkflowLayout,
  sessionId: string,
  candidates: readonly SummaryCandidate[],
  options: BacklogOptions,
  restore: ReadonlySet<string>,
  runtime: Runtime,
  out: BacklogResult,
): Promise<boolean> {
  const now = runtime.now();
  const days = options.expireOlderThanDays;
  const reason = `${EXPIRY_PREFIX} ${options.reason?.trim() || `observed in a single run and not corroborated for more than ${days} day(s)`}`;
  const expire =
    days === undefined
      ? []
      : candidates.filter(
          (c) =>
            c.status === 'pending' &&
            c.stage === 'observed' &&
            now.getTime() - Date.parse(c.first_recorded_at) > days * DAY_MS,
        );
  const back = candidates.filter(
    (c) => restore.has(c.candidate_id) && c.status === 'rejected' && c.rejection?.reason.startsWith(EXPIRY_PREFIX),
  );
  for (const c of expire) {
    await setStatus(layout, sessionId, c, 'rejected', { reason, at: now.toISOString() }, runtime);
    out.expired.push({ session_id: sessionId, candidate_id: c.candidate_id, run_ids: c.run_ids, reason });
  }
  for (const c of back) {
    await setStatus(layout, sessionId, c, 'pending', null, runtime);
    out.restored.push({
      session_id: sessionId,
      candidate_id: c.candidate_id,
      run_ids: c.run_ids,
      reason: c.rejection?.reason ?? '',
    });
  }
  return expire.length + back.length > 0;
}

async function setStatus(
  layout: WorkflowLayout,
  sessionId: string,
  c: SummaryCandidate,
  status: 'pending' | 'rejected',
  rejection: { reason: string; at: string } | null,
  runtime: Runtime,
): Promise<void> {
  for (const runId of c.run_ids) {
    await updateDelta(
      layout,
      sessionId,
      runId,
      (d) => {
        const x = d.candidates.find((y) => y.candidate_id === c.candidate_id);
        if (!x || (status === 'rejected' ? x.status !== 'pending' : x.status !== 'rejected')) return;
        x.status = status;
        x.rejection = rejection;
      },
      runtime,
    );
  }
}

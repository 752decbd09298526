import { type Issue, inputError, type Runtime, refusedError } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout } from '@maestro/fs';
import { readDeltaFile } from './delta.js';
import { runPaths } from './paths.js';
import { listRuns, readRun, updateRun } from './run.js';
import type { RunRecord, SessionRecord } from './schemas.js';
import { readSession, updateSession } from './session.js';
import { type SessionSummary, summarizeSession } from './summary.js';
import { displayPath } from './validate.js';

export interface SealRunResult {
  session_id: string;
  run_id: string;
  status: 'sealed';
  sealed_at: string;
  already_sealed: boolean;
}

/** `maestro run seal`: completed → sealed (idempotent on a sealed run). A running run must complete first. */
export async function sealRun(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  runtime: Runtime,
): Promise<SealRunResult> {
  const before = readRun(layout, sessionId, runId);
  if (before.status === 'sealed') return sealed(before, true);
  readDeltaFile(layout, sessionId, runId); // never seal a run whose ledger is damaged
  const run = await updateRun(
    layout,
    sessionId,
    runId,
    (r) => {
      if (r.status === 'running') {
        throw refusedError('RUN_NOT_COMPLETED', `run ${runId} is still running; complete it before sealing`, {
          hint: `\`maestro run complete ${runId} --session ${sessionId} --seal\` completes and seals it in one step`,
        });
      }
      if (r.status === 'completed') {
        r.status = 'sealed';
        r.sealed_at = runtime.now().toISOString();
      }
    },
    runtime,
  );
  return sealed(run, false);
}

function sealed(run: RunRecord, already: boolean): SealRunResult {
  return {
    session_id: run.session_id,
    run_id: run.run_id,
    status: 'sealed',
    sealed_at: run.sealed_at ?? run.updated_at,
    already_sealed: already,
  };
}

/** The knowledge left to handle when a session is sealed. Sealing never changes a candidate. */
export interface KnowledgeBacklog {
  pending_candidates: number;
  promoting_candidates: number;
  promoted_candidates: number;
  rejected_candidates: number;
  /** Pending candidates staged by more than one run. */
  corroborated_candidates: number;
  /** Pending candidates whose reconciliation receipt says review_required. */
  review_required_candidates: number;
  /** Pending candidates that no receipt covers yet. */
  unreconciled_candidates: number;
  review_command: string;
}

export interface SealSessionResult {
  session_id: string;
  status: 'sealed';
  sealed_at: string;
  already_sealed: boolean;
  run_count: number;
  knowledge: KnowledgeBacklog;
  problems: Issue[];
}

/**
 * Reads the eligibility each run's `knowledge-reconciliation.json` gives its candidates. The
 * receipt belongs to @maestro/reconcile; it is read tolerantly here (no freshness check): a
 * missing or unreadable receipt just covers nothing, and an unreadable one is reported.
 */
export function receiptEligibility(
  layout: WorkflowLayout,
  summary: SessionSummary,
  problems: Issue[],
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const run of summary.runs) {
    const path = runPaths(layout, summary.session_id, run.run_id).receipt;
    const text = readTextIfExists(path);
    if (text === null) continue;
    let rows: unknown;
    try {
      rows = (JSON.parse(text) as { candidates?: unknown }).candidates;
    } catch {
      rows = undefined;
    }
    if (!Array.isArray(rows)) {
      const file = displayPath(layout.root, path);
      problems.push({
        file,
        severity: 'warning',
        code: 'RECEIPT_UNREADABLE',
        message: `${file} is not a readable receipt; ignored`,
      });
      continue;
    }
    for (const row of rows as { candidate_id?: unknown; promotion_eligibility?: unknown }[]) {
      if (typeof row?.candidate_id !== 'string' || typeof row.promotion_eligibility !== 'string') continue;
      const set = out.get(row.candidate_id) ?? new Set<string>();
      set.add(row.promotion_eligibility);
      out.set(row.candidate_id, set);
    }
  }
  return out;
}

/** The backlog of a session's knowledge (read-only). */
export function knowledgeBacklog(layout: WorkflowLayout, summary: SessionSummary, problems: Issue[]): KnowledgeBacklog {
  const eligibility = receiptEligibility(layout, summary, problems);
  const pending = summary.candidates.filter((c) => c.status === 'pending');
  const count = (status: string) => summary.candidates.filter((c) => c.status === status).length;
  return {
    pending_candidates: pending.length,
    promoting_candidates: count('promoting'),
    promoted_candidates: count('promoted'),
    rejected_candidates: count('rejected'),
    corroborated_candidates: pending.filter((c) => c.stage === 'corroborated').length,
    review_required_candidates: pending.filter((c) => eligibility.get(c.candidate_id)?.has('review_required')).length,
    unreconciled_candidates: pending.filter((c) => !eligibility.has(c.candidate_id)).length,
    review_command: `maestro knowledge review ${summary.session_id}`,
  };
}

/**
 * `maestro session seal`: refuses (exit 1) while any run is not sealed, listing them with the
 * command for each; otherwise marks the session sealed and reports the knowledge backlog. It
 * never promotes, rejects or otherwise changes a candidate. Idempotent on a sealed session.
 */
export async function sealSession(
  layout: WorkflowLayout,
  sessionId: string,
  runtime: Runtime,
): Promise<SealSessionResult> {
  const current = readSession(layout, sessionId);
  let session: SessionRecord = current;
  let runCount = 0;
  if (current.status !== 'sealed') {
    session = await updateSession(
      layout,
      sessionId,
      (s) => {
        const { runs, problems } = listRuns(layout, sessionId);
        if (problems.length) throw unverifiableRuns(sessionId, problems);
        const open = runs.filter((r) => r.status !== 'sealed');
        if (open.length) throw sealBlocked(sessionId, open);
        runCount = runs.length;
        const at = runtime.now().toISOString();
        s.status = 'sealed';
        s.lifecycle.sealed_at = at;
        s.lifecycle.seal_summary = `Sealed with ${runs.length} run(s)`;
      },
      runtime,
    );
  }
  const summary = summarizeSession(layout, sessionId);
  const problems = [...summary.problems];
  if (current.status === 'sealed') runCount = summary.runs.length;
  return {
    session_id: sessionId,
    status: 'sealed',
    sealed_at: session.lifecycle.sealed_at ?? session.updated_at,
    already_sealed: current.status === 'sealed',
    run_count: runCount,
    knowledge: knowledgeBacklog(layout, summary, problems),
    problems,
  };
}

/** A damaged run folder might be a running run: sealing fails closed, naming each one. */
function unverifiableRuns(sessionId: string, problems: Issue[]) {
  return inputError(
    'RUN_INVALID',
    `cannot seal session ${sessionId}: ${problems.length} run folder(s) cannot be read:\n  ${problems.map((p) => p.message).join('\n  ')}`,
    {
      hint: 'fix or restore each run.json (or move a stray folder out of runs/), then rerun `maestro session seal`',
      location: { file: problems[0].file },
      details: { problems },
    },
  );
}

function sealBlocked(sessionId: string, open: RunRecord[]) {
  const lines = open.map((r) =>
    r.status === 'running'
      ? `${r.run_id} (running): maestro run complete ${r.run_id} --session ${sessionId} --seal`
      : `${r.run_id} (completed): maestro run seal ${r.run_id} --session ${sessionId}`,
  );
  return refusedError('SESSION_SEAL_BLOCKED', `session ${sessionId} has unsealed runs:\n  ${lines.join('\n  ')}`, {
    hint: 'seal each run first (the commands are listed above), then rerun `maestro session seal`',
    details: { unsealed_runs: open.map((r) => ({ run_id: r.run_id, status: r.status })) },
  });
}

import type { Issue } from '@maestro/core';
import { appendAll } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { listSessions, runPaths, type SessionSummary, summarizeSession } from '@maestro/ledger';
import { problemMessage, type ReceiptSource } from './receipts.js';
import { EVIDENCE_SIGNALS, type EvidenceRow, type EvidenceSignal } from './rules-evidence.js';
import type { PipelineProblem, PipelineSnapshot, SessionBacklog } from './rules-pipeline.js';

export interface PipelineRead {
  snapshot: PipelineSnapshot;
  /** Explicit consumption per knowledge id (`consumed` and `cited` signals across every run ledger). */
  consumption: Map<string, number>;
  /** Every validated / cited / contradicted judgement, per run (the basis of evidence confidence). */
  evidence: EvidenceRow[];
}

const PENDING = new Set(['pending', 'promoting']);
const CONSUMPTION_SIGNALS = new Set(['consumed', 'cited']);

/** `.workflow/sessions/<s>[/runs/<r>]/...` → ids, for problems that only carry a file. */
function idsOf(file: string): { session_id: string; run_id: string | null } {
  const m = /sessions\/([^/]+)(?:\/runs\/([^/]+))?/.exec(file.replace(/\\/g, '/'));
  return { session_id: m?.[1] ?? file, run_id: m?.[2] ?? null };
}

function problemFrom(issue: Issue, kind: PipelineProblem['kind']): PipelineProblem {
  return { kind, ...idsOf(issue.file), file: issue.file, message: issue.message };
}

/**
 * Reads every session's ledgers and the receipts of runs with pending candidates. `canonical`
 * maps a recorded knowledge id to the id consumption is counted under. Damaged
 * session, run, ledger and receipt files become problems (findings), never errors: the audit of
 * the rest completes.
 */
export function readPipeline(
  layout: WorkflowLayout,
  receipts: ReceiptSource,
  canonical: (id: string, recordedAt: string) => string = (id) => id,
): PipelineRead {
  const listed = listSessions(layout);
  const problems: PipelineProblem[] = listed.problems.map((i) => problemFrom(i, 'session'));
  const sessions: SessionBacklog[] = [];
  const pendingTargets: PipelineSnapshot['pendingTargets'] = [];
  const consumption = new Map<string, number>();
  const evidence: EvidenceRow[] = [];
  for (const s of listed.sessions) {
    let summary: SessionSummary;
    try {
      summary = summarizeSession(layout, s.session_id);
    } catch (err) {
      problems.push({
        kind: 'session',
        session_id: s.session_id,
        run_id: null,
        file: `.workflow/sessions/${s.session_id}/session.json`,
        message: problemMessage(err),
      });
      continue;
    }
    for (const p of summary.problems) problems.push(problemFrom(p, p.code === 'LEDGER_INVALID' ? 'ledger' : 'run'));
    for (const i of summary.inputs) {
      if (!CONSUMPTION_SIGNALS.has(i.signal)) continue;
      // maestro-flow ledgers name entries by alias (`spec:project:{stem}-{NNN}`, ...): count them under the entry.
      const id = canonical(i.knowledge_id, i.first_recorded_at);
      consumption.set(id, (consumption.get(id) ?? 0) + i.count);
    }
    appendAll(evidence, evidenceRowsOf(summary));
    const backlog = backlogOf(summary);
    const pendingRuns = new Set(summary.candidates.filter((c) => PENDING.has(c.status)).flatMap((c) => c.run_ids));
    for (const run of summary.runs) {
      if (!pendingRuns.has(run.run_id)) continue;
      const found = readGuardReceipt(layout, receipts, s.session_id, run.run_id, problems);
      if (!found) continue;
      backlog.receipts++;
      if (!found.fresh) continue;
      const pending = new Set(
        summary.candidates
          .filter((c) => PENDING.has(c.status) && c.run_ids.includes(run.run_id))
          .map((c) => c.candidate_id),
      );
      for (const c of found.view.candidates) {
        if (!pending.has(c.candidate_id)) continue;
        const ids = new Set([...c.matches.map((m) => m.knowledge_id), ...(c.canonical_id ? [c.canonical_id] : [])]);
        for (const knowledge_id of ids) {
          pendingTargets.push({
            knowledge_id,
            candidate_id: c.candidate_id,
            session_id: s.session_id,
            run_id: run.run_id,
          });
        }
      }
    }
    sessions.push(backlog);
  }
  return { snapshot: { sessions, problems, pendingTargets }, consumption, evidence };
}

/** The validated / cited / contradicted judgements of one session, one row per run. */
export function evidenceRowsOf(summary: SessionSummary): EvidenceRow[] {
  const rows: EvidenceRow[] = [];
  for (const i of summary.inputs) {
    if (!(EVIDENCE_SIGNALS as readonly string[]).includes(i.signal)) continue;
    for (const run_id of i.run_ids) {
      rows.push({
        knowledge_id: i.knowledge_id,
        session_id: summary.session_id,
        run_id,
        signal: i.signal as EvidenceSignal,
      });
    }
  }
  return rows;
}

/**
 * Every session's judgements, for `spec health`: ledgers only (no receipts). Damaged sessions and
 * ledgers are skipped and counted, never fatal.
 */
export function readEvidenceRows(layout: WorkflowLayout): { rows: EvidenceRow[]; skipped: number } {
  const listed = listSessions(layout);
  const rows: EvidenceRow[] = [];
  let skipped = listed.problems.length;
  for (const s of listed.sessions) {
    try {
      const summary = summarizeSession(layout, s.session_id);
      skipped += summary.problems.length;
      appendAll(rows, evidenceRowsOf(summary));
    } catch {
      skipped++;
    }
  }
  return { rows, skipped };
}

function backlogOf(summary: SessionSummary): SessionBacklog {
  const pending = summary.candidates.filter((c) => c.status === 'pending');
  return {
    session_id: summary.session_id,
    runs: summary.runs.length,
    ledgers: summary.runs.filter((r) => r.has_ledger).length,
    receipts: 0,
    pending_observed: pending.filter((c) => c.stage === 'observed').length,
    pending_corroborated: pending.filter((c) => c.stage === 'corroborated').length,
    promoting: summary.counts.promoting,
    promoted: summary.counts.promoted,
    rejected: summary.counts.rejected,
  };
}

function readGuardReceipt(
  layout: WorkflowLayout,
  receipts: ReceiptSource,
  sessionId: string,
  runId: string,
  problems: PipelineProblem[],
) {
  try {
    const view = receipts.read(layout, sessionId, runId);
    if (!view) return null;
    return { view, fresh: receipts.fresh(layout, sessionId, runId) };
  } catch (err) {
    const file = runPaths(layout, sessionId, runId).receipt;
    problems.push({
      kind: 'receipt',
      session_id: sessionId,
      run_id: runId,
      file: `.workflow/${file.slice(layout.workflow.length + 1)}`,
      message: problemMessage(err),
    });
    return null;
  }
}

import { finding } from './finding.js';
import type { Finding, PendingTarget } from './schemas.js';

/** A session, run, ledger or receipt file the audit could not read. Reported, never fatal. */
export interface PipelineProblem {
  kind: 'session' | 'run' | 'ledger' | 'receipt';
  session_id: string;
  run_id: string | null;
  /** Project-relative. */
  file: string;
  message: string;
}

/** Candidate counts of one session, by stage and status (pending ones split observed / corroborated). */
export interface SessionBacklog {
  session_id: string;
  runs: number;
  ledgers: number;
  receipts: number;
  pending_observed: number;
  pending_corroborated: number;
  promoting: number;
  promoted: number;
  rejected: number;
}

/** What the pipeline reader hands the pure rules. */
export interface PipelineSnapshot {
  sessions: SessionBacklog[];
  problems: PipelineProblem[];
  /** Knowledge ids that a pending candidate with a fresh receipt matches. */
  pendingTargets: (PendingTarget & { knowledge_id: string })[];
}

export const EMPTY_PIPELINE: PipelineSnapshot = { sessions: [], problems: [], pendingTargets: [] };

const PROBLEM = {
  session: { subtype: 'invalid-session-authority', fix: 'fix or restore session.json (for example from git)' },
  run: { subtype: 'invalid-run', fix: 'fix or restore run.json; its candidates are ignored until then' },
  ledger: { subtype: 'invalid-knowledge-ledger', fix: 'fix or restore knowledge-delta.json (for example from git)' },
  receipt: { subtype: 'invalid-reconciliation-receipt', fix: 'regenerate it' },
} as const;

/** Findings for unreadable pipeline files and the pending backlog. Pure. */
export function pipelineFindings(p: PipelineSnapshot): Finding[] {
  const out: Finding[] = [];
  for (const prob of p.problems) {
    const meta = PROBLEM[prob.kind];
    const target = prob.run_id ? `${prob.session_id}/${prob.run_id}` : prob.session_id;
    out.push(
      finding({
        priority: 'P1',
        store: 'pipeline',
        subtype: meta.subtype,
        target,
        file: prob.file,
        evidence: prob.message,
        recommended_action: 'fix',
        command: prob.kind === 'receipt' ? `maestro knowledge review ${prob.session_id} --refresh` : null,
        key: [prob.file],
      }),
    );
  }
  for (const s of p.sessions) {
    if (s.pending_corroborated > 0) {
      out.push(
        finding({
          priority: 'P2',
          store: 'pipeline',
          subtype: 'corroborated-promotion-backlog',
          target: s.session_id,
          evidence: `${s.pending_corroborated} corroborated candidate(s) pending (seen in more than one run), ${s.pending_observed} observed-only`,
          recommended_action: 'review',
          command: `maestro knowledge review ${s.session_id}`,
        }),
      );
    } else if (s.pending_observed > 0) {
      out.push(
        finding({
          priority: 'P2',
          store: 'pipeline',
          subtype: 'observed-backlog',
          target: s.session_id,
          evidence: `${s.pending_observed} observed-only candidate(s) pending (seen in one run), none corroborated`,
          recommended_action: 'observe',
          command: `maestro knowledge review ${s.session_id}`,
        }),
      );
    }
  }
  return out;
}

/** Totals for the report's `pipeline` block. */
export function pipelineTotals(p: PipelineSnapshot) {
  const sum = (k: keyof Omit<SessionBacklog, 'session_id'>) => p.sessions.reduce((n, s) => n + s[k], 0);
  return {
    sessions: p.sessions.length,
    runs: sum('runs'),
    ledgers: sum('ledgers'),
    receipts: sum('receipts'),
    invalid_files: p.problems.length,
    pending_observed: sum('pending_observed'),
    pending_corroborated: sum('pending_corroborated'),
    promoting: sum('promoting'),
    promoted: sum('promoted'),
    rejected: sum('rejected'),
  };
}

import { candidateId, type Issue } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { handoffCandidate, isStaged, readDeltaFile, readReport, readRun } from '@maestro/ledger';
import { candidateSnapshotHash, type SnapshotCandidate } from '../receipt/snapshot.js';

/** What a run contributes to reconciliation right now. */
export interface RunState {
  run_id: string;
  run_status: string;
  /** Non-promoted ledger candidates, then report drafts not staged yet. */
  candidates: SnapshotCandidate[];
  /** Ids among `candidates` that are report drafts (not in the ledger yet). */
  draft_ids: Set<string>;
  /** Knowledge ids the run used (ledger inputs): the matcher's relation seeds. */
  seeds: string[];
  candidate_snapshot_hash: string;
  problems: Issue[];
}

/**
 * Reads a run's ledger (a damaged one throws the ledger's named error) and, while the run is
 * still running, the accepted decisions and locked constraints of its report.md that
 * completion will stage. A damaged report only drops the drafts, reported as a problem.
 */
export function runState(layout: WorkflowLayout, sessionId: string, runId: string): RunState {
  const run = readRun(layout, sessionId, runId);
  const { delta } = readDeltaFile(layout, sessionId, runId);
  const problems: Issue[] = [];
  const ledger: SnapshotCandidate[] = delta.candidates.filter((c) => c.status !== 'promoted');
  const drafts: SnapshotCandidate[] = [];
  if (run.status === 'running') {
    try {
      const staged = new Set(delta.candidates.map((c) => c.candidate_id));
      for (const item of readReport(layout, sessionId, runId).items.filter(isStaged)) {
        const input = handoffCandidate(item, runId);
        const id = candidateId(input.target, input.content);
        if (!staged.has(id)) {
          drafts.push({ ...input, candidate_id: id, status: 'pending' });
          staged.add(id);
        }
      }
    } catch (err) {
      const e = err as Error & { location?: { file: string; line?: number } };
      problems.push({
        severity: 'warning',
        code: 'REPORT_DRAFTS_SKIPPED',
        message: `report.md drafts of run ${runId} were not reconciled: ${e.message}`,
        file: e.location?.file ?? `.workflow/sessions/${sessionId}/runs/${runId}/report.md`,
        ...(e.location?.line !== undefined ? { line: e.location.line } : {}),
      });
    }
  }
  return {
    run_id: runId,
    run_status: run.status,
    candidates: [...ledger, ...drafts],
    draft_ids: new Set(drafts.map((d) => d.candidate_id)),
    seeds: [...new Set(delta.inputs.map((i) => i.knowledge_id))].sort(),
    candidate_snapshot_hash: candidateSnapshotHash(ledger, drafts),
    problems,
  };
}

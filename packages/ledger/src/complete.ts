import { appendAll, candidateId, formatIssue, inputError, type Runtime, refusedError } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLocks } from '@maestro/fs';
import { readDeltaFile, updateDelta } from './delta.js';
import { runPaths } from './paths.js';
import { handoffCandidate, isStaged, parseReport, type ReportItem, reportRef } from './report.js';
import { readRun, updateRun } from './run.js';
import type { KnowledgeDelta, RunRecord } from './schemas.js';
import { stageInto } from './stage.js';
import { summarizeSession } from './summary.js';
import { displayPath } from './validate.js';

export interface CompleteRunOptions {
  sessionId: string;
  runId: string;
  summary?: string;
  /** Seal the run in the same step. */
  seal?: boolean;
}

export interface HandoffSkip {
  item_id: string;
  candidate_id: string;
  reason: string;
}

export interface CompleteRunResult {
  session_id: string;
  run_id: string;
  status: RunRecord['status'];
  summary: string | null;
  report: { file: string; found: boolean; decisions: number; constraints: number; staged_items: string[] };
  knowledge: {
    schema_version: 'knowledge-candidate-receipt/1.0';
    staged_candidate_ids: string[];
    staged_count: number;
    review_command: string;
    promote_template: string;
  };
  skipped: HandoffSkip[];
}

/** Refuses anything but a running run, with the command that fits its state. */
function assertCompletable(run: RunRecord): void {
  if (run.status === 'running') return;
  const hint =
    run.status === 'completed'
      ? `seal it: \`maestro run seal ${run.run_id} --session ${run.session_id}\``
      : `start a new run: \`maestro run start --session ${run.session_id}\``;
  throw refusedError('RUN_NOT_RUNNING', `run ${run.run_id} is already ${run.status}`, { hint });
}

/** report.md's decisions and constraints; a damaged frontmatter is bad input naming every problem. */
export function readReport(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
): { items: ReportItem[]; found: boolean } {
  const path = runPaths(layout, sessionId, runId).report;
  const text = readTextIfExists(path);
  if (text === null) return { items: [], found: false };
  const file = displayPath(layout.root, path);
  const parsed = parseReport(text, file);
  const errors = parsed.issues.filter((i) => i.severity === 'error');
  if (errors.length) {
    throw inputError(
      'REPORT_INVALID',
      `${file} frontmatter has ${errors.length} problem(s):\n  ${errors.map(formatIssue).join('\n  ')}`,
      {
        hint: `fix ${file} and rerun \`maestro run complete ${runId} --session ${sessionId}\`; nothing was staged`,
        location: { file, ...(errors[0].line !== undefined ? { line: errors[0].line } : {}) },
        details: { problems: errors },
      },
    );
  }
  return { items: parsed.value, found: true };
}

/**
 * Stages report items into a ledger (pure; mutates `delta`). An item whose candidate already
 * exists in the session (`known`, id → action) or this ledger under another action is skipped
 * and reported rather than failing the completion.
 */
export function stageHandoff(
  delta: KnowledgeDelta,
  items: readonly ReportItem[],
  known: ReadonlyMap<string, string>,
  runId: string,
  at: string,
): { ids: string[]; skipped: HandoffSkip[] } {
  const ids: string[] = [];
  const skipped: HandoffSkip[] = [];
  for (const item of items) {
    const input = handoffCandidate(item, runId);
    const id = candidateId(input.target, input.content);
    const other = delta.candidates.find((c) => c.candidate_id === id)?.action ?? known.get(id);
    if (other !== undefined && other !== input.action) {
      skipped.push({
        item_id: item.id,
        candidate_id: id,
        reason: `already staged in this session with action ${other}; left unchanged`,
      });
      continue;
    }
    ids.push(stageInto(delta, input, at, reportRef(item)).candidate.candidate_id);
  }
  return { ids, skipped };
}

/**
 * `maestro run complete`: stages every accepted decision and locked constraint of report.md as a
 * spec `propose` candidate, then marks the run completed (or sealed). It never edits specs or
 * knowhow. Staging is keyed by the report item's evidence ref, so rerunning after a crash between
 * the ledger write and the run.json write never double-counts.
 */
export async function completeRun(
  layout: WorkflowLayout,
  options: CompleteRunOptions,
  runtime: Runtime,
): Promise<CompleteRunResult> {
  const { sessionId, runId } = options;
  assertCompletable(readRun(layout, sessionId, runId));
  const { items, found } = readReport(layout, sessionId, runId);
  const staged = items.filter(isStaged);
  const paths = runPaths(layout, sessionId, runId);
  const ids: string[] = [];
  const skipped: HandoffSkip[] = [];
  const run = await withLocks([paths.runJson, paths.delta], async () => {
    assertCompletable(readRun(layout, sessionId, runId));
    readDeltaFile(layout, sessionId, runId); // a damaged ledger fails completion by name; it is not rewritten
    if (staged.length) {
      const known = new Map(summarizeSession(layout, sessionId).candidates.map((c) => [c.candidate_id, c.action]));
      await updateDelta(
        layout,
        sessionId,
        runId,
        (delta) => {
          const r = stageHandoff(delta, staged, known, runId, runtime.now().toISOString());
          appendAll(ids, r.ids);
          appendAll(skipped, r.skipped);
        },
        runtime,
      );
    }
    return updateRun(
      layout,
      sessionId,
      runId,
      (r) => {
        const at = runtime.now().toISOString();
        r.status = options.seal ? 'sealed' : 'completed';
        r.completed_at = at;
        if (options.seal) r.sealed_at = at;
        if (options.summary !== undefined) r.summary = options.summary;
      },
      runtime,
    );
  });
  return completionResult(layout, run, { items, found }, staged, ids, skipped);
}

function completionResult(
  layout: WorkflowLayout,
  run: RunRecord,
  { items, found }: { items: ReportItem[]; found: boolean },
  staged: ReportItem[],
  ids: string[],
  skipped: HandoffSkip[],
): CompleteRunResult {
  const { session_id: sessionId, run_id: runId } = run;
  const unique = [...new Set(ids)].sort();
  return {
    session_id: sessionId,
    run_id: runId,
    status: run.status,
    summary: run.summary,
    report: {
      file: displayPath(layout.root, runPaths(layout, sessionId, runId).report),
      found,
      decisions: items.filter((i) => i.kind === 'decision').length,
      constraints: items.filter((i) => i.kind === 'constraint').length,
      staged_items: staged.map((i) => i.id),
    },
    knowledge: {
      schema_version: 'knowledge-candidate-receipt/1.0',
      staged_candidate_ids: unique,
      staged_count: unique.length,
      review_command: `maestro knowledge review ${sessionId}`,
      promote_template: `maestro knowledge promote ${sessionId} --candidate <candidate-id>`,
    },
    skipped,
  };
}

import { candidateId, inputError, type Runtime, refusedError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { updateDelta } from './delta.js';
import { type KnownIds, resolveKnowledgeIds } from './ids.js';
import { readRun } from './run.js';
import type { CandidateAction, InputSource, LedgerInput, RunRecord, Signal, SourceKind } from './schemas.js';
import { readSession } from './session.js';
import { actionConflict, checkStageInput, type RecordInput, recordInto, stageInto } from './stage.js';
import { summarizeSession } from './summary.js';

/**
 * Staging and recording need a running run: completed and sealed runs are immutable. With `layout`
 * the hint knows whether the session still takes runs (a sealed one does not: start a new session).
 */
export function assertRunAcceptsKnowledge(run: RunRecord, layout?: WorkflowLayout): void {
  if (run.status === 'running') return;
  let sealed = false;
  try {
    sealed = layout !== undefined && readSession(layout, run.session_id).status === 'sealed';
  } catch {
    // a damaged session.json is reported by the commands that need it; keep the run hint
  }
  throw refusedError(
    'RUN_NOT_RUNNING',
    `run ${run.run_id} is ${run.status}; completed and sealed runs are immutable, so stage and record must happen before the run completes`,
    {
      hint: sealed
        ? `session ${run.session_id} is sealed too: start a new one with \`maestro session create\``
        : `start a new run: \`maestro run start --session ${run.session_id}\``,
    },
  );
}

export interface StageRequest {
  session_id: string;
  run_id: string;
  target: 'spec' | 'knowhow';
  title: string;
  content: string;
  action?: CandidateAction;
  category?: string | null;
  evidence?: string[];
  /** Also record these knowledge ids with this signal (source `manual`). */
  signal?: Signal;
  signal_ids?: string[];
  /** Record signal ids that are not in the corpus instead of refusing. */
  allow_unknown?: boolean;
  /** Where the candidate comes from (default `manual`). */
  source_kind?: SourceKind;
}

export interface StageResult {
  session_id: string;
  run_id: string;
  candidate_id: string;
  reused: boolean;
  occurrences: number;
  title: string;
  signal_recorded: number;
  unknown_ids: string[];
  /** "resolved alias X to Y" for each maestro-flow id form given instead of a canonical id. */
  resolved_aliases: string[];
}

/**
 * `maestro knowledge stage`: validates, refuses a restage under another action anywhere in the
 * session, then stages under the ledger lock (re-checking the run's status inside it) and records
 * the optional signal in the same write.
 */
export async function stageKnowledge(
  layout: WorkflowLayout,
  req: StageRequest,
  runtime: Runtime,
): Promise<StageResult> {
  const input = checkStageInput({
    target: req.target,
    action: req.action ?? 'propose',
    title: req.title,
    content: req.content,
    category: req.category ?? null,
    source_kind: req.source_kind ?? 'manual',
    evidence_refs: [`run:${req.run_id}`, ...(req.evidence ?? [])],
  });
  assertRunAcceptsKnowledge(readRun(layout, req.session_id, req.run_id), layout);
  const known: KnownIds = req.signal
    ? resolveKnowledgeIds(layout, req.signal_ids ?? [], { allowUnknown: req.allow_unknown === true })
    : { ids: [], unknown: [], aliases: [] };
  refuseCrossRunActionConflict(layout, req.session_id, input.target, input.content, input.action);
  let outcome: ReturnType<typeof stageInto> | undefined;
  let recorded = 0;
  await updateDelta(
    layout,
    req.session_id,
    req.run_id,
    (delta) => {
      assertRunAcceptsKnowledge(readRun(layout, req.session_id, req.run_id), layout);
      const at = runtime.now().toISOString();
      outcome = stageInto(delta, input, at);
      if (req.signal) {
        recorded = recordInto(
          delta,
          { knowledge_ids: known.ids, signal: req.signal, source: 'manual', evidence: [] },
          at,
        ).length;
      }
    },
    runtime,
  );
  const c = outcome!.candidate;
  return {
    session_id: req.session_id,
    run_id: req.run_id,
    candidate_id: c.candidate_id,
    reused: outcome!.reused,
    occurrences: c.occurrences,
    title: c.title,
    signal_recorded: recorded,
    unknown_ids: known.unknown,
    resolved_aliases: known.aliases,
  };
}

/** The same content staged in another run of the session under another action is refused. */
function refuseCrossRunActionConflict(
  layout: WorkflowLayout,
  sessionId: string,
  target: 'spec' | 'knowhow',
  content: string,
  action: CandidateAction,
): void {
  const id = candidateId(target, content);
  const other = summarizeSession(layout, sessionId).candidates.find((c) => c.candidate_id === id);
  if (other && other.action !== action) throw actionConflict(id, other.action, action, sessionId);
}

export interface RecordRequest {
  session_id: string;
  run_id: string;
  knowledge_ids: string[];
  signal: Signal;
  source?: InputSource;
  evidence?: string[];
  allow_unknown?: boolean;
}

export interface RecordResult {
  session_id: string;
  run_id: string;
  recorded: number;
  signal: Signal;
  source: InputSource;
  inputs: LedgerInput[];
  unknown_ids: string[];
  /** "resolved alias X to Y" for each maestro-flow id form given instead of a canonical id. */
  resolved_aliases: string[];
}

/** `maestro knowledge record` (and `maestro load` with a run): explicit attribution only. */
export async function recordKnowledge(
  layout: WorkflowLayout,
  req: RecordRequest,
  runtime: Runtime,
): Promise<RecordResult> {
  const source = req.source ?? 'manual';
  if (req.knowledge_ids.length === 0) {
    throw inputError('NO_KNOWLEDGE_IDS', 'no knowledge ids to record', {
      hint: 'name the ids as printed by `maestro search` or `maestro spec list`, e.g. `maestro knowledge record S-20260101-ab12 --signal cited ...`',
    });
  }
  assertRunAcceptsKnowledge(readRun(layout, req.session_id, req.run_id), layout);
  const known = resolveKnowledgeIds(layout, req.knowledge_ids, { allowUnknown: req.allow_unknown === true });
  const inputs = await appendInputs(
    layout,
    req.session_id,
    req.run_id,
    { knowledge_ids: known.ids, signal: req.signal, source, evidence: req.evidence ?? [] },
    runtime,
  );
  return {
    session_id: req.session_id,
    run_id: req.run_id,
    recorded: inputs.length,
    signal: req.signal,
    source,
    inputs,
    unknown_ids: known.unknown,
    resolved_aliases: known.aliases,
  };
}

/**
 * Records already-resolved ids into a running run's ledger under its lock (the run's status is
 * re-checked inside the lock). Returns copies of the touched input rows.
 */
export async function appendInputs(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  input: RecordInput,
  runtime: Runtime,
): Promise<LedgerInput[]> {
  let inputs: LedgerInput[] = [];
  await updateDelta(
    layout,
    sessionId,
    runId,
    (delta) => {
      assertRunAcceptsKnowledge(readRun(layout, sessionId, runId), layout);
      inputs = recordInto(delta, input, runtime.now().toISOString()).map((i) => structuredClone(i));
    },
    runtime,
  );
  return inputs;
}

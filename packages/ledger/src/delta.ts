import { environmentError, type Issue, type Runtime, systemRuntime } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLock, writeFileAtomic } from '@maestro/fs';
import { runPaths } from './paths.js';
import { readRun } from './run.js';
import { type KnowledgeDelta, KnowledgeDeltaSchema } from './schemas.js';
import { damagedFileError, displayPath, parseRecord } from './validate.js';

/** A ledger with nothing in it, as a missing `knowledge-delta.json` reads. */
export function emptyDelta(sessionId: string, runId: string, at: string): KnowledgeDelta {
  return {
    schema_version: 'run-knowledge-delta/1.0',
    session_id: sessionId,
    run_id: runId,
    revision: 0,
    created_at: at,
    updated_at: at,
    inputs: [],
    candidates: [],
  };
}

/**
 * Parses a ledger's text (pure). Invalid JSON or a schema mismatch throws the named error
 * (`LEDGER_INVALID`, exit 2) with `file` and its first problems.
 */
export function parseDelta(text: string, file: string): KnowledgeDelta {
  const r = parseRecord(text, file, KnowledgeDeltaSchema, 'delta');
  if (r.value === null) throw damagedFileError('delta', file, r.issues);
  return r.value;
}

/**
 * The exact bytes we write for a ledger (2-space JSON, final newline). Pure, so other packages
 * can put it into a multi-file commit. Refuses (exit 3, a bug) to serialise an invalid ledger.
 */
export function serializeDelta(delta: KnowledgeDelta): string {
  const r = KnowledgeDeltaSchema.safeParse(delta);
  if (!r.success) {
    const first = r.error.issues[0];
    throw environmentError(
      'LEDGER_WRITE_INVALID',
      `refusing to write an invalid knowledge-delta.json for ${delta.session_id}/${delta.run_id}: ${first?.path.join('.')}: ${first?.message}`,
      { hint: 'this is a bug in the caller; nothing was written' },
    );
  }
  return `${JSON.stringify(r.data, null, 2)}\n`;
}

/** Reads the ledger file of a run folder without checking run.json (for callers that already did). */
export function readDeltaFile(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  runtime: Runtime = systemRuntime,
): { delta: KnowledgeDelta; exists: boolean } {
  const paths = runPaths(layout, sessionId, runId);
  const file = displayPath(layout.root, paths.delta);
  const text = readTextIfExists(paths.delta);
  if (text === null) return { delta: emptyDelta(sessionId, runId, runtime.now().toISOString()), exists: false };
  const delta = parseDelta(text, file);
  const mismatch: Issue[] = [];
  if (delta.session_id !== sessionId) {
    mismatch.push(issue(file, `session_id "${delta.session_id}" does not match its session "${sessionId}"`));
  }
  if (delta.run_id !== runId) mismatch.push(issue(file, `run_id "${delta.run_id}" does not match its run "${runId}"`));
  if (mismatch.length) throw damagedFileError('delta', file, mismatch);
  return { delta, exists: true };
}

function issue(file: string, message: string): Issue {
  return { file, severity: 'error', code: 'LEDGER_INVALID', message };
}

/**
 * A run's ledger. The run must exist (unknown → exit 2 with the fix); a missing file reads as an
 * empty ledger; a damaged one, or one copied from another run, is the named error (exit 2).
 */
export function readDelta(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  runtime: Runtime = systemRuntime,
): KnowledgeDelta {
  readRun(layout, sessionId, runId);
  return readDeltaFile(layout, sessionId, runId, runtime).delta;
}

/**
 * The one way to change a ledger: under `knowledge-delta.json.lock`, re-read it, apply `fn` to a
 * copy (mutate it or return a new one; throw to refuse, and nothing is written), bump `revision`
 * and `updated_at`, validate and write atomically. It does not check the run's status:
 * staging and recording do (`stageCandidate`, `recordInputs`); reconcile and promote update the
 * candidates of sealed runs through it.
 */
export async function updateDelta(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  fn: (delta: KnowledgeDelta) => KnowledgeDelta | undefined,
  runtime: Runtime,
): Promise<KnowledgeDelta> {
  const paths = runPaths(layout, sessionId, runId);
  readRun(layout, sessionId, runId);
  return withLock(paths.delta, async () => {
    const current = readDeltaFile(layout, sessionId, runId, runtime).delta;
    const draft = structuredClone(current);
    const next = fn(draft) ?? draft;
    const updated: KnowledgeDelta = {
      ...next,
      revision: current.revision + 1,
      updated_at: runtime.now().toISOString(),
    };
    await writeFileAtomic(paths.delta, serializeDelta(updated));
    return updated;
  });
}

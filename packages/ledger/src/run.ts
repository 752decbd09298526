import { existsSync, mkdirSync } from 'node:fs';
import { compactDate, type Issue, inputError, type Runtime, refusedError, slugify } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, withLock, writeFileAtomic } from '@maestro/fs';
import { fromFlowRun } from './foreign.js';
import { assertIdDate, assertRunId, runPaths, sessionPaths } from './paths.js';
import { publishDir } from './publish.js';
import { type RunRecord, RunRecordSchema } from './schemas.js';
import { isEmptyDir, listDirs, readSession } from './session.js';
import { damagedFileError, displayPath, issueFromError, parseRecord } from './validate.js';

export function serializeRun(run: RunRecord): string {
  return `${JSON.stringify(RunRecordSchema.parse(run), null, 2)}\n`;
}

/**
 * Reads and validates `runs/<run>/run.json`. Unknown session or run → exit 2 with the command
 * that lists them; a damaged file, or one whose ids disagree with its folders → exit 2 naming it.
 */
export function readRun(layout: WorkflowLayout, sessionId: string, runId: string): RunRecord {
  const paths = runPaths(layout, sessionId, runId);
  const file = displayPath(layout.root, paths.runJson);
  const text = readTextIfExists(paths.runJson);
  if (text === null) {
    if (!existsSync(sessionPaths(layout, sessionId).dir)) readSession(layout, sessionId); // throws "unknown session"
    if (isEmptyDir(paths.dir)) {
      const dir = displayPath(layout.root, paths.dir);
      throw inputError('RUN_INVALID', `${file} is missing and its folder is empty (an interrupted run start)`, {
        hint: `rmdir ${dir}, or recreate it with \`maestro run start --session ${sessionId} --id ${runId}\``,
        location: { file },
      });
    }
    if (existsSync(paths.dir)) {
      throw damagedFileError('run', file, [
        { file, severity: 'error', code: 'RUN_INVALID', message: 'the file is missing' },
      ]);
    }
    throw inputError('RUN_NOT_FOUND', `unknown run "${runId}" in session "${sessionId}"`, {
      hint: `run \`maestro session show ${sessionId}\` to see its runs, or \`maestro run start --session ${sessionId}\``,
    });
  }
  const r = parseRecord(text, file, RunRecordSchema, 'run', fromFlowRun);
  if (r.value === null) throw damagedFileError('run', file, r.issues);
  const mismatch: string[] = [];
  if (r.value.run_id !== runId) mismatch.push(`run_id "${r.value.run_id}" does not match its folder "${runId}"`);
  if (r.value.session_id !== sessionId) {
    mismatch.push(`session_id "${r.value.session_id}" does not match its session "${sessionId}"`);
  }
  if (mismatch.length) {
    throw damagedFileError(
      'run',
      file,
      mismatch.map((message) => ({ file, severity: 'error', code: 'RUN_INVALID', message })),
    );
  }
  return r.value;
}

/**
 * The session's runs, sorted by id. A run folder with a bad name, an invalid run.json, or ids that
 * disagree with the folders is reported and skipped, so a copied folder cannot pose as a run.
 */
export function listRuns(layout: WorkflowLayout, sessionId: string): { runs: RunRecord[]; problems: Issue[] } {
  const paths = sessionPaths(layout, sessionId);
  const runs: RunRecord[] = [];
  const problems: Issue[] = [];
  for (const name of listDirs(paths.runsDir)) {
    const file = displayPath(layout.root, `${paths.runsDir}/${name}`);
    try {
      assertRunId(name);
      runs.push(readRun(layout, sessionId, name));
    } catch (err) {
      problems.push(issueFromError(err, file));
    }
  }
  return { runs, problems };
}

export interface StartRunOptions {
  sessionId: string;
  id?: string;
  /** The command this run executes, e.g. `plan`; the last part of a generated id. Default `run`. */
  command?: string;
}

/**
 * Starts a run in a running session. Without an id it is `YYYYMMDD-NNN-<command>`, NNN one more
 * than the highest in the session. Holds the session lock so `session seal` cannot interleave.
 */
export async function startRun(layout: WorkflowLayout, options: StartRunOptions, runtime: Runtime): Promise<RunRecord> {
  const command = (options.command ?? 'run').trim();
  const commandSlug = slugify(command, 40);
  if (!commandSlug) {
    throw inputError('INVALID_COMMAND', `--command "${command}" has no ASCII letters or digits to name the run with`, {
      hint: 'use a short name such as plan, execute or review (the run id is made of it)',
    });
  }
  const sp = sessionPaths(layout, options.sessionId);
  readSession(layout, options.sessionId); // unknown or damaged: fail before creating a lock file
  return withLock(sp.sessionJson, async () => {
    const session = readSession(layout, options.sessionId);
    if (session.status !== 'running') {
      throw refusedError('SESSION_SEALED', `session "${session.session_id}" is sealed; it takes no new runs`, {
        hint: 'create a new session: `maestro session create`',
      });
    }
    mkdirSync(sp.runsDir, { recursive: true });
    const now = runtime.now();
    const at = now.toISOString();
    const record = (run_id: string): RunRecord => ({
      schema_version: 'maestro-run/1.0',
      run_id,
      session_id: options.sessionId,
      command,
      status: 'running',
      created_at: at,
      updated_at: at,
      completed_at: null,
      sealed_at: null,
      summary: null,
      revision: 0,
    });
    const publish = (id: string) => publishDir(sp.runsDir, id, 'run.json', serializeRun(record(id)));
    if (options.id === undefined) return record(nextRunId(sp.runsDir, compactDate(now), commandSlug, publish));
    assertRunId(options.id);
    assertIdDate(options.id, 'run');
    if (!publish(options.id)) {
      throw inputError('RUN_EXISTS', `run "${options.id}" already exists in session "${options.sessionId}"`, {
        hint: 'pick another --id, or leave it out to get the next free one',
      });
    }
    return record(options.id);
  });
}

/** Publishes the next free `YYYYMMDD-NNN-command` run (the rename decides races). */
function nextRunId(runsDir: string, day: string, command: string, publish: (id: string) => boolean): string {
  let n = 0;
  for (const name of listDirs(runsDir)) {
    const m = /^\d{8}-(\d{3})-/.exec(name);
    if (m) n = Math.max(n, Number(m[1]));
  }
  for (;;) {
    n++;
    const id = `${day}-${String(n).padStart(3, '0')}-${command}`;
    if (publish(id)) return id;
  }
}

/**
 * Changes run.json under its lock: re-reads, applies `fn` (which may throw to refuse), bumps
 * `revision` and `updated_at`, validates, writes atomically.
 */
export async function updateRun(
  layout: WorkflowLayout,
  sessionId: string,
  runId: string,
  fn: (run: RunRecord) => RunRecord | undefined,
  runtime: Runtime,
): Promise<RunRecord> {
  const paths = runPaths(layout, sessionId, runId);
  readRun(layout, sessionId, runId); // unknown or damaged: fail before creating a lock file
  return withLock(paths.runJson, async () => {
    const current = readRun(layout, sessionId, runId);
    const draft = structuredClone(current);
    const next = fn(draft) ?? draft;
    const updated: RunRecord = { ...next, revision: current.revision + 1, updated_at: runtime.now().toISOString() };
    await writeFileAtomic(paths.runJson, serializeRun(updated));
    return updated;
  });
}

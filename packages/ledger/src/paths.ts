import { join } from 'node:path';
import { inputError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { RUN_ID_PATTERN, SESSION_ID_PATTERN } from './schemas.js';

export interface SessionPaths {
  dir: string;
  sessionJson: string;
  runsDir: string;
}

export interface RunPaths {
  dir: string;
  runJson: string;
  report: string;
  delta: string;
  /** The reconciliation receipt, `knowledge-reconciliation.json`, owned by @maestro/reconcile. */
  receipt: string;
}

/** Longest session or run id: it names a folder, and a file name holds at most 255 bytes. */
export const MAX_ID_LENGTH = 200;

function assertLength(kind: string, id: string): void {
  if (id.length <= MAX_ID_LENGTH) return;
  throw inputError(
    'ID_TOO_LONG',
    `${kind} id "${id.slice(0, 40)}…" is ${id.length} characters; ids are at most ${MAX_ID_LENGTH}`,
    {
      hint: `use a shorter id (run \`maestro session list\` to see the sessions)`,
    },
  );
}

/** Session ids are `YYYYMMDD-slug`, at most 200 characters; anything else (including `..`) is bad input. */
export function assertSessionId(id: string): void {
  assertLength('session', id);
  if (!SESSION_ID_PATTERN.test(id)) {
    throw inputError('INVALID_SESSION_ID', `invalid session id "${id}": expected YYYYMMDD-slug, e.g. 20260101-auth`, {
      hint: 'run `maestro session list` to see the sessions',
    });
  }
}

/** Run ids are `YYYYMMDD-NNN-command`. */
export function assertRunId(id: string): void {
  assertLength('run', id);
  if (!RUN_ID_PATTERN.test(id)) {
    throw inputError(
      'INVALID_RUN_ID',
      `invalid run id "${id}": expected YYYYMMDD-NNN-command, e.g. 20260101-001-plan`,
      {
        hint: 'run `maestro session show <session>` to see its runs',
      },
    );
  }
}

/**
 * A new session or run id given by the user must start with a real calendar day: `20261399-x` has
 * the right shape but would sort and read as a date that never existed. Existing ids are only
 * shape-checked, so folders written by other tools stay readable.
 */
export function assertIdDate(id: string, what: 'session' | 'run'): void {
  const y = Number(id.slice(0, 4));
  const m = Number(id.slice(4, 6));
  const d = Number(id.slice(6, 8));
  const day = new Date(Date.UTC(y, m - 1, d));
  if (day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d) return;
  throw inputError(
    what === 'session' ? 'INVALID_SESSION_ID' : 'INVALID_RUN_ID',
    `invalid ${what} id "${id}": ${id.slice(0, 8)} is not a calendar date (YYYYMMDD)`,
    { hint: `start the id with a real date, e.g. ${what === 'session' ? '20260101-auth' : '20260101-001-plan'}` },
  );
}

export function sessionPaths(layout: WorkflowLayout, sessionId: string): SessionPaths {
  assertSessionId(sessionId);
  const dir = join(layout.sessions, sessionId);
  return { dir, sessionJson: join(dir, 'session.json'), runsDir: join(dir, 'runs') };
}

export function runPaths(layout: WorkflowLayout, sessionId: string, runId: string): RunPaths {
  assertRunId(runId);
  const dir = join(sessionPaths(layout, sessionId).runsDir, runId);
  return {
    dir,
    runJson: join(dir, 'run.json'),
    report: join(dir, 'report.md'),
    delta: join(dir, 'knowledge-delta.json'),
    receipt: join(dir, 'knowledge-reconciliation.json'),
  };
}

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

/** Session ids are `YYYYMMDD-slug`; anything else (including `..`) is bad input. */
export function assertSessionId(id: string): void {
  if (!SESSION_ID_PATTERN.test(id)) {
    throw inputError('INVALID_SESSION_ID', `invalid session id "${id}": expected YYYYMMDD-slug, e.g. 20260101-auth`, {
      hint: 'run `maestro session list` to see the sessions',
    });
  }
}

/** Run ids are `YYYYMMDD-NNN-command`. */
export function assertRunId(id: string): void {
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

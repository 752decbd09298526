import { spawnSync } from 'node:child_process';
import { environmentError } from '@maestro/core';

export interface GitRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `git` with arguments (never through a shell) in `cwd`. A missing git binary is an
 * environment error (exit 3); a non-zero status is returned for the caller to judge.
 */
export function runGit(args: readonly string[], cwd: string, input?: string): GitRun {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', input, maxBuffer: 256 * 1024 * 1024 });
  if (r.error) {
    throw environmentError('GIT_UNAVAILABLE', `cannot run git: ${r.error.message}`, {
      hint: 'install git and make sure it is on PATH',
      cause: r.error,
    });
  }
  return { status: r.status ?? 128, stdout: r.stdout, stderr: r.stderr };
}

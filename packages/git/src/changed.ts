import { inputError } from '@maestro/core';
import { runGit } from './run-git.js';

export interface ChangedSessions {
  ref: string;
  /** Session ids with a file under `.workflow/sessions/<id>/` changed since `ref`, sorted. */
  sessions: string[];
  /** Every changed path under `.workflow/`, relative to the project root. */
  files: string[];
}

function lines(text: string): string[] {
  return text.split('\0').filter(Boolean);
}

/**
 * The sessions a branch touched: files under `.workflow/sessions/` that differ between the merge
 * base of `ref` and HEAD (`git diff <ref>...HEAD`), plus uncommitted and untracked ones, so it
 * also works before a commit. A ref git cannot resolve is bad input (exit 2) naming it.
 */
export function changedSessions(root: string, ref: string): ChangedSessions {
  const verify = runGit(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], root);
  if (verify.status !== 0) {
    throw inputError('UNKNOWN_GIT_REF', `--changed-since ${ref}: git does not know the ref "${ref}"`, {
      hint: 'name a branch, tag or commit that exists here (in CI, fetch it first: `git fetch origin main` and check out with fetch-depth: 0)',
      details: { ref },
    });
  }
  const scope = ['--', '.workflow'];
  const runs = [
    ['diff', '--name-only', '-z', '--relative', `${ref}...HEAD`, ...scope],
    ['diff', '--name-only', '-z', '--relative', 'HEAD', ...scope],
    ['ls-files', '--others', '--exclude-standard', '-z', ...scope],
  ];
  const files = new Set<string>();
  for (const args of runs) {
    const r = runGit(args, root);
    if (r.status !== 0) {
      throw inputError('GIT_DIFF_FAILED', `--changed-since ${ref}: git ${args[0]} failed: ${r.stderr.trim()}`, {
        hint: `check that ${ref} and HEAD share history (a shallow CI clone needs fetch-depth: 0)`,
        details: { ref },
      });
    }
    for (const f of lines(r.stdout)) files.add(f);
  }
  const sessions = new Set<string>();
  for (const f of files) {
    const m = /^\.workflow\/sessions\/([^/]+)\//.exec(f);
    if (m) sessions.add(m[1]);
  }
  return { ref, sessions: [...sessions].sort(), files: [...files].sort() };
}

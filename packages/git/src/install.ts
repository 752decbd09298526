import { existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inputError } from '@maestro/core';
import { writeFileAtomic } from '@maestro/fs';
import { runGit } from './run-git.js';
import { readExactText } from './text-file.js';

/** The comment that marks the lines `maestro git install` owns in `.gitattributes`. */
export const ATTRIBUTES_MARK =
  '# maestro: merge specs and knowhow entry by entry (`maestro git uninstall` removes these lines)';
const DRIVER_NAME = 'Maestro: three-way merge of .workflow specs and knowhow by entry';

export interface GitSetupStatus {
  repository: string;
  attributes_file: string;
  /** The `.gitattributes` lines Maestro owns, and whether each is present. */
  attributes: { line: string; present: boolean }[];
  /** `merge.maestro.driver` in the repository's local config, or null. */
  driver: string | null;
  /** What `git check-attr merge` says for a spec file: `maestro` once installed. */
  effective: string | null;
  installed: boolean;
}

export interface GitSetupResult extends GitSetupStatus {
  changed: boolean;
}

/** The repository's top level for a project root; not a repository is bad input (exit 2). */
function toplevel(root: string): string {
  const r = runGit(['rev-parse', '--show-toplevel'], root);
  if (r.status !== 0) {
    throw inputError('NOT_A_GIT_REPOSITORY', `${root} is not inside a git repository`, {
      hint: 'run `git init` (or clone the project) first; the merge driver is configured per repository',
    });
  }
  return r.stdout.trim();
}

function ownedLines(top: string, root: string): string[] {
  const prefix = relative(top, root).split('\\').join('/');
  const base = prefix ? `${prefix}/.workflow` : '.workflow';
  return [ATTRIBUTES_MARK, `${base}/specs/*.md merge=maestro`, `${base}/knowhow/*.md merge=maestro`];
}

/** The current `.gitattributes` text ('' when absent); bytes that are not UTF-8 are refused, never rewritten. */
function attributesText(file: string): string {
  if (!existsSync(file)) return '';
  const text = readExactText(file);
  if (text === null) {
    throw inputError('FILE_NOT_UTF8', `${file} is not valid UTF-8 text`, {
      hint: 'convert it to UTF-8 (or add the lines from `maestro git status` by hand); nothing was written',
      location: { file },
    });
  }
  return text;
}

function configGet(top: string, key: string): string | null {
  const r = runGit(['config', '--local', '--get', key], top);
  return r.status === 0 ? r.stdout.replace(/\r?\n$/, '') : null;
}

/** Whether the merge driver is set up for the repository holding `root` (read-only). */
export function gitSetupStatus(root: string): GitSetupStatus {
  const top = toplevel(root);
  const file = join(top, '.gitattributes');
  const text = attributesText(file);
  const have = new Set(text.split(/\r?\n/));
  const lines = ownedLines(top, root);
  const probe = relative(top, join(root, '.workflow/specs/x.md')).split('\\').join('/');
  const check = runGit(['check-attr', 'merge', '--', probe], top);
  const effective = check.status === 0 ? (check.stdout.trim().split(': ').pop() ?? null) : null;
  const driver = configGet(top, 'merge.maestro.driver');
  const attributes = lines.map((line) => ({ line, present: have.has(line) }));
  return {
    repository: top,
    attributes_file: file,
    attributes,
    driver,
    effective,
    installed: driver !== null && attributes.every((a) => a.present),
  };
}

/**
 * Writes the `.gitattributes` lines and the local `merge.maestro.driver` config. Idempotent: lines
 * already there are not added twice, the user's other lines and the file's line endings are kept.
 */
export async function installGitMerge(root: string, driverCommand: string): Promise<GitSetupResult> {
  const before = gitSetupStatus(root);
  const top = before.repository;
  let changed = false;
  const missing = before.attributes.filter((a) => !a.present).map((a) => a.line);
  if (missing.length) {
    const file = before.attributes_file;
    const text = attributesText(file);
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    const sep = text === '' || text.endsWith('\n') ? '' : eol;
    await writeFileAtomic(file, `${text}${sep}${missing.join(eol)}${eol}`);
    changed = true;
  }
  for (const [key, value] of [
    ['merge.maestro.name', DRIVER_NAME],
    ['merge.maestro.driver', driverCommand],
  ] as const) {
    if (configGet(top, key) === value) continue;
    const r = runGit(['config', '--local', key, value], top);
    if (r.status !== 0) throw inputError('GIT_CONFIG_FAILED', `git config ${key} failed: ${r.stderr.trim()}`);
    changed = true;
  }
  return { ...gitSetupStatus(root), changed };
}

/** Removes exactly what `installGitMerge` wrote; other `.gitattributes` lines and config stay. */
export async function uninstallGitMerge(root: string): Promise<GitSetupResult> {
  const before = gitSetupStatus(root);
  const top = before.repository;
  let changed = false;
  const owned = new Set(before.attributes.map((a) => a.line));
  const file = before.attributes_file;
  if (before.attributes.some((a) => a.present)) {
    const text = attributesText(file);
    const kept = text.split(/(?<=\n)/).filter((l) => !owned.has(l.replace(/\r?\n$/, '')));
    const next = kept.join('');
    if (next.trim() === '') rmSync(file);
    else await writeFileAtomic(file, next);
    changed = true;
  }
  for (const key of ['merge.maestro.driver', 'merge.maestro.name']) {
    if (configGet(top, key) === null) continue;
    runGit(['config', '--local', '--unset', key], top);
    changed = true;
  }
  if (changed) runGit(['config', '--local', '--remove-section', 'merge.maestro'], top); // empty section, if left
  return { ...gitSetupStatus(root), changed };
}

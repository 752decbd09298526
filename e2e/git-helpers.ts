import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDir, runMaestro, tmpProject } from '@maestro/test-utils';
import { afterAll, expect } from 'vitest';

/** Temp git repositories for the merge-driver and gate tests: real git, the built binary as driver. */

export const SPEC = '.workflow/specs/coding-conventions.md';

export function git(root: string, ...args: string[]): { code: number; out: string } {
  const r = spawnSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_DATE: '2026-06-01T09:00:00Z' },
  });
  return { code: r.status ?? 128, out: `${r.stdout}${r.stderr}` };
}

export function ok(root: string, ...args: string[]): string {
  const r = git(root, ...args);
  expect(r.code, `git ${args.join(' ')}\n${r.out}`).toBe(0);
  return r.out;
}

export function maestro(root: string, ...args: string[]) {
  return runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: '2026-06-01T09:00:00.000Z' } });
}

/** `git init` + config + `maestro init` (+ `maestro git install`), nothing committed: made once per file. */
const templates = new Map<boolean, string>();

afterAll(() => {
  for (const dir of templates.values()) rmSync(dir, { recursive: true, force: true });
  templates.clear();
});

function template(install: boolean): string {
  let root = templates.get(install);
  if (root) return root;
  root = mkdtempSync(join(tmpdir(), 'maestro-git-template-'));
  templates.set(install, root);
  mkdirSync(join(root, '.workflow'));
  ok(root, 'init', '-q', '-b', 'main');
  ok(root, 'config', 'user.email', 't@example.com');
  ok(root, 'config', 'user.name', 'T');
  ok(root, 'config', 'core.autocrlf', 'false');
  expect(maestro(root, 'init').code).toBe(0);
  // The driver's `.gitattributes` lines and git config do not depend on the spec files written next.
  if (install) expect(maestro(root, 'git', 'install').code).toBe(0);
  return root;
}

/** A repository with `.workflow/`, the merge driver installed and one commit on `main`. */
export function repo(files: Record<string, string> = {}, install = true): string {
  const root = tmpProject();
  copyDir(template(install), root);
  for (const [p, t] of Object.entries(files)) writeFileSync(join(root, p), t);
  commitAll(root, 'base');
  return root;
}

export function commitAll(root: string, message: string): void {
  ok(root, 'add', '-A');
  ok(root, 'commit', '-q', '-m', message);
}

export const read = (root: string, p = SPEC) => readFileSync(join(root, p), 'utf8');
export const write = (root: string, text: string, p = SPEC) => writeFileSync(join(root, p), text);
export const remove = (root: string, p: string) => rmSync(join(root, p));

/** Commits `theirs` on a branch and `ours` on main, then merges the branch into main. */
export function mergeSides(
  root: string,
  ours: (root: string) => void,
  theirs: (root: string) => void,
): { code: number; out: string } {
  ok(root, 'checkout', '-q', '-b', 'theirs');
  theirs(root);
  commitAll(root, 'theirs');
  ok(root, 'checkout', '-q', 'main');
  ours(root);
  commitAll(root, 'ours');
  return git(root, 'merge', '--no-edit', 'theirs');
}

export interface E {
  sid: string;
  title: string;
  body: string;
  extra?: string;
}

export function entry(e: E, eol = '\n'): string {
  return [
    `<spec-entry category="coding" keywords="coding" date="2026-01-01" sid="${e.sid}" title="${e.title}"${e.extra ?? ''}>`,
    '',
    `### ${e.title}`,
    '',
    e.body,
    '',
    '</spec-entry>',
  ].join(eol);
}

export function specText(entries: E[], eol = '\n', header = '# Coding Conventions'): string {
  return [header, '', '## Entries', '', ...entries.flatMap((e) => [entry(e, eol), ''])].join(eol);
}

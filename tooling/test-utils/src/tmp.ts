import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, onTestFinished } from 'vitest';

/** An inline file tree: relative path → file content. */
export type Tree = Record<string, string>;

/** A fresh temp dir, removed automatically when the current test finishes. */
export function tmpDir(prefix = 'maestro-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  } catch {
    // outside a test (e.g. in beforeAll): the caller cleans up
  }
  return dir;
}

export function writeTree(root: string, tree: Tree): void {
  for (const [rel, content] of Object.entries(tree)) {
    const abs = join(root, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
}

/**
 * A temp project root. Keys of `tree` are relative to the project root, e.g.
 * `.workflow/specs/coding-conventions.md`.
 */
export function tmpProject(tree: Tree = {}): string {
  const root = tmpDir('maestro-proj-');
  mkdirSync(join(root, '.workflow'), { recursive: true });
  writeTree(root, tree);
  return root;
}

/**
 * Derived state (`.workflow/.index/`: the store, search index, caches) is rebuilt from the text
 * files at any time and may be written by any command, so before/after comparisons leave it out
 * unless a `skip` is given.
 */
export const skipDerived = (rel: string): boolean => /(^|[\\/])\.index([\\/]|$)/.test(rel);

/** Every file under `root` (relative path → content), for before/after comparisons. */
export function readTree(root: string, skip: (rel: string) => boolean = skipDerived): Tree {
  const out: Tree = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      const rel = relative(root, abs);
      if (skip(rel)) continue;
      if (statSync(abs).isDirectory()) walk(abs);
      else out[rel] = readFileSync(abs, 'latin1');
    }
  };
  walk(root);
  return out;
}

export function copyDir(from: string, to: string): void {
  cpSync(from, to, { recursive: true });
}

/**
 * A project set up once per test file (in `beforeAll`, e.g. by a dozen CLI runs) and copied
 * fresh for each test that calls the returned function, so every test still starts from the
 * same state and may change its copy freely. Call it at the top of a test file or describe
 * block. The set-up's own temp dirs outlive the test that would otherwise remove them: it
 * returns the directory to copy, which is removed after the file's tests.
 */
export function projectTemplate(build: () => string, timeout = 120_000): () => string {
  let template: string | null = null;
  beforeAll(() => {
    template = build();
  }, timeout);
  afterAll(() => {
    if (template) rmSync(template, { recursive: true, force: true });
  });
  return () => {
    if (template === null) throw new Error('projectTemplate: the template is built in beforeAll; call this in a test');
    const root = tmpDir('maestro-proj-');
    copyDir(template, root);
    return root;
  };
}

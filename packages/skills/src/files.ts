import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { sha256 } from '@maestro/core';
import type { SkillFile, SkillFileKind, SkillIssue } from './model.js';

/** Bounds of a skill folder walk (the Agent Skills client guide suggests depth 4–6, 2000 entries). */
export const SKILL_LIMITS = {
  maxDepth: 6,
  maxEntries: 2000,
  /** SKILL.md is loaded whole by an agent: above this it is refused. */
  maxSkillMdBytes: 1024 * 1024,
  /** One resource file above this is refused (it would not be loaded on demand sensibly). */
  maxFileBytes: 16 * 1024 * 1024,
  maxTotalBytes: 64 * 1024 * 1024,
} as const;

const SCRIPT_EXT = /\.(sh|bash|zsh|fish|py|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|lua|go|rs)$/i;
const REFERENCE_EXT = /\.(md|markdown|txt|rst|adoc|json|ya?ml|toml|csv|xml|html?)$/i;
const SKIPPED = new Set(['.git', 'node_modules']);

export interface WalkResult {
  files: (SkillFile & { abs: string })[];
  issues: SkillIssue[];
}

/**
 * Lists every regular file of a skill folder with its hash, without following anything out of
 * it: a symlink is read only when its target lies inside the folder, loops are cut by a visited
 * set of real paths, FIFOs and devices are refused unopened-for-reading. Nothing is executed,
 * imported or evaluated; bytes are only hashed.
 */
export function walkSkill(dir: string): WalkResult {
  const out: WalkResult = { files: [], issues: [] };
  const rootReal = realpathSync(dir);
  const visited = new Set<string>([rootReal]);
  let entries = 0;
  let total = 0;
  const visit = (abs: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(abs).sort();
    } catch (err) {
      out.issues.push(problem(rel(dir, abs), 'SKILL_UNREADABLE', `cannot read directory: ${(err as Error).message}`));
      return;
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      if (++entries > SKILL_LIMITS.maxEntries) {
        if (entries === SKILL_LIMITS.maxEntries + 1)
          out.issues.push(
            problem('.', 'SKILL_TOO_MANY_FILES', `more than ${SKILL_LIMITS.maxEntries} entries; rest not read`),
          );
        return;
      }
      const path = join(abs, name);
      const relPath = rel(dir, path);
      const target = resolveEntry(path, relPath, rootReal, out.issues);
      if (!target) continue;
      if (target.isDir) {
        if (visited.has(target.real)) {
          out.issues.push(problem(relPath, 'SKILL_SYMLINK_LOOP', 'symlink loop: this directory was already visited'));
          continue;
        }
        visited.add(target.real);
        if (depth >= SKILL_LIMITS.maxDepth) {
          out.issues.push(
            problem(relPath, 'SKILL_TOO_DEEP', `nested deeper than ${SKILL_LIMITS.maxDepth} levels; not read`),
          );
          continue;
        }
        visit(path, depth + 1);
        continue;
      }
      const file = hashFile(path, relPath, out.issues);
      if (!file) continue;
      total += file.size;
      if (total > SKILL_LIMITS.maxTotalBytes) {
        out.issues.push(
          problem(relPath, 'SKILL_TOO_LARGE', `the skill exceeds ${mib(SKILL_LIMITS.maxTotalBytes)} in total`),
        );
        return;
      }
      out.files.push({ ...file, abs: path });
    }
  };
  visit(dir, 1);
  return out;
}

function resolveEntry(
  path: string,
  relPath: string,
  rootReal: string,
  issues: SkillIssue[],
): { isDir: boolean; real: string } | null {
  const st = lstatSync(path);
  if (st.isDirectory()) return { isDir: true, real: realpathSync(path) };
  if (st.isFile()) return { isDir: false, real: path };
  if (!st.isSymbolicLink()) {
    issues.push(problem(relPath, 'SKILL_NOT_REGULAR_FILE', 'not a regular file (FIFO, socket or device); not read'));
    return null;
  }
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    issues.push(problem(relPath, 'SKILL_BROKEN_SYMLINK', 'symlink whose target does not exist (or a loop)'));
    return null;
  }
  if (!isInside(rootReal, real)) {
    issues.push(
      problem(relPath, 'SKILL_PATH_ESCAPE', `symlink points outside the skill folder (${real})`, {
        hint: 'copy the file into the skill folder instead of linking to it',
      }),
    );
    return null;
  }
  const st2 = lstatSync(real);
  return { isDir: st2.isDirectory(), real };
}

function hashFile(path: string, relPath: string, issues: SkillIssue[]): Omit<SkillFile, 'abs'> | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    issues.push(problem(relPath, 'SKILL_UNREADABLE', `cannot open: ${(err as Error).message}`));
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      issues.push(problem(relPath, 'SKILL_NOT_REGULAR_FILE', 'not a regular file (FIFO, socket or device); not read'));
      return null;
    }
    if (st.size > SKILL_LIMITS.maxFileBytes) {
      issues.push(
        problem(
          relPath,
          'SKILL_FILE_TOO_LARGE',
          `${mib(st.size)} is over the ${mib(SKILL_LIMITS.maxFileBytes)} limit per file`,
        ),
      );
      return null;
    }
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < st.size) {
      const n = readSync(fd, buf, got, st.size - got, got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    return { path: relPath, sha256: sha256(bytes), size: got, kind: kindOf(relPath, bytes, st.mode) };
  } finally {
    closeSync(fd);
  }
}

/** Scripts: under `scripts/`, a script extension, an executable bit or a `#!` line. */
export function kindOf(path: string, bytes: Uint8Array, mode = 0o644): SkillFileKind {
  if (path === 'SKILL.md') return 'instructions';
  const shebang = bytes[0] === 0x23 && bytes[1] === 0x21;
  if (path.startsWith('scripts/') || SCRIPT_EXT.test(path) || shebang || (mode & 0o111) !== 0) return 'script';
  if (path.startsWith('references/') || REFERENCE_EXT.test(path)) return 'reference';
  return 'asset';
}

export function isInside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

function rel(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/') || '.';
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function problem(file: string, code: string, message: string, extra: Partial<SkillIssue> = {}): SkillIssue {
  return { severity: 'error', code, message, file, ...extra };
}

/** The identity of a folder's content: independent of walk order and timestamps. */
export function manifestHash(files: readonly { path: string; sha256: string }[]): string {
  const lines = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return sha256(lines.map((f) => `${f.path}\u0000${f.sha256}`).join('\n'));
}

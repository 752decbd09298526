import { realpathSync } from 'node:fs';
import { isAbsolute, join, posix, sep } from 'node:path';

/** True when `child` is `parent` or below it (both absolute, already resolved). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const base = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(base);
}

/** `documents/x.md#offline` → `documents/x.md`; anchors are not part of the path. */
export function stripAnchor(ref: string): string {
  const hash = ref.indexOf('#');
  return hash === -1 ? ref : ref.slice(0, hash);
}

export type PathProblem = 'empty' | 'absolute' | 'escapes';

/**
 * Lexical check of a path reference written in a pack: it must be relative to the pack root and
 * stay inside it after normalisation. Backslashes count as separators so `..\\x` is caught too.
 */
export function checkPackPath(ref: string): { path: string } | { problem: PathProblem } {
  const raw = stripAnchor(ref).trim();
  if (raw === '') return { problem: 'empty' };
  const slashed = raw.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed) || isAbsolute(raw)) return { problem: 'absolute' };
  const norm = posix.normalize(slashed);
  if (norm === '..' || norm.startsWith('../')) return { problem: 'escapes' };
  return { path: norm === '.' ? '' : norm.replace(/\/$/, '') };
}

export function describePathProblem(problem: PathProblem, ref: string): string {
  if (problem === 'empty') return 'path is empty';
  if (problem === 'absolute') return `absolute path not allowed: ${ref} (paths resolve from the pack root)`;
  return `path escapes the pack root: ${ref}`;
}

export type ResolvedPath =
  | { ok: true; rel: string; abs: string; real: string | null }
  | { ok: false; problem: PathProblem | 'symlink-escape'; message: string };

/**
 * Resolves a pack-relative reference to an absolute path that is guaranteed to stay inside the
 * pack: the lexical check first, then the realpath (symlinks) when the file exists. `real` is
 * null when the target does not exist. Nothing outside the root is ever opened.
 */
export function resolvePackPath(realRoot: string, ref: string): ResolvedPath {
  const checked = checkPackPath(ref);
  if ('problem' in checked)
    return { ok: false, problem: checked.problem, message: describePathProblem(checked.problem, ref) };
  const abs = join(realRoot, checked.path);
  let real: string | null = null;
  try {
    real = realpathSync(abs);
  } catch {
    return { ok: true, rel: checked.path, abs, real: null };
  }
  if (!isInside(realRoot, real)) {
    return {
      ok: false,
      problem: 'symlink-escape',
      message: `symlink escapes the pack root: ${checked.path} -> ${real}`,
    };
  }
  return { ok: true, rel: checked.path, abs, real };
}

/** realpath that reports failure as null (ELOOP, ENOENT, EACCES, ENAMETOOLONG). */
export function safeRealpath(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

import { type Dirent, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PackIssue } from './model.js';
import { isInside, safeRealpath } from './paths.js';

export interface PackFile {
  /** Path relative to the pack root, forward slashes. */
  rel: string;
  /** The real path to open (always inside the pack root). */
  real: string;
  size: number;
}

export interface TreeOptions {
  /** Sub-directory to list (`compiled`, `wiki`), or '' for the whole pack. */
  under: string;
  maxDepth: number;
  maxEntries: number;
  /** Directory names not descended into (matched at any level below `under`). */
  skip?: ReadonlySet<string>;
}

/**
 * Lists the files of (a part of) a pack without following anything out of it: dot-directories are
 * skipped, symlinks are resolved and refused when they leave the pack root (an error finding
 * naming the link), directory symlinks inside the pack are not descended twice (realpath visited
 * set), and depth and entry count are bounded. Nothing is read.
 */
export function listPackFiles(realRoot: string, options: TreeOptions): { files: PackFile[]; issues: PackIssue[] } {
  const files: PackFile[] = [];
  const issues: PackIssue[] = [];
  const startReal = safeRealpath(options.under ? join(realRoot, options.under) : realRoot);
  if (startReal === null) return { files, issues };
  if (!isInside(realRoot, startReal)) return { files, issues: [escapeLink(options.under, startReal)] };
  const visited = new Set<string>([startReal]);
  const stack: Dir[] = [{ dir: startReal, rel: options.under, depth: 0 }];
  let seen = 0;
  while (stack.length > 0) {
    const at = stack.pop() as Dir;
    for (const entry of readSorted(at.dir)) {
      if (++seen > options.maxEntries) {
        const message = `stopped after ${options.maxEntries} entries; the rest of the pack was not checked`;
        issues.push({ severity: 'warning', code: 'PACK_TREE_LIMIT', file: at.rel || '.', message });
        return { files: files.sort(byRel), issues };
      }
      if (entry.name.startsWith('.') || options.skip?.has(entry.name)) continue;
      const rel = at.rel ? `${at.rel}/${entry.name}` : entry.name;
      const found = inspect(realRoot, join(at.dir, entry.name), rel, entry.isSymbolicLink(), issues);
      if (found?.kind === 'file') files.push({ rel, real: found.real, size: found.size });
      else if (found?.kind === 'dir' && at.depth + 1 <= options.maxDepth && !visited.has(found.real)) {
        visited.add(found.real);
        stack.push({ dir: found.real, rel, depth: at.depth + 1 });
      }
    }
  }
  return { files: files.sort(byRel), issues };
}

interface Dir {
  dir: string;
  rel: string;
  depth: number;
}

/** Reverse-sorted, so popping the stack walks in sorted order. */
function readSorted(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : -1));
  } catch {
    return [];
  }
}

/** Resolves one entry; a symlink leaving the pack (or going nowhere) is a finding and null. */
function inspect(
  realRoot: string,
  abs: string,
  rel: string,
  symlink: boolean,
  issues: PackIssue[],
): { kind: 'file' | 'dir'; real: string; size: number } | null {
  let real = abs;
  if (symlink) {
    const target = safeRealpath(abs);
    if (target === null) {
      issues.push({
        severity: 'error',
        code: 'PACK_SYMLINK_BROKEN',
        file: rel,
        message: `broken or looping symlink: ${rel}`,
      });
      return null;
    }
    if (!isInside(realRoot, target)) {
      issues.push(escapeLink(rel, target));
      return null;
    }
    real = target;
  }
  try {
    const stat = statSync(real);
    if (stat.isDirectory()) return { kind: 'dir', real, size: 0 };
    return stat.isFile() ? { kind: 'file', real, size: stat.size } : null;
  } catch {
    return null;
  }
}

function byRel(a: PackFile, b: PackFile): number {
  return a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0;
}

function escapeLink(rel: string, target: string): PackIssue {
  return {
    severity: 'error',
    code: 'PACK_SYMLINK_ESCAPE',
    file: rel,
    message: `symlink escapes the pack root: ${rel} -> ${target}; it is never read`,
    hint: 'copy the file into the pack instead of linking to it',
  };
}

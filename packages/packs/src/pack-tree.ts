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
  const start = options.under ? join(realRoot, options.under) : realRoot;
  const startReal = safeRealpath(start);
  if (startReal === null) return { files, issues };
  if (!isInside(realRoot, startReal)) {
    issues.push(escapeLink(options.under, startReal));
    return { files, issues };
  }
  const visited = new Set<string>([startReal]);
  const stack: { dir: string; rel: string; depth: number }[] = [{ dir: startReal, rel: options.under, depth: 0 }];
  let seen = 0;
  while (stack.length > 0) {
    const { dir, rel, depth } = stack.pop() as { dir: string; rel: string; depth: number };
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? 1 : -1));
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > options.maxEntries) {
        issues.push({
          severity: 'warning',
          code: 'PACK_TREE_LIMIT',
          file: rel || '.',
          message: `stopped after ${options.maxEntries} entries; the rest of the pack was not checked`,
        });
        return { files: files.sort(byRel), issues };
      }
      if (entry.name.startsWith('.') || options.skip?.has(entry.name)) continue;
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const abs = join(dir, entry.name);
      let real = abs;
      if (entry.isSymbolicLink()) {
        const target = safeRealpath(abs);
        if (target === null) {
          issues.push({
            severity: 'error',
            code: 'PACK_SYMLINK_BROKEN',
            file: childRel,
            message: `broken or looping symlink: ${childRel}`,
          });
          continue;
        }
        if (!isInside(realRoot, target)) {
          issues.push(escapeLink(childRel, target));
          continue;
        }
        real = target;
      }
      let stat: ReturnType<typeof statSync>;
      try {
        stat = statSync(real);
      } catch {
        continue;
      }
      if (stat.isDirectory()) {
        if (depth + 1 > options.maxDepth || visited.has(real)) continue;
        visited.add(real);
        stack.push({ dir: real, rel: childRel, depth: depth + 1 });
      } else if (stat.isFile()) files.push({ rel: childRel, real, size: stat.size });
    }
  }
  return { files: files.sort(byRel), issues };
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

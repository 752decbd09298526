import { basename, join } from 'node:path';
import { isDirectory, listDir, type ScopeRoot } from './discover.js';
import type { DiscoveredPack } from './model.js';
import { ENTRY_FILE, readPackHead } from './pack-head.js';
import { isInside, safeRealpath } from './paths.js';

/**
 * Loads one pack named by path (`--pack ./dir` or `--pack ./dir/KNOWLEDGE.md`) as an explicit
 * selection. Returns null when the path holds no `KNOWLEDGE.md`. `home` is the scope whose root
 * contains it, so an explicit path into an untrusted workspace stays untrusted.
 */
export function loadPackAt(path: string, roots: readonly ScopeRoot[]): DiscoveredPack | null {
  const dir = basename(path) === ENTRY_FILE ? join(path, '..') : path;
  const real = safeRealpath(dir);
  if (real === null || !isDirectory(real)) return null;
  const entries = listDir(dir, []);
  if (!entries?.some((e) => e.name === ENTRY_FILE)) return null;
  let home: ScopeRoot | null = null;
  for (const r of roots) {
    const rr = safeRealpath(r.dir);
    if (rr !== null && isInside(rr, real)) {
      home = r;
      break;
    }
  }
  const head = readPackHead(dir, real);
  return {
    name: head.manifest?.name ?? basename(real),
    scope: 'explicit',
    home: home?.scope ?? null,
    scopeRoot: home?.dir ?? null,
    root: dir,
    realRoot: real,
    location: join(dir, ENTRY_FILE),
    manifest: head.manifest,
    issues: head.issues,
  };
}

import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { appendAll } from '@maestro/core';
import { type IgnoreFile, ignoredBy } from './gitignore.js';
import { ancestorIgnores, readIgnoreLayer } from './ignore-layers.js';
import type { DiscoveredPack, DiscoveryDiagnostic, PackScope } from './model.js';
import { ENTRY_FILE, readPackHead } from './pack-head.js';
import { isInside, safeRealpath } from './paths.js';

export type ScopeName = Exclude<PackScope, 'explicit'>;

export interface ScopeRoot {
  scope: ScopeName;
  /** Absolute directory holding packs (e.g. `<workspace>/.agents/knowledge`). */
  dir: string;
}

export interface DiscoveryLimits {
  /** Deepest pack directory below a scope root (the root's children are depth 1). */
  maxDepth: number;
  /** Directories opened per scope root before the scan stops. */
  maxDirs: number;
}

export const DEFAULT_LIMITS: DiscoveryLimits = { maxDepth: 6, maxDirs: 2000 };

/** Never descended into (in addition to every dot-directory below a scope root). */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'indexes']);

export interface ScopeScan {
  scope: ScopeName;
  dir: string;
  exists: boolean;
  dirsScanned: number;
  packs: number;
  /** Why the scan stopped early, if it did. */
  truncated: 'depth' | 'dirs' | null;
  /** Directories (and entry files) skipped because a `.gitignore` excludes them. */
  ignored: number;
}

export interface DiscoveryResult {
  packs: DiscoveredPack[];
  scans: ScopeScan[];
  diagnostics: DiscoveryDiagnostic[];
}

interface Frame {
  abs: string;
  real: string;
  depth: number;
  /** Path below the scope root, `/`-separated ('' for the root). */
  rel: string;
  /** `.gitignore` layers in force here, outermost first. */
  ignore: IgnoreFile[];
}

export interface DiscoveryOptions {
  /** Honour `.gitignore` files (default true); see `ancestorIgnores` for which ones. */
  gitignore?: boolean;
}

/**
 * Finds every directory holding a file named exactly `KNOWLEDGE.md` under the scope roots, in
 * precedence order. Reads only frontmatter; executes nothing. Packs are leaves; dot-dirs,
 * dependency and build folders and `indexes/` are skipped; symlinks are followed only through a
 * realpath visited set and only while they stay inside the scope root; depth and directory count
 * are bounded with a diagnostic. A pack reachable twice (alias, or two scopes) is listed once.
 */
export function discoverPacks(
  roots: readonly ScopeRoot[],
  limits: DiscoveryLimits = DEFAULT_LIMITS,
  options: DiscoveryOptions = {},
): DiscoveryResult {
  const visited = new Set<string>();
  const packs: DiscoveredPack[] = [];
  const scans: ScopeScan[] = [];
  const diagnostics: DiscoveryDiagnostic[] = [];
  for (const root of roots) {
    const scan = scanScope(root, limits, visited, diagnostics, options.gitignore ?? true);
    scans.push(scan.scan);
    appendAll(packs, scan.packs);
  }
  return { packs, scans, diagnostics };
}

interface Walk {
  root: ScopeRoot;
  realRoot: string;
  limits: DiscoveryLimits;
  visited: Set<string>;
  diagnostics: DiscoveryDiagnostic[];
  scan: ScopeScan;
  packs: DiscoveredPack[];
  depthSkipped: number;
  gitignore: boolean;
  /** The scope root's path inside its repository (`.agents/knowledge/`), for ancestor rules. */
  ignorePrefix: string;
}

function scanScope(
  root: ScopeRoot,
  limits: DiscoveryLimits,
  visited: Set<string>,
  diagnostics: DiscoveryDiagnostic[],
  gitignore: boolean,
) {
  const scan: ScopeScan = {
    scope: root.scope,
    dir: root.dir,
    exists: false,
    dirsScanned: 0,
    packs: 0,
    truncated: null,
    ignored: 0,
  };
  const packs: DiscoveredPack[] = [];
  const realRoot = safeRealpath(root.dir);
  if (realRoot === null || !isDirectory(realRoot)) return { scan, packs }; // a missing scope is not an error
  scan.exists = true;
  if (visited.has(realRoot)) {
    const message = `${root.scope} root ${root.dir} was already scanned through another scope`;
    diagnostics.push(note('info', 'PACK_SCOPE_DUPLICATE', message, root.dir));
    return { scan, packs };
  }
  visited.add(realRoot);
  const ancestors = gitignore && root.scope === 'workspace' ? ancestorIgnores(root.dir) : { prefix: '', layers: [] };
  const walk: Walk = {
    root,
    realRoot,
    limits,
    visited,
    diagnostics,
    scan,
    packs,
    depthSkipped: 0,
    gitignore,
    ignorePrefix: ancestors.prefix,
  };
  const stack: Frame[] = [{ abs: root.dir, real: realRoot, depth: 0, rel: '', ignore: ancestors.layers }];
  while (stack.length > 0) {
    if (scan.dirsScanned >= limits.maxDirs) {
      scan.truncated = 'dirs';
      const message = `stopped scanning ${root.scope} root ${root.dir} after ${limits.maxDirs} directories; packs further in were not discovered`;
      diagnostics.push(note('warning', 'PACK_SCAN_DIR_LIMIT', message, root.dir));
      break;
    }
    scan.dirsScanned++;
    const children = visitDir(walk, stack.pop() as Frame);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]); // sorted DFS order
  }
  if (walk.depthSkipped > 0) {
    scan.truncated ??= 'depth';
    const n = walk.depthSkipped;
    const message = `depth limit ${limits.maxDepth} reached under ${root.scope} root ${root.dir}: ${n} deeper director${n === 1 ? 'y was' : 'ies were'} not scanned`;
    diagnostics.push(note('warning', 'PACK_SCAN_DEPTH_LIMIT', message, root.dir));
  }
  packs.sort((a, b) => (a.root < b.root ? -1 : a.root > b.root ? 1 : 0));
  return { scan, packs };
}

/** One directory: a pack (a leaf, not descended) or the sub-directories to visit next. */
function visitDir(walk: Walk, frame: Frame): Frame[] {
  const entries = listDir(frame.abs, walk.diagnostics);
  if (entries === null) return [];
  const here = withIgnoreFile(walk, frame, entries);
  if (entries.some((e) => e.name === ENTRY_FILE && (e.isFile() || e.isSymbolicLink()))) {
    if (ignored(walk, here, frame.rel ? `${frame.rel}/${ENTRY_FILE}` : ENTRY_FILE, false, frame.abs)) return [];
    walk.packs.push(makePack(walk.root, frame));
    walk.scan.packs++;
    return [];
  }
  const lower = entries.find((e) => e.name.toLowerCase() === 'knowledge.md');
  if (lower) {
    const message = `${join(frame.abs, lower.name)} is not a pack: the entry file must be named exactly ${ENTRY_FILE}`;
    walk.diagnostics.push(note('info', 'PACK_ENTRY_CASE', message, frame.abs));
  }
  const children: Frame[] = [];
  for (const entry of entries) {
    const child = childFrame(entry, here, walk.realRoot, walk.diagnostics);
    if (child === null) continue;
    if (ignored(walk, here, child.rel, true, child.abs)) continue;
    if (child.depth > walk.limits.maxDepth) {
      walk.depthSkipped++;
      continue;
    }
    if (walk.visited.has(child.real)) continue; // loop or alias: already seen
    walk.visited.add(child.real);
    children.push(child);
  }
  return children;
}

/** The frame with this directory's own `.gitignore` (a regular file, bounded read) added. */
function withIgnoreFile(walk: Walk, frame: Frame, entries: readonly Dirent[]): Frame {
  if (!walk.gitignore || !entries.some((e) => e.name === '.gitignore' && e.isFile())) return frame;
  const base = `${walk.ignorePrefix}${frame.rel}`.replace(/\/$/, '');
  const layer = readIgnoreLayer(frame.abs, base);
  return layer ? { ...frame, ignore: [...frame.ignore, layer] } : frame;
}

/**
 * True when a `.gitignore` rule excludes `rel`. A skipped directory that is itself a pack (or a
 * skipped entry file) gets an info diagnostic naming the rule, so a hidden pack is explainable.
 */
function ignored(walk: Walk, frame: Frame, rel: string, isDir: boolean, abs: string): boolean {
  if (frame.ignore.length === 0) return false;
  const match = ignoredBy(frame.ignore, `${walk.ignorePrefix}${rel}`, isDir);
  if (match === null) return false;
  walk.scan.ignored++;
  if (!isDir || existsSync(join(abs, ENTRY_FILE))) {
    const what = isDir ? `pack at ${abs}` : `pack at ${abs} (its ${ENTRY_FILE})`;
    const message = `skipped ${what}: ignored by ${match.file}:${match.line} (${match.pattern})`;
    walk.diagnostics.push(note('info', 'PACK_GITIGNORED', message, abs));
  }
  return true;
}

function childFrame(entry: Dirent, frame: Frame, realRoot: string, diagnostics: DiscoveryDiagnostic[]): Frame | null {
  if (entry.name.startsWith('.') || SKIPPED_DIRS.has(entry.name)) return null;
  const abs = join(frame.abs, entry.name);
  const rel = frame.rel ? `${frame.rel}/${entry.name}` : entry.name;
  const base = { abs, depth: frame.depth + 1, rel, ignore: frame.ignore };
  if (entry.isDirectory()) return { ...base, real: join(frame.real, entry.name) };
  if (!entry.isSymbolicLink()) return null;
  const real = safeRealpath(abs);
  if (real === null) {
    diagnostics.push(
      note('warning', 'PACK_SYMLINK_BROKEN', `skipped symlink ${abs}: broken, looping or unreadable`, abs),
    );
    return null;
  }
  if (!isDirectory(real)) return null;
  if (!isInside(realRoot, real)) {
    diagnostics.push(
      note(
        'warning',
        'PACK_SYMLINK_ESCAPE',
        `skipped symlink ${abs} -> ${real}: it leaves the scope root (select it with --pack <path> or add its folder as a scope root)`,
        abs,
      ),
    );
    return null;
  }
  return { ...base, real };
}

function makePack(root: ScopeRoot, frame: Frame): DiscoveredPack {
  const head = readPackHead(frame.abs, frame.real);
  return {
    name: head.manifest?.name ?? basename(frame.abs),
    scope: root.scope,
    home: root.scope,
    scopeRoot: root.dir,
    root: frame.abs,
    realRoot: frame.real,
    location: join(frame.abs, ENTRY_FILE),
    manifest: head.manifest,
    issues: head.issues,
  };
}

export function listDir(dir: string, diagnostics: DiscoveryDiagnostic[]): Dirent[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    diagnostics.push(note('warning', 'PACK_SCAN_UNREADABLE', `cannot list ${dir} (${code}); skipped`, dir));
    return null;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function note(
  severity: DiscoveryDiagnostic['severity'],
  code: string,
  message: string,
  path?: string,
): DiscoveryDiagnostic {
  return { severity, code, message, ...(path ? { path } : {}) };
}

import { basename, resolve } from 'node:path';
import { inputError } from '@maestro/core';
import { buildCatalog, type Catalog, parseDisableRule } from './catalog.js';
import { DEFAULT_LIMITS, type DiscoveryLimits, discoverPacks, type ScopeRoot, type ScopeScan } from './discover.js';
import { loadPackAt } from './load-pack-at.js';
import type { DiscoveredPack, DiscoveryDiagnostic } from './model.js';
import { isInside, safeRealpath } from './paths.js';

export interface PackScopeOptions {
  /** Base for relative paths given with `--pack`. */
  cwd: string;
  /** The workspace's `.agents/knowledge` directory (null: no workspace scope). */
  workspaceRoot: string | null;
  userRoot: string | null;
  orgRoots: readonly string[];
  builtinRoot: string | null;
  /** `--trust-workspace`, or the workspace is listed in the user config (see `isWorkspaceTrusted`). */
  workspaceTrusted: boolean;
  /** Names approved for use from an untrusted workspace. */
  approve?: readonly string[];
  /** `--pack <name|path>`: a value with a path separator or a leading `.`/`~` is a path. */
  packs?: readonly string[];
  /** `--disable <name>[@scope]`. */
  disable?: readonly string[];
  limits?: DiscoveryLimits;
  /** Honour `.gitignore` files during discovery (default true; `--no-gitignore`). */
  gitignore?: boolean;
  /** Home directory for `~/` in `--pack` paths. */
  home?: string;
}

export interface LoadedCatalog {
  catalog: Catalog;
  roots: ScopeRoot[];
  scans: ScopeScan[];
  /** Scan diagnostics and collision diagnostics together. */
  diagnostics: DiscoveryDiagnostic[];
  workspaceTrusted: boolean;
}

/** True when the workspace knowledge root lies inside one of the trusted directories. */
export function isWorkspaceTrusted(workspaceRoot: string | null, trusted: readonly string[]): boolean {
  if (workspaceRoot === null) return false;
  const real = safeRealpath(workspaceRoot) ?? resolve(workspaceRoot);
  return trusted.some((dir) => isInside(safeRealpath(dir) ?? resolve(dir), real));
}

export function isPathSelection(value: string): boolean {
  return value.includes('/') || value.includes('\\') || value.startsWith('.') || value.startsWith('~');
}

/** The scope roots in precedence order (missing ones are scanned as empty, not errors). */
export function scopeRoots(
  o: Pick<PackScopeOptions, 'workspaceRoot' | 'userRoot' | 'orgRoots' | 'builtinRoot'>,
): ScopeRoot[] {
  const roots: ScopeRoot[] = [];
  if (o.workspaceRoot) roots.push({ scope: 'workspace', dir: resolve(o.workspaceRoot) });
  if (o.userRoot) roots.push({ scope: 'user', dir: resolve(o.userRoot) });
  for (const dir of o.orgRoots) roots.push({ scope: 'org', dir: resolve(dir) });
  if (o.builtinRoot) roots.push({ scope: 'builtin', dir: resolve(o.builtinRoot) });
  return roots;
}

/**
 * Discovery plus catalog: scans the scope roots, loads packs named by path, applies explicit
 * names, disables and approvals, and resolves collisions. An explicit name or path that matches
 * nothing is bad input (exit 2) listing what exists.
 */
export function loadCatalog(o: PackScopeOptions): LoadedCatalog {
  const roots = scopeRoots(o);
  const discovery = discoverPacks(roots, o.limits ?? DEFAULT_LIMITS, { gitignore: o.gitignore ?? true });
  const explicitPacks: DiscoveredPack[] = [];
  const explicitNames: string[] = [];
  for (const value of o.packs ?? []) {
    if (!isPathSelection(value)) {
      explicitNames.push(value);
      continue;
    }
    const path = resolve(o.cwd, value.startsWith('~/') && o.home ? `${o.home}${value.slice(1)}` : value);
    const pack = loadPackAt(path, roots);
    if (!pack) {
      throw inputError('PACK_PATH_NOT_PACK', `--pack ${value}: no KNOWLEDGE.md at ${path}`, {
        hint: 'pass a directory holding KNOWLEDGE.md, or a pack name from `maestro pack list`',
      });
    }
    explicitPacks.push(pack);
  }
  const catalog = buildCatalog(discovery.packs, {
    explicitPacks,
    explicitNames,
    disabled: (o.disable ?? []).map(parseDisableRule),
    workspaceTrusted: o.workspaceTrusted,
    approved: new Set(o.approve ?? []),
  });
  for (const pack of explicitPacks) {
    const entry = catalog.entries.find((e) => e.pack === pack);
    if (entry && entry.state !== 'active') {
      const first = pack.issues.find((i) => i.severity === 'error');
      throw inputError(
        'PACK_NOT_USABLE',
        `--pack ${pack.root}: the pack is ${entry.state}${first ? `: ${first.message}` : ''}`,
        {
          hint:
            entry.state === 'invalid' ? `run \`maestro pack validate ${pack.root}\`` : 'drop the matching --disable',
        },
      );
    }
  }
  for (const name of explicitNames) {
    if (catalog.active.has(name)) continue;
    const known = [...catalog.active.keys()].sort();
    const state = catalog.entries.find((e) => e.name === name)?.state;
    throw inputError(
      'PACK_NOT_FOUND',
      state ? `--pack ${name}: the pack is ${state}` : `--pack ${name}: no pack with that name`,
      {
        hint:
          state === 'invalid'
            ? `run \`maestro pack validate ${name}\``
            : (gitignoredHint(discovery.diagnostics, name) ??
              (known.length
                ? `available: ${known.join(', ')}`
                : 'no packs were found; run `maestro pack list` to see the scanned roots')),
      },
    );
  }
  return {
    catalog,
    roots,
    scans: discovery.scans,
    diagnostics: [...discovery.diagnostics, ...catalog.diagnostics],
    workspaceTrusted: o.workspaceTrusted,
  };
}

/** When a folder of that name was skipped by a `.gitignore`, say so (its frontmatter was never read). */
export function gitignoredHint(diagnostics: readonly DiscoveryDiagnostic[], name: string): string | null {
  const hit = diagnostics.find(
    (d) => d.code === 'PACK_GITIGNORED' && d.path !== undefined && basename(d.path) === name,
  );
  return hit ? `${hit.message}; pass its path with --pack, or --no-gitignore` : null;
}

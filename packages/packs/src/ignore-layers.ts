import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { tryReadHead } from './frontmatter.js';
import { type IgnoreFile, parseGitignore } from './gitignore.js';

/** A `.gitignore` larger than this is read only this far (a pathological file cannot slow a scan). */
export const GITIGNORE_CAP_BYTES = 64 * 1024;
/** How far above a workspace root the enclosing repository's root is looked for. */
const MAX_ANCESTORS = 32;

/** Reads `<dir>/.gitignore` (regular files only, bounded) as a layer whose paths start at `base`. */
export function readIgnoreLayer(dir: string, base: string): IgnoreFile | null {
  const file = join(dir, '.gitignore');
  const head = tryReadHead(file, GITIGNORE_CAP_BYTES);
  if (head === null) return null;
  const layer = parseGitignore(head.text, file, base);
  return layer.rules.length > 0 ? layer : null;
}

export interface AncestorIgnores {
  /** The scope root relative to the repository root, `/`-separated with a trailing `/` ('' when none). */
  prefix: string;
  /** `.gitignore` files from the repository root down to the scope root's parent. */
  layers: IgnoreFile[];
}

/**
 * The `.gitignore` files of the repository enclosing a workspace scope root: from the root of the
 * work tree (the nearest ancestor holding `.git`) down to the scope root's parent. Their rules
 * apply below the scope root; the root itself is always scanned (it was configured explicitly,
 * and a project that keeps `.agents/` out of git still wants its local packs). No repository,
 * no layers. Only read for the workspace scope: a home directory kept in git commonly ignores `*`.
 */
export function ancestorIgnores(scopeRoot: string): AncestorIgnores {
  const chain: string[] = [];
  let dir = dirname(scopeRoot);
  let repo: string | null = null;
  for (let i = 0; i < MAX_ANCESTORS; i++) {
    chain.push(dir);
    if (existsSync(join(dir, '.git'))) {
      repo = dir;
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  if (repo === null) return { prefix: '', layers: [] };
  const toPosix = (p: string) => p.split(sep).join('/');
  const layers: IgnoreFile[] = [];
  for (const d of chain.reverse()) {
    const layer = readIgnoreLayer(d, toPosix(relative(repo, d)));
    if (layer) layers.push(layer);
  }
  return { prefix: `${toPosix(relative(repo, scopeRoot))}/`, layers };
}

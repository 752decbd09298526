import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { INDEX_FORMAT, TOKENIZER_REVISION } from './config.js';
import { type IndexManifest, isRacy, type ManifestDir } from './manifest.js';

/** The directories the corpus loader lists (non-recursive), relative to `.workflow/`. */
export const CORPUS_DIRS = ['specs', 'knowhow'] as const;

/** `*.md` files directly inside `dir`, as the corpus loader selects them; null when it is missing. */
function markdownNames(dir: string): string[] | null {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && d.name.endsWith('.md'))
      .map((d) => d.name)
      .sort();
  } catch {
    return null;
  }
}

/** Total size of the `*.md` files the corpus loader reads (a size estimate before parsing). */
export function corpusBytes(workflow: string): number {
  let total = 0;
  for (const d of CORPUS_DIRS) {
    for (const name of markdownNames(join(workflow, d)) ?? []) {
      total += statSync(join(workflow, d, name), { throwIfNoEntry: false })?.size ?? 0;
    }
  }
  return total;
}

function dirMtime(abs: string): number | null {
  const st = statSync(abs, { throwIfNoEntry: false });
  return st?.isDirectory() ? st.mtimeMs : null;
}

/** Stats each directory now; recorded *before* the corpus is read, so later changes look newer. */
export function statDirs(workflow: string, paths: readonly string[]): ManifestDir[] {
  return [...new Set(paths)].sort().map((path) => ({ path, mtime_ms: dirMtime(join(workflow, path)) }));
}

function dirStale(
  workflow: string,
  m: IndexManifest,
  d: ManifestDir,
  indexed: () => Map<string, string[]>,
): string | null {
  const abs = join(workflow, d.path);
  const mtime = dirMtime(abs);
  if (mtime === d.mtime_ms && (mtime === null || !isRacy(mtime, m.built_at_ms))) return null;
  // The directory changed (or its time is too recent to trust): it may only be lock or temp files
  // coming and going, so compare the listing before declaring the index stale.
  const names = markdownNames(abs) ?? [];
  const before = (indexed().get(d.path) ?? []).sort();
  if (names.length !== before.length || names.some((n, i) => n !== before[i])) {
    return `${d.path}/ gained or lost files`;
  }
  return null;
}

/** The indexed file names per directory (built only when a directory's listing must be compared). */
function indexedNames(m: IndexManifest): Map<string, string[]> {
  const indexed = new Map<string, string[]>();
  for (const f of m.files) {
    const slash = f.path.lastIndexOf('/');
    const dir = f.path.slice(0, slash);
    let names = indexed.get(dir);
    if (!names) {
      names = [];
      indexed.set(dir, names);
    }
    names.push(f.path.slice(slash + 1));
  }
  return indexed;
}

/**
 * Why the persisted index no longer matches the corpus, or null when it does. Costs one stat per
 * corpus file and directory (plus a listing of a directory whose mtime moved); never reads a file.
 * A file whose timestamp is too close to the build is treated as changed (racy-clean, as in git).
 */
export function staleReason(workflow: string, m: IndexManifest): string | null {
  if (m.format !== INDEX_FORMAT || m.tokenizer !== TOKENIZER_REVISION) return 'it was built by another version';
  let indexed: Map<string, string[]> | null = null;
  const names = () => {
    indexed ??= indexedNames(m);
    return indexed;
  };
  for (const d of m.dirs) {
    const why = dirStale(workflow, m, d, names);
    if (why) return why;
  }
  // Paths in the manifest are clean and relative (as the loader listed them): plain concatenation.
  const base = workflow.endsWith('/') ? workflow : `${workflow}/`;
  for (const f of m.files) {
    const st = statSync(base + f.path, { throwIfNoEntry: false });
    if (!st) return `${f.path} was removed`;
    if (st.size !== f.size || st.mtimeMs !== f.mtime_ms) return `${f.path} changed`;
    // Rewritten in place with its size and mtime put back (or indexed before ctime was recorded).
    if (st.ctimeMs !== f.ctime_ms) return `${f.path} changed`;
    if (isRacy(f.mtime_ms, m.built_at_ms)) return `${f.path} changed too recently to trust its timestamp`;
  }
  return null;
}

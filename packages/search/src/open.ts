import { isAscii } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { isMaestroError } from '@maestro/core';
import { assertMayWrite, LockTimeoutError, type WorkflowLayout, withLock } from '@maestro/fs';
import type { Corpus } from '@maestro/spec';
import { CorruptIndexError, encodeIndex, TEXT_INDEX_WIDTH, type TextBlocks, TextBuilder } from './codec.js';
import { INDEX_FORMAT, TOKENIZER_REVISION } from './config.js';
import { CORPUS_DIRS, corpusBytes, staleReason, statDirs } from './freshness.js';
import { type IndexManifest, MANIFEST_SCHEMA } from './manifest.js';
import type { SearchIndex } from './model.js';
import { DATA_FILE, readIndexData, readManifest, searchIndexDir, writeIndexFiles } from './persist.js';
// The updater and the tokenising pool are loaded only when the index is stale (see `refresh`).
import type { PreviousIndex, UpdatedIndex } from './update.js';

export type IndexStatus = 'fresh' | 'revalidated' | 'updated' | 'built' | 'rebuilt';

export interface OpenIndexOptions {
  /** Write the updated index back (default true). False: update in memory only. */
  persist?: boolean;
  /** The corpus reader; defaults to `loadCorpus` from @maestro/spec (loaded only when needed). */
  loadCorpus?: (layout: WorkflowLayout) => Corpus;
  /** Ignore the stored index and rebuild it, reporting this reason (e.g. a damaged record found while ranking). */
  discard?: string;
}

export interface OpenedIndex {
  index: SearchIndex;
  /**
   * fresh: used as stored, corpus not parsed; revalidated: corpus parsed, nothing changed;
   * updated: some files re-indexed; built: there was no index; rebuilt: it was unusable or from
   * another version.
   */
  status: IndexStatus;
  /** Entries tokenised by this call. */
  reindexed: number;
  /** False when the result could not be (or was not to be) saved. */
  persisted: boolean;
  /** Corpus problems recorded at build time. */
  issues: string[];
  /** Index problems worth telling the user (corrupt index rebuilt, could not save, ...). */
  warnings: string[];
}

type Probe = { opened: OpenedIndex } | { prev: PreviousIndex | null; problem: string | null; rebuild: boolean };

/**
 * The index this process last opened or built, per index directory. A long-lived caller (a hook
 * host, a benchmark) then pays only the manifest read and the stats per search, not a reload. The
 * cached copy is used only while the manifest names the same build and index.bin is the same file
 * (inode, size, mtime), so a replaced or damaged file is always read (and judged) again.
 */
const loaded = new Map<string, { key: string; index: SearchIndex }>();

function dataKey(dir: string, manifest: IndexManifest): string | null {
  const st = statSync(join(dir, DATA_FILE), { throwIfNoEntry: false });
  return st ? `${manifest.build_id}:${st.ino}:${st.size}:${st.mtimeMs}` : null;
}

function readIndexCached(dir: string, manifest: IndexManifest, workflow: string): SearchIndex {
  const key = dataKey(dir, manifest);
  const hit = loaded.get(dir);
  if (key && hit?.key === key) return hit.index;
  const index = readIndexData(dir, manifest, workflow);
  if (key) loaded.set(dir, { key, index });
  return index;
}

/** Reads the stored index if it is intact and fresh; otherwise says what can be reused and why not. */
function probe(layout: WorkflowLayout, dir: string, discard: string | undefined): Probe {
  if (discard) {
    loaded.delete(dir);
    return { prev: null, problem: discard, rebuild: true };
  }
  const read = readManifest(dir);
  if (read.kind === 'missing') return { prev: null, problem: null, rebuild: false };
  if (read.kind === 'corrupt') return { prev: null, problem: read.reason, rebuild: true };
  const manifest = read.manifest;
  if (manifest.format !== INDEX_FORMAT || manifest.tokenizer !== TOKENIZER_REVISION) {
    return { prev: null, problem: null, rebuild: true };
  }
  let index: SearchIndex;
  try {
    index = readIndexCached(dir, manifest, layout.workflow);
  } catch (err) {
    if (err instanceof CorruptIndexError) return { prev: null, problem: err.message, rebuild: true };
    throw err;
  }
  const stale = staleReason(layout.workflow, manifest);
  if (stale === null) {
    return { opened: { index, status: 'fresh', reindexed: 0, persisted: true, issues: manifest.issues, warnings: [] } };
  }
  return { prev: { manifest, index }, problem: null, rebuild: false };
}

async function defaultLoader(layout: WorkflowLayout): Promise<Corpus> {
  // Imported here so that a search on a fresh index never loads the parser (or yaml and zod).
  const spec = await import('@maestro/spec');
  return spec.loadCorpus(layout);
}

async function refresh(
  layout: WorkflowLayout,
  dir: string,
  p: Exclude<Probe, { opened: OpenedIndex }>,
  o: OpenIndexOptions,
  persist: boolean,
): Promise<OpenedIndex> {
  const warnings = p.problem
    ? [`the search index in ${dir} was unreadable (${p.problem}); rebuilt it from the corpus`]
    : [];
  const [{ updateIndex }, { prestartWorker, releaseWorker }] = await Promise.all([
    import('./update.js'),
    import('./tokenize-pool.js'),
  ]);
  const builtAtMs = Date.now();
  const dirs = statDirs(layout.workflow, [...CORPUS_DIRS, ...(p.prev?.manifest.dirs.map((d) => d.path) ?? [])]);
  // A build from scratch of a large corpus starts its tokenising worker while the corpus is parsed.
  if (!p.prev) prestartWorker(corpusBytes(layout.workflow));
  let up: UpdatedIndex;
  try {
    // The corpus is not held here: once its documents are taken, its entries can be collected.
    up = await updateIndex(p.prev, o.loadCorpus ? o.loadCorpus(layout) : await defaultLoader(layout));
  } finally {
    releaseWorker();
  }
  const extraDirs = up.files.map((f) => dirname(f.path)).filter((d) => !dirs.some((x) => x.path === d));
  const buildId = up.changed || !p.prev ? randomBytes(8).toString('hex') : p.prev.manifest.build_id;
  const data =
    up.changed || !p.prev ? encodeIndex(up.index, buildId, textOf(up, p.prev?.index ?? null, layout.workflow)) : null;
  const manifest: IndexManifest = {
    schema_version: MANIFEST_SCHEMA,
    format: INDEX_FORMAT,
    tokenizer: TOKENIZER_REVISION,
    build_id: buildId,
    built_at_ms: builtAtMs,
    entries: up.index.size,
    data_bytes: data ? data.length : p.prev!.manifest.data_bytes,
    dirs: [...dirs, ...statDirs(layout.workflow, extraDirs)],
    files: up.files,
    issues: up.issues,
  };
  let persisted = false;
  if (persist) {
    try {
      await writeIndexFiles(dir, manifest, data);
      persisted = true;
      const key = dataKey(dir, manifest);
      if (key) loaded.set(dir, { key, index: up.index });
    } catch (err) {
      warnings.push(`could not save the search index (${(err as Error).message}); searched from memory`);
    }
  }
  const status = !p.prev ? (p.rebuild ? 'rebuilt' : 'built') : up.changed ? 'updated' : 'revalidated';
  return { index: up.index, status, reindexed: up.reindexed, persisted, issues: up.issues, warnings };
}

/** Reading a file for its bodies' byte ranges gives up after this many bodies not found in order. */
const MAX_MISSES = 16;
/** Bytes past the previous body in which the next one is looked for first (entries are in file order). */
const LOOKAHEAD = 64 * 1024;

/**
 * Where each body of a file's documents lies in the file's bytes, or null for one not found
 * verbatim (it is then stored in index.bin). Bodies are looked for in order, each after the last.
 */
function locateBodies(bytes: Buffer | null, bodies: readonly Buffer[]): ([number, number] | null)[] {
  let cursor = 0;
  let misses = 0;
  return bodies.map((b) => {
    if (!bytes || misses > MAX_MISSES || b.length === 0) return null;
    const near = bytes.subarray(cursor, cursor + b.length + LOOKAHEAD).indexOf(b);
    const at = near >= 0 ? cursor + near : bytes.indexOf(b);
    // Offsets are stored as u32: a body past 4 GiB into its file is stored in index.bin instead.
    if (at < 0 || at + b.length > 0xffffffff) {
      misses++;
      return null;
    }
    cursor = at + b.length;
    return [at, b.length];
  });
}

/**
 * `locateBodies` for a file whose bytes are all ASCII, each body looked for as it is (Latin-1
 * bytes of an ASCII string are its UTF-8): the same ranges, with no UTF-8 copy of each body made.
 * A body with any other character is found nowhere in such a file, as its UTF-8 bytes would not be.
 */
function locateAsciiBodies(
  bytes: Buffer,
  first: number,
  count: number,
  body: (d: number) => string,
): ([number, number] | null)[] {
  let cursor = 0;
  let misses = 0;
  const out: ([number, number] | null)[] = [];
  for (let d = first; d < first + count; d++) {
    const b = body(d);
    if (misses > MAX_MISSES || b.length === 0) {
      out.push(null);
      continue;
    }
    // First in the window after the previous body, else the first anywhere (as `locateBodies`).
    const ascii = ASCII_ONLY.test(b);
    const near = ascii ? bytes.indexOf(b, cursor, 'latin1') : -1;
    const at = near >= 0 && near - cursor <= LOOKAHEAD ? near : ascii ? bytes.indexOf(b, 0, 'latin1') : -1;
    if (at < 0 || at + b.length > 0xffffffff) {
      misses++;
      out.push(null);
      continue;
    }
    cursor = at + b.length;
    out.push([at, b.length]);
  }
  return out;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * Reads corpus files one after another into one buffer that grows to the largest of them, so that
 * reading the whole corpus again leaves no garbage buffer per file behind (external memory that
 * the garbage collector would only reclaim later, all of it at once).
 */
class FileReader {
  private pool = Buffer.alloc(0);

  /** The file's bytes (valid until the next read), or null when it cannot be read. */
  read(path: string): Buffer | null {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return null;
    }
    try {
      // One byte of room past the size: a file that grew since its stat is read to its end all the same.
      const size = fstatSync(fd).size + 1;
      if (size > this.pool.length) this.pool = Buffer.allocUnsafe(size);
      let n = 0;
      for (;;) {
        if (n === this.pool.length) {
          const next = Buffer.allocUnsafe(this.pool.length * 2);
          this.pool.copy(next, 0, 0, n);
          this.pool = next;
        }
        const got = readSync(fd, this.pool, n, this.pool.length - n, null);
        if (got === 0) break;
        n += got;
      }
      return this.pool.subarray(0, n);
    } catch {
      return null;
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * The text sections of an updated index, one file's documents per run of blocks. A body found
 * verbatim in its corpus file is not stored: its byte range and crc32 are (`IN_FILE`). A file
 * carried over unchanged from the previous index keeps its stored rows and blocks (copied, not
 * inflated and deflated again); the others are read once to find their bodies' byte ranges.
 * A file read here may already differ from the one parsed: then the index is stale anyway (its
 * manifest keeps the stat from before the parse, and a newer mtime is racy) and never trusted.
 */
function textOf(up: UpdatedIndex, prev: SearchIndex | null, workflow: string): TextBlocks {
  const out = new TextBuilder(up.index.size);
  // By path: a file without entries starts where the next one does.
  const reused = new Map(up.reused.map((r) => [r.path, r]));
  const reader = new FileReader();
  for (const f of up.files) {
    if (f.count === 0) continue;
    const r = reused.get(f.path);
    const stored =
      r?.sameFile && r.first === f.first && prev?.textBlocksOf ? prev.textBlocksOf(r.oldFirst, r.count) : null;
    if (stored && stored.index.length === f.count * TEXT_INDEX_WIDTH) {
      out.copy(f.first, stored);
      continue;
    }
    out.flush();
    const file = reader.read(join(workflow, f.path));
    if (file && isAscii(file)) {
      // An ASCII file: its characters are its bytes, so its bodies are looked for as they are (no
      // UTF-8 copy of each body); a body found is those very bytes of the file.
      const ranges = locateAsciiBodies(file, f.first, f.count, (d) => up.index.body(d));
      ranges.forEach((range, i) => {
        if (range) out.inFile(f.first + i, range[0], range[1], crc32(file.subarray(range[0], range[0] + range[1])));
        else out.add(f.first + i, up.index.body(f.first + i));
      });
      continue;
    }
    const bodies: Buffer[] = [];
    for (let d = f.first; d < f.first + f.count; d++) bodies.push(Buffer.from(up.index.body(d), 'utf8'));
    const ranges = locateBodies(file, bodies);
    ranges.forEach((range, i) => {
      if (range) out.inFile(f.first + i, range[0], range[1], crc32(bodies[i]));
      else out.addBytes(f.first + i, bodies[i]);
    });
  }
  return out.finish();
}

/**
 * Opens the search projection under `.workflow/.index/search/`, bringing it up to date first:
 * fresh → used as is (one stat per corpus file, no parse); stale → the corpus is loaded once and
 * only changed files are re-indexed; missing → built; corrupt or from another version → rebuilt
 * with a warning. Updates are written under `index.lock`; a process that cannot get the lock in
 * time searches an in-memory update instead of failing. The projection is never a source of
 * truth: deleting the directory only costs a rebuild.
 */
export async function openSearchIndex(layout: WorkflowLayout, o: OpenIndexOptions = {}): Promise<OpenedIndex> {
  const dir = searchIndexDir(layout);
  const first = probe(layout, dir, o.discard);
  if ('opened' in first) return first.opened;
  if (o.persist === false) return refresh(layout, dir, first, o, false);
  try {
    assertMayWrite(dir);
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    const opened = await refresh(layout, dir, first, o, false);
    opened.warnings.push(`cannot create ${dir} (${(err as Error).message}); searched from memory`);
    return opened;
  }
  try {
    return await withLock(
      join(dir, 'index'),
      async () => {
        // Another process may have brought it up to date while this one waited.
        const again = probe(layout, dir, o.discard);
        return 'opened' in again ? again.opened : refresh(layout, dir, again, o, true);
      },
      { staleMs: 120_000 },
    );
  } catch (err) {
    // A lock that cannot even be created or broken (read-only checkout, another user's project, a
    // directory in its place) is no reason to fail a read: the projection is derived state, so
    // search an in-memory update instead.
    const unwritable =
      isMaestroError(err) && ['LOCK_IO', 'LOCK_UNBREAKABLE', 'WORKFLOW_OUTSIDE_PROJECT'].includes(err.code);
    if (!(err instanceof LockTimeoutError) && !unwritable) throw err;
    const opened = await refresh(layout, dir, first, o, false);
    opened.warnings.push(`${(err as Error).message}; searched an in-memory update instead`);
    return opened;
  }
}

import { createHash, type Hash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DerivedStore, SectionSpec } from './store.js';

/**
 * A file hashed less than this long after its last modification is "racily clean" (as git says):
 * a write within the same timestamp tick could go unseen, so its stored hash is not trusted and it
 * is hashed again next time. Two seconds covers the coarsest common mtime granularity.
 */
export const RACY_WINDOW_MS = 2000;

export const FILES_SECTION: SectionSpec = {
  name: 'files',
  revision: '1',
  ddl: [
    `CREATE TABLE files_state (
       path TEXT PRIMARY KEY,
       size INTEGER NOT NULL,
       mtime_ns TEXT NOT NULL,
       ctime_ns TEXT NOT NULL,
       ino TEXT NOT NULL,
       sha256 TEXT NOT NULL,
       hashed_at_ms INTEGER NOT NULL
     ) WITHOUT ROWID`,
  ],
};

export interface FileState {
  /** Path relative to the root it was asked for. */
  path: string;
  size: number;
  sha256: string;
  /** The bytes, when this call had to read the file (so a caller that parses it reads once). */
  bytes: Buffer | null;
  /**
   * With `bytes`: a sha256 state that has taken in exactly those bytes (not yet digested), so a
   * caller that writes them back with more at the end hashes only what it added (`copy()` it first).
   */
  resume: Hash | null;
}

interface Row {
  path: string;
  size: number;
  mtime_ns: string;
  ctime_ns: string;
  ino: string;
  sha256: string;
  hashed_at_ms: number;
}

/**
 * The content hash of each file, by stat where possible: a file whose size, mtime, ctime and inode match
 * its stored row, hashed outside the racy window, is not read. Others are read and hashed, and
 * their row is updated (best effort: a store that cannot be written still answers). Files that do
 * not exist are left out of the answer. Uses the real clock: the racy guard compares with mtimes.
 */
export function fileStates(store: DerivedStore, root: string, paths: readonly string[]): FileState[] {
  store.section(FILES_SECTION);
  const get = store.prepare('SELECT * FROM files_state WHERE path = ?');
  const out: FileState[] = [];
  const updates: Row[] = [];
  const now = Date.now();
  for (const path of paths) {
    const abs = join(root, path);
    const st = statSync(abs, { bigint: true, throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    const size = Number(st.size);
    const mtimeNs = st.mtimeNs.toString();
    const ctimeNs = st.ctimeNs.toString();
    const ino = st.ino.toString();
    const row = get.get(path) as Row | undefined;
    const mtimeMs = Number(st.mtimeNs / 1_000_000n);
    if (
      row &&
      row.size === size &&
      row.mtime_ns === mtimeNs &&
      row.ctime_ns === ctimeNs &&
      row.ino === ino &&
      row.hashed_at_ms - mtimeMs > RACY_WINDOW_MS
    ) {
      out.push({ path, size, sha256: row.sha256, bytes: null, resume: null });
      continue;
    }
    const bytes = readFileSync(abs);
    const hasher = createHash('sha256').update(bytes);
    const resume = hasher.copy();
    const sha256 = hasher.digest('hex');
    out.push({ path, size: bytes.length, sha256, bytes, resume });
    // Record the stat the hash belongs to only when the file did not change while being read.
    if (bytes.length === size)
      updates.push({ path, size, mtime_ns: mtimeNs, ctime_ns: ctimeNs, ino, sha256, hashed_at_ms: now });
  }
  if (updates.length > 0) {
    tryWrite(store, () => {
      const put = store.prepare(
        'INSERT OR REPLACE INTO files_state (path, size, mtime_ns, ctime_ns, ino, sha256, hashed_at_ms) VALUES (@path, @size, @mtime_ns, @ctime_ns, @ino, @sha256, @hashed_at_ms)',
      );
      for (const u of updates) put.run(u);
    });
  }
  return out;
}

/**
 * Runs a write that only saves derived state. When the store cannot take it (another process
 * holds the write lock past the busy timeout, the disk is full, the file turned read-only), the
 * command goes on with what it computed, and the store remembers one warning.
 */
export function tryWrite(store: DerivedStore, fn: () => void): boolean {
  try {
    store.write(fn);
    return true;
  } catch (err) {
    const message = `could not save derived state to ${store.path ?? 'memory'} (${(err as Error).message}); it is recomputed next time`;
    if (!store.warnings.includes(message)) store.warnings.push(message);
    return false;
  }
}

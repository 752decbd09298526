import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, assertMayWrite, type WorkflowLayout, writeFileAtomic } from '@maestro/fs';
import { searchIndexDir } from './persist.js';

/**
 * Exposure counters: how often each entry id was *shown* by search. They feed the exploration slot
 * and nothing else — never a score, never reconciliation, never credibility — and they are derived
 * state: deleting them only switches exploration off until results are shown again.
 *
 * Two files under `.workflow/.index/search/`:
 * - `exposure.jsonl`: one JSON array of ids per search, appended with a single O_APPEND write, so
 *   concurrent searches need no lock (a torn line is skipped when read);
 * - `exposure.json` (`search-exposure/1.0`): a compacted snapshot of counts plus how much of which
 *   log (inode, bytes) it has absorbed. Compaction runs under a lock that nobody waits for.
 */
export const EXPOSURE_SCHEMA = 'search-exposure/1.0';
const SNAPSHOT = 'exposure.json';
const LOG = 'exposure.jsonl';
/** Compact (fold the log into the snapshot and start a new log) once the log exceeds this size. */
export const COMPACT_AFTER_BYTES = 256 * 1024;

export interface ExposureSnapshot {
  schema_version: typeof EXPOSURE_SCHEMA;
  counts: Record<string, number>;
  log: { ino: number; bytes: number } | null;
}

export interface ExposureRead {
  /** Null when there are no counters or the snapshot is unreadable: exploration is then off. */
  counts: Map<string, number> | null;
  warning: string | null;
}

function readSnapshot(path: string): ExposureSnapshot | null | Error {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : (err as Error);
  }
  try {
    const s = JSON.parse(text) as ExposureSnapshot;
    const valid =
      s?.schema_version === EXPOSURE_SCHEMA &&
      s.counts !== null &&
      typeof s.counts === 'object' &&
      !Array.isArray(s.counts) &&
      Object.values(s.counts).every((n) => Number.isInteger(n) && n >= 0) &&
      (s.log === null || (Number.isInteger(s.log?.ino) && Number.isInteger(s.log?.bytes)));
    return valid ? s : new Error(`it does not have the ${EXPOSURE_SCHEMA} shape`);
  } catch (err) {
    return err as Error;
  }
}

/** Adds the ids of every well-formed log line after `from` to `counts`; returns the log's size. */
function foldLog(path: string, from: number, counts: Map<string, number>): { ino: number; bytes: number } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { ino, size } = statSync(path);
    const start = from <= size ? from : 0;
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    // Stop at the last newline: a line still being appended is read next time, not lost.
    const end = buf.lastIndexOf(10) + 1;
    for (const line of buf.toString('utf8', 0, end).split('\n')) {
      if (!line) continue;
      try {
        const ids = JSON.parse(line) as unknown;
        if (Array.isArray(ids))
          for (const id of ids) if (typeof id === 'string') counts.set(id, (counts.get(id) ?? 0) + 1);
      } catch {
        // a torn append from a crashed process: those impressions are lost, nothing else
      }
    }
    return { ino, bytes: start + end };
  } finally {
    closeSync(fd);
  }
}

/** Current exposure counts (snapshot + unabsorbed log). Never throws. */
export function readExposure(layout: WorkflowLayout): ExposureRead {
  const dir = searchIndexDir(layout);
  const snap = readSnapshot(join(dir, SNAPSHOT));
  if (snap instanceof Error) {
    return {
      counts: null,
      warning: `exposure counters ${join(dir, SNAPSHOT)} are unreadable (${snap.message}); the exploration slot is off (delete the file to reset them)`,
    };
  }
  const counts = new Map(Object.entries(snap?.counts ?? {}));
  let logIno = -1;
  try {
    logIno = statSync(join(dir, LOG)).ino;
  } catch {
    // no log yet
  }
  const from = snap?.log && snap.log.ino === logIno ? snap.log.bytes : 0;
  const log = logIno >= 0 ? foldLog(join(dir, LOG), from, counts) : null;
  if (!snap && !log) return { counts: null, warning: null };
  return { counts, warning: null };
}

/**
 * Appends one impression per id (one line, one write) and compacts when the log has grown past
 * `COMPACT_AFTER_BYTES`. Best effort: returns a warning instead of failing.
 */
export async function recordExposure(layout: WorkflowLayout, ids: readonly string[]): Promise<string | null> {
  if (ids.length === 0) return null;
  const dir = searchIndexDir(layout);
  try {
    assertMayWrite(dir);
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, LOG), `${JSON.stringify(ids)}\n`);
    if (statSync(join(dir, LOG)).size > COMPACT_AFTER_BYTES) await compactExposure(layout);
    return null;
  } catch (err) {
    return `could not record exposure (${(err as Error).message}); results are unaffected`;
  }
}

/**
 * Folds the log into the snapshot and starts a new log, unless another process is doing it right
 * now (nobody waits for this lock). Nothing is counted twice: the snapshot records the log's inode
 * and the bytes it absorbed.
 */
export async function compactExposure(layout: WorkflowLayout): Promise<boolean> {
  const dir = searchIndexDir(layout);
  let lock: Awaited<ReturnType<typeof acquireLock>>;
  try {
    lock = await acquireLock(join(dir, 'exposure'), { timeoutMs: 0 });
  } catch {
    return false;
  }
  try {
    const snap = readSnapshot(join(dir, SNAPSHOT));
    const base = snap instanceof Error || snap === null ? null : snap;
    const counts = new Map(Object.entries(base?.counts ?? {}));
    let ino = -1;
    try {
      ino = statSync(join(dir, LOG)).ino;
    } catch {
      return false;
    }
    const log = foldLog(join(dir, LOG), base?.log?.ino === ino ? base.log.bytes : 0, counts);
    const sorted = Object.fromEntries([...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const next: ExposureSnapshot = { schema_version: EXPOSURE_SCHEMA, counts: sorted, log };
    await writeFileAtomic(join(dir, SNAPSHOT), `${JSON.stringify(next)}\n`);
    // Start a new log: the snapshot names the old inode, so the new log is read from its start.
    // An append racing the rename lands in the old file and is lost (one search's impressions).
    renameSync(join(dir, LOG), join(dir, `${LOG}.old`));
    return true;
  } finally {
    lock.release();
  }
}

import { randomBytes } from 'node:crypto';
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { appendAll } from '@maestro/core';
import { pidIsDead } from './pid.js';

/**
 * Temp files of the atomic write and of lock creation are named `<file>.<pid>.<8 hex>.tmp`, beside
 * the file they become, so that the next writer can tell whether their writer is still running.
 * write-file-atomic, used before, named them `<file>.<digits>`: those carry no pid and are only
 * reported (a user's own `notes.md.2024` looks the same).
 */
const TEMP = /^(.+)\.(\d+)\.[0-9a-f]{8}\.tmp$/;
const LEGACY_TEMP = /^(.+\.(?:md|json|jsonl|lock))\.\d{3,}$/;

export function tempPathFor(path: string): string {
  return `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/**
 * Removes the temp files of `path` (and of its lock) whose writer is gone from this host: what a
 * killed write left behind. A live writer's temp is never touched. Best effort: a listing or
 * removal that fails leaves the temp for `spec health` to report.
 */
export function sweepDeadTemps(path: string): string[] {
  const base = basename(path);
  const dir = dirname(path);
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(`${base}.`)) continue;
    const m = TEMP.exec(name);
    if (!m || (m[1] !== base && m[1] !== `${base}.lock`) || !pidIsDead(Number(m[2]))) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // another writer removed it first, or it cannot be removed: reported by health
    }
  }
  return removed;
}

/** A temp file left by an interrupted write. */
export interface LeftoverTemp {
  /** Path of the temp file. */
  path: string;
  /** The file it would have become. */
  target: string;
  /** pid of its writer when the name records one (null for write-file-atomic's names). */
  pid: number | null;
}

/**
 * Lists, under `dir` (recursively, skipping `.index/`), the temp files whose writer is no longer
 * running, and write-file-atomic temps older than a minute. Pure reading; nothing is removed.
 */
export function findLeftoverTemps(dir: string, now = Date.now()): LeftoverTemp[] {
  const out: LeftoverTemp[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== '.index' && e.name !== 'node_modules') appendAll(out, findLeftoverTemps(abs, now));
      continue;
    }
    const m = TEMP.exec(e.name);
    if (m && pidIsDead(Number(m[2]))) {
      out.push({ path: abs, target: join(dir, m[1]), pid: Number(m[2]) });
      continue;
    }
    const legacy = LEGACY_TEMP.exec(e.name);
    if (legacy && olderThan(abs, 60_000, now)) out.push({ path: abs, target: join(dir, legacy[1]), pid: null });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function olderThan(path: string, ms: number, now: number): boolean {
  try {
    return now - statSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { environmentError, MaestroError } from '@maestro/core';
import { createWithOwner, HOST, type LockOwner, readOwner, unbreakableBecause, unbreakableLock } from './lock-owner.js';
import { pidIsDead } from './pid.js';

export type { LockOwner } from './lock-owner.js';

export interface LockOptions {
  /** Give up after this long (default 15 s, or `MAESTRO_LOCK_TIMEOUT_MS`). */
  timeoutMs?: number;
  /**
   * How old (by mtime; the holder refreshes it) a lock of another host must be before it is
   * broken (default 30 s, or `MAESTRO_LOCK_STALE_MS`). A lock of this host is never broken by age
   * while its owner pid is alive: a holder that is merely suspended (SIGSTOP, a paused VM) still
   * holds it. A dead owner pid frees it at once.
   */
  staleMs?: number;
  /** Poll interval while waiting (default 25 ms, with jitter). */
  retryMs?: number;
}

/** A lock whose content names no owner is judged dead once it is this old (a creator killed mid-write). */
const OWNERLESS_GRACE_MS = 3_000;

export class LockTimeoutError extends MaestroError {
  constructor(lockPath: string, owner: LockOwner | null, ageMs: number | null) {
    const who = owner
      ? `pid ${owner.pid} on ${owner.host}, held for ${formatAge(ageMs ?? Date.now() - owner.createdAt)}`
      : `unknown owner${ageMs === null ? '' : `, ${formatAge(ageMs)} old`}`;
    super('LOCK_TIMEOUT', `timed out waiting for lock ${lockPath} (${who})`, {
      exitCode: 3,
      hint: owner
        ? `wait for pid ${owner.pid} to finish (a suspended process holds its lock until it resumes or exits), or if it is gone remove ${lockPath}`
        : `if no maestro process is running, remove ${lockPath}`,
      details: { lock: lockPath, owner, ageMs },
    });
    this.name = 'LockTimeoutError';
  }
}

function fromEnv(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

function formatAge(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

/** Locks this process holds, by lock path: the owner token and the heartbeat timer. */
const held = new Map<string, { token: string; timer: NodeJS.Timeout }>();
/**
 * The locks held by the current async call chain. `withLock` inside a `withLock` on the same
 * target is reentrant; a concurrent task in the same process waits like any other process.
 */
const chain = new AsyncLocalStorage<ReadonlySet<string>>();

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

interface Seen {
  stale: boolean;
  ino: number;
  mtimeMs: number;
}

/** Whether the lock at `lockPath` may be broken; null when it vanished. */
function judge(lockPath: string, staleMs: number): Seen | null {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(lockPath);
  } catch {
    return null; // gone: try again at once
  }
  if (!st.isFile())
    throw unbreakableLock(lockPath, st.isDirectory() ? 'it is a directory' : 'it is not a regular file');
  const age = Date.now() - st.mtimeMs;
  const owner = readOwner(lockPath);
  let stale: boolean;
  if (!owner) stale = age > Math.min(OWNERLESS_GRACE_MS, staleMs);
  else if (owner.host !== HOST) stale = age > staleMs;
  // Our own pid with a token we do not hold: another thread of this process (worker_threads share
  // the pid, not this module's state). Alive, so never broken.
  else if (owner.pid === process.pid) stale = false;
  else stale = pidIsDead(owner.pid);
  return { stale, ino: st.ino, mtimeMs: st.mtimeMs };
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/**
 * Breaks a stale lock under a short O_EXCL side lock, and only if the lock file is still the one
 * judged stale (same inode and mtime), so two waiters cannot both break and both take it.
 * Returns whether it removed the lock. A lock (or side lock) that cannot be removed is an
 * environment error: waiting for it would never end.
 */
function breakStale(lockPath: string, seen: Seen): boolean {
  const side = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(side, 'wx');
  } catch (err) {
    if (code(err) !== 'EEXIST') throw unbreakableBecause(lockPath, err);
    try {
      if (Date.now() - statSync(side).mtimeMs > 5_000) unlinkSync(side);
    } catch (e) {
      if (code(e) !== 'ENOENT') throw unbreakableBecause(side, e);
    }
    return false; // another waiter is breaking it
  }
  closeSync(fd);
  try {
    const st = statSync(lockPath);
    if (st.ino !== seen.ino || st.mtimeMs !== seen.mtimeMs) return false;
    unlinkSync(lockPath);
    return true;
  } catch (err) {
    if (code(err) === 'ENOENT') return false;
    throw unbreakableBecause(lockPath, err);
  } finally {
    try {
      unlinkSync(side);
    } catch {
      // nothing to clean
    }
  }
}

/** A held lock; `release` is idempotent. */
export interface LockHandle {
  path: string;
  release(): void;
}

/** Takes `<target>.lock`, waiting up to the timeout. Not reentrant: use `withLock` for that. */
export async function acquireLock(target: string, options: LockOptions = {}): Promise<LockHandle> {
  const lockPath = `${target}.lock`;
  const timeoutMs = options.timeoutMs ?? fromEnv('MAESTRO_LOCK_TIMEOUT_MS', 15_000);
  const staleMs = fromEnv('MAESTRO_LOCK_STALE_MS', options.staleMs ?? 30_000);
  const retryMs = options.retryMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  const owner: LockOwner = { pid: process.pid, host: HOST, token: randomUUID(), createdAt: Date.now() };
  // Every path through the loop reaches the deadline check: a lock that keeps being freed and
  // retaken, or that cannot be broken at all, never spins past the timeout.
  let freedPastDeadline = false;
  for (;;) {
    if (createWithOwner(lockPath, owner)) break;
    const seen = judge(lockPath, staleMs);
    const freed = seen === null || (seen.stale && breakStale(lockPath, seen));
    const late = Date.now() >= deadline;
    if (freed && (!late || !freedPastDeadline)) {
      freedPastDeadline = late;
      continue;
    }
    if (late) throw timeoutFor(lockPath);
    await sleep(retryMs + Math.floor(Math.random() * retryMs));
  }
  held.set(lockPath, { token: owner.token, timer: heartbeat(lockPath, owner.token, staleMs) });
  return handleFor(lockPath);
}

function timeoutFor(lockPath: string): LockTimeoutError {
  let age: number | null = null;
  try {
    age = Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    // released just now
  }
  const current = readOwner(lockPath);
  return new LockTimeoutError(lockPath, current, current ? Date.now() - current.createdAt : age);
}

/** Refreshes the lock's mtime while it is still ours (never someone else's lock that replaced it). */
function heartbeat(lockPath: string, token: string, staleMs: number): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      try {
        if (readOwner(lockPath)?.token !== token) return;
        const now = new Date();
        utimesSync(lockPath, now, now);
      } catch {
        // lock vanished under us; the next commit's check will notice
      }
    },
    Math.max(100, Math.floor(staleMs / 4)),
  );
  timer.unref();
  return timer;
}

function handleFor(lockPath: string): LockHandle {
  let released = false;
  return {
    path: lockPath,
    release() {
      if (released) return;
      released = true;
      const entry = held.get(lockPath);
      if (!entry) return;
      clearInterval(entry.timer);
      held.delete(lockPath);
      // Only remove the file if it is still ours (it may have been broken as stale).
      const owner = readOwner(lockPath);
      if (owner && owner.token === entry.token) {
        try {
          unlinkSync(lockPath);
        } catch {
          // already gone
        }
      }
    },
  };
}

/**
 * Checks, right before a commit's rename or unlink, that the current async chain still holds
 * every lock it took (the lock file still carries its token). A writer whose lock was broken or
 * removed while it was stalled must not overwrite what the new holder wrote: this throws
 * `LOCK_LOST` (exit 3) naming the lock, what holds it now and the file left unwritten.
 */
export function assertLocksHeld(writing: string): void {
  for (const lockPath of chain.getStore() ?? []) {
    const mine = held.get(lockPath)?.token;
    const owner = readOwner(lockPath);
    if (mine !== undefined && owner?.token === mine) continue;
    const now = owner ? `it is now held by pid ${owner.pid} on ${owner.host}` : 'it was removed';
    throw environmentError(
      'LOCK_LOST',
      `lost lock ${lockPath} before writing ${writing}: ${now} (broken or removed while this process was stalled); ${writing} was not written`,
      {
        hint: 'rerun the command: it re-reads the current files, so nothing the other writer did is overwritten',
        details: { lock: lockPath, file: writing, owner },
      },
    );
  }
}

/** Runs `fn` holding `<target>.lock`; reentrant for nested calls in the same async chain. */
export async function withLock<T>(target: string, fn: () => Promise<T> | T, options?: LockOptions): Promise<T> {
  return withLocks([target], fn, options);
}

/** Runs `fn` holding several locks, taken in sorted order so that two callers cannot deadlock. */
export async function withLocks<T>(
  targets: readonly string[],
  fn: () => Promise<T> | T,
  options?: LockOptions,
): Promise<T> {
  const mine = chain.getStore() ?? new Set<string>();
  const sorted = [...new Set(targets)].filter((t) => !mine.has(`${t}.lock`)).sort();
  const handles: LockHandle[] = [];
  try {
    for (const t of sorted) handles.push(await acquireLock(t, options));
    const next = new Set([...mine, ...handles.map((h) => h.path)]);
    return await chain.run(next, fn);
  } finally {
    for (const h of handles.reverse()) h.release();
  }
}

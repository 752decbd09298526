import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { environmentError, MaestroError } from '@maestro/core';

/** What a lock file holds, so that errors can say who holds it. */
export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  createdAt: number;
}

export interface LockOptions {
  /** Give up after this long (default 15 s, or `MAESTRO_LOCK_TIMEOUT_MS`). */
  timeoutMs?: number;
  /**
   * A lock whose mtime is older than this is stale (default 30 s); the holder refreshes it. It is
   * generous because a holder busy in synchronous work cannot refresh; a crashed holder on this
   * host is detected at once by its dead pid instead.
   */
  staleMs?: number;
  /** Poll interval while waiting (default 25 ms, with jitter). */
  retryMs?: number;
}

export class LockTimeoutError extends MaestroError {
  constructor(lockPath: string, owner: LockOwner | null, ageMs: number | null) {
    const who = owner
      ? `pid ${owner.pid} on ${owner.host}, held for ${formatAge(ageMs ?? Date.now() - owner.createdAt)}`
      : `unknown owner${ageMs === null ? '' : `, ${formatAge(ageMs)} old`}`;
    super('LOCK_TIMEOUT', `timed out waiting for lock ${lockPath} (${who})`, {
      exitCode: 3,
      hint: owner
        ? `wait for pid ${owner.pid} to finish, or if it is gone remove ${lockPath}`
        : `if no maestro process is running, remove ${lockPath}`,
      details: { lock: lockPath, owner, ageMs },
    });
    this.name = 'LockTimeoutError';
  }
}

function defaultTimeout(): number {
  const fromEnv = Number(process.env.MAESTRO_LOCK_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 15_000;
}

function formatAge(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.round(ms / 1000)}s`;
}

const HOST = hostname();
/** An empty lock file older than this is stale (its creator died before writing the owner). */
export const EMPTY_STALE_MS = 2_000;
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

function readOwner(lockPath: string): LockOwner | null {
  try {
    const raw = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    // maestro-flow writes {pid, token, createdAt} without a host: such an owner is judged by age.
    if (typeof raw.pid === 'number') {
      const host = typeof raw.host === 'string' ? raw.host : 'unknown host';
      return { pid: raw.pid, host, token: String(raw.token ?? ''), createdAt: Number(raw.createdAt ?? 0) };
    }
  } catch {
    // unreadable or half-written owner: judged by age alone
  }
  return null;
}

function pidIsDead(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function isStale(lockPath: string, staleMs: number): { stale: boolean; ino: number; mtimeMs: number } | null {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(lockPath);
  } catch {
    return null; // gone: try again at once
  }
  const age = Date.now() - st.mtimeMs;
  const owner = readOwner(lockPath);
  // An empty lock file is a creator killed between `open(wx)` and writing its owner (the two are
  // microseconds apart); waiting out the whole stale window for it would stall every writer.
  let stale = age > staleMs || (st.size === 0 && age > EMPTY_STALE_MS);
  if (!stale && owner && owner.host === HOST && owner.pid !== process.pid && pidIsDead(owner.pid)) stale = true;
  return { stale, ino: st.ino, mtimeMs: st.mtimeMs };
}

function tryCreate(lockPath: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    throw environmentError('LOCK_IO', `cannot create lock ${lockPath}: ${(err as Error).message}`, {
      hint: 'check that the directory exists and is writable',
      cause: err,
    });
  }
  try {
    writeSync(fd, JSON.stringify(owner));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Breaks a stale lock under a short O_EXCL side lock, and only if the lock file is still the one
 * judged stale (same inode and mtime), so two waiters cannot both break and both take it.
 */
function breakStale(lockPath: string, seen: { ino: number; mtimeMs: number }): void {
  const side = `${lockPath}.break`;
  let fd: number;
  try {
    fd = openSync(side, 'wx');
  } catch {
    try {
      if (Date.now() - statSync(side).mtimeMs > 5_000) unlinkSync(side);
    } catch {
      // another waiter is breaking it
    }
    return;
  }
  closeSync(fd);
  try {
    const st = statSync(lockPath);
    if (st.ino === seen.ino && st.mtimeMs === seen.mtimeMs) unlinkSync(lockPath);
  } catch {
    // already gone
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
  const timeoutMs = options.timeoutMs ?? defaultTimeout();
  const staleMs = options.staleMs ?? 30_000;
  const retryMs = options.retryMs ?? 25;
  const deadline = Date.now() + timeoutMs;
  const owner: LockOwner = { pid: process.pid, host: HOST, token: randomUUID(), createdAt: Date.now() };
  for (;;) {
    if (tryCreate(lockPath, owner)) break;
    const seen = isStale(lockPath, staleMs);
    if (seen?.stale) {
      breakStale(lockPath, seen);
      continue;
    }
    if (Date.now() >= deadline) {
      let age: number | null = null;
      try {
        age = Date.now() - statSync(lockPath).mtimeMs;
      } catch {
        continue; // released just now
      }
      const current = readOwner(lockPath);
      throw new LockTimeoutError(lockPath, current, current ? Date.now() - current.createdAt : age);
    }
    await sleep(retryMs + Math.floor(Math.random() * retryMs));
  }
  const timer = setInterval(
    () => {
      try {
        const now = new Date();
        utimesSync(lockPath, now, now);
      } catch {
        // lock vanished under us; release will notice
      }
    },
    Math.max(100, Math.floor(staleMs / 4)),
  );
  timer.unref();
  held.set(lockPath, { token: owner.token, timer });
  return handleFor(lockPath);
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

import { closeSync, fsyncSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { environmentError } from '@maestro/core';
import { tempPathFor } from './temp.js';
import { assertMayWrite } from './write-guard.js';

/** What a lock file holds, so that errors can say who holds it. */
export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  createdAt: number;
}

export const HOST = hostname();

export function readOwner(lockPath: string): LockOwner | null {
  try {
    const raw = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    // maestro-flow writes {pid, token, createdAt} without a host: such an owner is judged by age.
    if (typeof raw.pid === 'number') {
      const host = typeof raw.host === 'string' ? raw.host : 'unknown host';
      return { pid: raw.pid, host, token: String(raw.token ?? ''), createdAt: Number(raw.createdAt ?? 0) };
    }
  } catch {
    // unreadable, empty or foreign content: the caller judges it by age
  }
  return null;
}

function errCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

function why(err: unknown): string {
  const code = errCode(err);
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied (the checkout may belong to another user)';
  if (code === 'EISDIR') return 'it is a directory';
  return (err as Error).message;
}

/** A lock that exists but that this process can neither take nor remove: waiting would never end. */
export function unbreakableLock(lockPath: string, reason: string, cause?: unknown) {
  return environmentError('LOCK_UNBREAKABLE', `cannot take or break lock ${lockPath}: ${reason}`, {
    hint: `remove ${lockPath} by hand if no maestro or maestro-flow process is running, or fix its permissions`,
    details: { lock: lockPath, reason },
    cause,
  });
}

export function unbreakableBecause(lockPath: string, err: unknown) {
  return unbreakableLock(lockPath, why(err), err);
}

function lockIo(lockPath: string, err: unknown) {
  return environmentError('LOCK_IO', `cannot create lock ${lockPath}: ${why(err)}`, {
    hint: 'check that the directory exists and is writable',
    details: { lock: lockPath, errno: errCode(err) ?? null },
    cause: err,
  });
}

/**
 * Creates `lockPath` already holding `owner`, in one step: the owner is written and fsynced to a
 * temp file that is then hard-linked into place (link fails with EEXIST, like O_EXCL), so no
 * process ever sees an empty lock. Where hard links are unsupported it falls back to O_EXCL+write.
 * Returns false when the lock exists.
 */
export function createWithOwner(lockPath: string, owner: LockOwner): boolean {
  try {
    statSync(lockPath);
    return false;
  } catch {
    // absent (or unreadable, which the create below reports)
  }
  assertMayWrite(lockPath);
  const tmp = tempPathFor(lockPath);
  try {
    writeSynced(tmp, JSON.stringify(owner));
  } catch (err) {
    throw lockIo(lockPath, err);
  }
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (err) {
    const code = errCode(err);
    if (code === 'EEXIST') return false;
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'EXDEV') {
      return createExclusive(lockPath, owner);
    }
    throw lockIo(lockPath, err);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
  }
}

function writeSynced(path: string, text: string): void {
  const fd = openSync(path, 'wx');
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function createExclusive(lockPath: string, owner: LockOwner): boolean {
  try {
    writeSynced(lockPath, JSON.stringify(owner));
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw lockIo(lockPath, err);
  }
}

import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { environmentError, inputError, isMaestroError } from '@maestro/core';
import { crashPoint } from './crash.js';
import { assertLocksHeld } from './lock.js';
import { directoryInTheWay, nameTooLong } from './read.js';
import { sweepDeadTemps, tempPathFor } from './temp.js';
import { assertMayWrite } from './write-guard.js';

/**
 * Refuses (exit 2) to write where a directory, or anything else that is not a regular file,
 * holds the place of a file: that is the user's tree to fix, not an IO failure ("check free space").
 * Called before anything is written, so nothing is half-done.
 */
export function refuseNonFileTargets(paths: readonly string[]): void {
  for (const path of paths) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st || st.isFile()) continue;
    if (st.isDirectory()) throw directoryInTheWay(path);
    throw inputError('TARGET_NOT_A_FILE', `${path} is not a regular file, where maestro writes a file`, {
      hint: `move it away (e.g. \`mv "${path}" "${path}.bak"\`) and rerun; nothing was written`,
      location: { file: path },
    });
  }
}

/** fsync a directory so that a rename inside it survives a crash. Best effort where unsupported. */
export function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on directories; the rename is still atomic
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export interface AtomicWriteOptions {
  /**
   * File mode of the written file (the temp file is created with it, so the bytes are never
   * readable under a wider mode). Default: the existing file's mode, else 0666 minus the umask.
   */
  mode?: number;
  /** Mode of directories created on the way (minus the umask). */
  dirMode?: number;
}

function existingMode(path: string): number | null {
  try {
    return statSync(path).mode & 0o7777;
  } catch {
    return null;
  }
}

/**
 * The one atomic-write primitive: temp file (`<file>.<pid>.<hex>.tmp`) + fsync + rename, then
 * fsync of the directory. Readers see either the old bytes or the new bytes, never a torn file;
 * an existing file keeps its mode. Right before the rename it checks that the caller still holds
 * every lock it took (`LOCK_LOST` otherwise, nothing written), and it first removes temps of this
 * file left by writers that were killed. Crash point: `atomic:before-rename` (temp written and synced).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  refuseNonFileTargets([path]);
  const dir = dirname(path);
  let tmp: string | null = null;
  assertMayWrite(path);
  try {
    mkdirSync(dir, { recursive: true, ...(options.dirMode === undefined ? {} : { mode: options.dirMode }) });
    sweepDeadTemps(path);
    const mode = options.mode ?? existingMode(path);
    tmp = tempPathFor(path);
    // Created with the final mode, so the bytes are never readable under a wider one.
    const fd = openSync(tmp, 'wx', mode ?? 0o666);
    try {
      writeFileSync(fd, data);
      if (mode !== null) fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    crashPoint('atomic:before-rename');
    assertLocksHeld(path);
    renameSync(tmp, path);
    tmp = null;
  } catch (err) {
    if (isMaestroError(err)) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') throw directoryInTheWay(path);
    if (code === 'ENAMETOOLONG') throw nameTooLong(path);
    throw environmentError('WRITE_FAILED', `cannot write ${path}: ${(err as Error).message}`, {
      hint: 'check free space and permissions; the previous content is intact',
      cause: err,
    });
  } finally {
    if (tmp !== null) removeQuietly(tmp);
  }
  fsyncDir(dir);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // nothing left to clean
  }
}

/** Writes JSON (2-space indent, final newline) atomically. */
export async function writeJsonAtomic(path: string, value: unknown, options?: AtomicWriteOptions): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
}

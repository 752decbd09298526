import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { environmentError } from '@maestro/core';

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

/**
 * The one atomic-write primitive: temp file + fsync + rename, then fsync of the directory.
 * Readers see either the old bytes or the new bytes, never a torn file.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true, ...(options.dirMode === undefined ? {} : { mode: options.dirMode }) });
    // Loaded on first write, so read-only commands never pay for it at start-up.
    const { default: writeFileAtomicLib } = await import('write-file-atomic');
    await writeFileAtomicLib(path, typeof data === 'string' ? data : Buffer.from(data), {
      fsync: true,
      ...(options.mode === undefined ? {} : { mode: options.mode }),
    });
  } catch (err) {
    throw environmentError('WRITE_FAILED', `cannot write ${path}: ${(err as Error).message}`, {
      hint: 'check free space and permissions; the previous content is intact',
      cause: err,
    });
  }
  fsyncDir(dir);
}

/** Writes JSON (2-space indent, final newline) atomically. */
export async function writeJsonAtomic(path: string, value: unknown, options?: AtomicWriteOptions): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, options);
}

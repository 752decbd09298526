import { closeSync, fsyncSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { environmentError, inputError } from '@maestro/core';

/**
 * Refuses (exit 2) to write where a directory, or anything else that is not a regular file,
 * holds the place of a file: that is the user's tree to fix, not an IO failure ("check free space").
 * Called before anything is written, so nothing is half-done.
 */
export function refuseNonFileTargets(paths: readonly string[]): void {
  for (const path of paths) {
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st || st.isFile()) continue;
    const what = st.isDirectory() ? 'a directory' : 'not a regular file';
    throw inputError('TARGET_NOT_A_FILE', `${path} is ${what}, where maestro writes a file`, {
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

/**
 * The one atomic-write primitive: temp file + fsync + rename, then fsync of the directory.
 * Readers see either the old bytes or the new bytes, never a torn file.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  refuseNonFileTargets([path]);
  const dir = dirname(path);
  try {
    mkdirSync(dir, { recursive: true });
    // Loaded on first write, so read-only commands never pay for it at start-up.
    const { default: writeFileAtomicLib } = await import('write-file-atomic');
    await writeFileAtomicLib(path, typeof data === 'string' ? data : Buffer.from(data), { fsync: true });
  } catch (err) {
    throw environmentError('WRITE_FAILED', `cannot write ${path}: ${(err as Error).message}`, {
      hint: 'check free space and permissions; the previous content is intact',
      cause: err,
    });
  }
  fsyncDir(dir);
}

/** Writes JSON (2-space indent, final newline) atomically. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

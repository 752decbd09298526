import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { assertMayWrite, crashPoint, fsyncDir } from '@maestro/fs';

/** Prefix of the folders a create builds before renaming them into place (hidden: listings skip them). */
export const CREATING_PREFIX = '.creating-';

/**
 * Creates `<parent>/<name>/<file>` holding `text` in one step: the folder is built under a hidden
 * temporary name and renamed into place, so a killed `session create` or `run start` never leaves
 * a session or run folder without its record. Exactly one concurrent creator wins `name`: renaming
 * onto a folder with content fails (→ false). An empty folder in the way, which is all an
 * interrupted create can have left, is replaced.
 */
export function publishDir(parent: string, name: string, file: string, text: string): boolean {
  assertMayWrite(parent);
  const tmp = join(parent, `${CREATING_PREFIX}${name}-${process.pid}-${randomBytes(4).toString('hex')}`);
  mkdirSync(tmp);
  try {
    const fd = openSync(join(tmp, file), 'wx');
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    crashPoint('ledger:publish-before-rename');
    try {
      renameSync(tmp, join(parent, name));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') return false;
      throw err;
    }
    fsyncDir(parent);
    return true;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

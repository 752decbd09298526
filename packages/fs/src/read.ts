import { readFileSync } from 'node:fs';
import { environmentError, inputError, parseJsonText } from '@maestro/core';

/** Reads a text file, or returns null when it does not exist. Other failures are errors. */
export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') {
      // A directory where a file belongs is the user's tree to fix, not a disk problem.
      throw inputError('FILE_IS_DIRECTORY', `${path} is a directory, where a file belongs`, {
        hint: `move it away (e.g. \`mv "${path}" "${path}.bak"\`) and rerun; nothing was written`,
        location: { file: path },
      });
    }
    throw unreadable(path, err);
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a text file the user named; a missing file is bad input (exit 2), and so is a file that
 * is not valid UTF-8 (decoding it lossily would write U+FFFD into the user's knowledge).
 */
export function readUserFile(path: string, what = 'file'): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw inputError('FILE_NOT_FOUND', `${what} not found: ${path}`, {
        hint: 'check the path, or create the file first',
        location: { file: path },
      });
    }
    if (code === 'EISDIR') {
      throw inputError('FILE_IS_DIRECTORY', `${what} is a directory, not a file: ${path}`, {
        hint: 'name a file inside it instead',
        location: { file: path },
      });
    }
    if (code === 'EACCES' || code === 'EPERM') {
      throw inputError('FILE_UNREADABLE', `${what} is not readable: ${path}`, {
        hint: 'fix its permissions',
        location: { file: path },
      });
    }
    throw unreadable(path, err);
  }
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw inputError('FILE_NOT_UTF8', `${what} is not valid UTF-8 text: ${path}`, {
      hint: 'convert it to UTF-8 (e.g. iconv -t UTF-8) and rerun; nothing was written',
      location: { file: path },
    });
  }
}

/** Reads and parses a JSON file, or returns null when it does not exist. Syntax errors name file:line:col. */
export function readJsonIfExists(path: string): unknown | null {
  const text = readTextIfExists(path);
  return text === null ? null : parseJsonText(text, path);
}

function unreadable(path: string, err: unknown) {
  return environmentError('READ_FAILED', `cannot read ${path}: ${(err as Error).message}`, {
    hint: 'check that the file is readable and the disk is healthy',
    cause: err,
  });
}

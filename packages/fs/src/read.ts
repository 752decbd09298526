import { readFileSync } from 'node:fs';
import { environmentError, inputError, parseJsonText } from '@maestro/core';

/** Reads a text file, or returns null when it does not exist. Other failures are errors. */
export function readTextIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'EISDIR') throw directoryInTheWay(path);
    if (code === 'ENAMETOOLONG') throw nameTooLong(path);
    throw unreadable(path, err);
  }
}

/** A path built from an id or name the user gave that the file system cannot hold: bad input (exit 2). */
export function nameTooLong(path: string) {
  return inputError('NAME_TOO_LONG', `the path ${path.slice(0, 120)}… is too long for the file system`, {
    hint: 'use a shorter id or name; nothing was written',
  });
}

/** A directory where maestro keeps a file: bad input (exit 2) the user must move aside, never an IO error. */
export function directoryInTheWay(path: string) {
  return inputError('FILE_IS_DIRECTORY', `${path} is a directory, but a file belongs there`, {
    hint: `move the directory aside (e.g. \`mv ${path} ${path}.dir\`) and rerun; nothing was written`,
    location: { file: path },
  });
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

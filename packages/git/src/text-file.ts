import { readFileSync } from 'node:fs';
import { environmentError } from '@maestro/core';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A file's exact text (a BOM kept), or null when its bytes are not UTF-8 — so nothing is decoded
 * lossily and written back. Read failures are environment errors (exit 3).
 */
export function readExactText(path: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw environmentError('READ_FAILED', `cannot read ${path}: ${(err as Error).message}`, {
      hint: 'check that the file exists and is readable by this user',
      cause: err,
    });
  }
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

import { createHash } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { environmentError, isMaestroError, type Runtime } from '@maestro/core';
import { fsyncDir, refuseNonFileTargets, writeFileAtomic, writeJsonAtomic } from './atomic.js';
import { crashPoint } from './crash.js';
import { assertLocksHeld } from './lock.js';
import { readJsonIfExists } from './read.js';

/** One file of a multi-file commit: the exact bytes it must end up with. */
export interface PlannedWrite {
  /** Path relative to the journal's root. */
  path: string;
  /** Text (written as UTF-8) or raw bytes (journaled as base64). */
  content: string | Uint8Array;
}

export interface CommitIntent<M = unknown> {
  schema_version: 'maestro-commit-intent/1.0';
  id: string;
  created_at: string;
  writes: { path: string; sha256: string; content: string; encoding?: 'base64' }[];
  meta: M;
}

function sha(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function currentSha(path: string): string | null {
  try {
    return sha(readFileSync(path));
  } catch {
    return null;
  }
}

/** The bytes a journaled write stands for. */
function bytesOf(w: CommitIntent['writes'][number]): string | Buffer {
  return w.encoding === 'base64' ? Buffer.from(w.content, 'base64') : w.content;
}

function journaled(root: string, w: PlannedWrite): CommitIntent['writes'][number] {
  const path = toRelative(root, w.path);
  if (typeof w.content === 'string') return { path, sha256: sha(w.content), content: w.content };
  return { path, sha256: sha(w.content), content: Buffer.from(w.content).toString('base64'), encoding: 'base64' };
}

/**
 * Commits several files as one: the intent (every target's final bytes) is written first, then
 * each file atomically, then the intent is removed. A crash at any point is repaired by
 * `recoverCommit`, which rolls forward to exactly the journaled result. The caller must hold the
 * lock that guards these files.
 */
export async function commitFiles<M>(
  root: string,
  intentPath: string,
  writes: readonly PlannedWrite[],
  meta: M,
  runtime: Runtime,
  crashPrefix = 'commit',
): Promise<void> {
  const intent: CommitIntent<M> = {
    schema_version: 'maestro-commit-intent/1.0',
    id: sha(`${intentPath}\u0000${runtime.now().toISOString()}\u0000${writes.map((w) => w.path).join('\u0000')}`).slice(
      0,
      16,
    ),
    created_at: runtime.now().toISOString(),
    writes: writes.map((w) => journaled(root, w)),
    meta,
  };
  refuseNonFileTargets(intent.writes.map((w) => join(root, w.path)));
  await writeJsonAtomic(intentPath, intent);
  crashPoint(`${crashPrefix}:after-intent`);
  await applyIntent(root, intent, crashPrefix);
  clearIntent(intentPath);
}

function toRelative(root: string, path: string): string {
  return isAbsolute(path) ? relative(root, path) : path;
}

async function applyIntent(root: string, intent: CommitIntent, crashPrefix: string): Promise<void> {
  for (const [i, w] of intent.writes.entries()) {
    const abs = join(root, w.path);
    if (currentSha(abs) !== w.sha256) await writeFileAtomic(abs, bytesOf(w));
    crashPoint(`${crashPrefix}:after-file-${i + 1}`);
  }
}

function clearIntent(intentPath: string): void {
  assertLocksHeld(intentPath);
  try {
    unlinkSync(intentPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fsyncDir(join(intentPath, '..'));
}

/** Reads a pending intent, if any. A damaged intent is an environment error naming the file. */
export function readIntent<M = unknown>(intentPath: string): CommitIntent<M> | null {
  let raw: CommitIntent<M> | null;
  try {
    raw = readJsonIfExists(intentPath) as CommitIntent<M> | null;
  } catch (err) {
    // Maestro wrote this file, not the user: torn or garbled JSON is damage, like a wrong schema.
    if (!isMaestroError(err) || err.code !== 'INVALID_JSON') throw err;
    throw environmentError('INTENT_DAMAGED', `commit intent ${intentPath} is damaged: ${err.message}`, {
      hint: 'inspect it; if no maestro process is running, move it aside and rerun',
      location: { file: intentPath },
      cause: err,
    });
  }
  if (raw === null) return null;
  if (raw?.schema_version !== 'maestro-commit-intent/1.0' || !Array.isArray(raw.writes)) {
    throw environmentError('INTENT_DAMAGED', `commit intent ${intentPath} is not a maestro commit intent`, {
      hint: 'inspect it; if no maestro process is running, move it aside and rerun',
      location: { file: intentPath },
    });
  }
  return raw;
}

/**
 * Rolls a pending intent forward (the one recovery direction) and removes it. Returns the
 * intent's meta when something was recovered. The caller must hold the guarding lock.
 */
export async function recoverCommit<M = unknown>(root: string, intentPath: string): Promise<CommitIntent<M> | null> {
  const intent = readIntent<M>(intentPath);
  if (!intent) return null;
  for (const w of intent.writes) {
    if (sha(bytesOf(w)) !== w.sha256) {
      throw environmentError('INTENT_DAMAGED', `commit intent ${intentPath} has a damaged entry for ${w.path}`, {
        location: { file: intentPath },
      });
    }
  }
  await applyIntent(root, intent as CommitIntent, 'recover');
  clearIntent(intentPath);
  return intent;
}

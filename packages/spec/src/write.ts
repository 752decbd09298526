import { existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, type Runtime, sha256 } from '@maestro/core';
import {
  assertLocksHeld,
  commitFiles,
  fsyncDir,
  type LockOptions,
  readIntent,
  readTextIfExists,
  refuseNonFileTargets,
  type WorkflowLayout,
  withCorpusLock,
  withLocks,
  writeFileAtomic,
} from '@maestro/fs';
import { refuseConflicted } from './conflict-markers.js';
import { type LoadedCorpus, loadCorpusFiles } from './corpus.js';
import { recordAppends } from './corpus-stored.js';
import { SPEC_INTENT_FILE } from './intent-file.js';
import { loadFilesWithIds } from './lookup.js';

/** Options of every corpus write. */
export interface WriteOptions {
  /** Lock waiting policy (timeout, stale window); the CLI sets the timeout from `MAESTRO_LOCK_TIMEOUT_MS`. */
  lock?: LockOptions;
}

/** One file to write: path relative to `.workflow/` and its complete new text. */
export interface FileWrite {
  file: string;
  text: string;
}

export { SPEC_INTENT_FILE };

/** Fails with exit 2 when the project has no `.workflow/` (writes never create it; `maestro init` does). */
export function requireWorkflow(layout: WorkflowLayout): void {
  if (!existsSync(layout.workflow)) {
    throw inputError('NO_WORKFLOW', `no .workflow/ directory in ${layout.root}`, {
      hint: 'run `maestro init` there first, or pass --workflow-root <project dir>',
    });
  }
}

/**
 * Runs a corpus edit: takes the project-wide corpus lock, rolls forward any interrupted
 * multi-file edit, reads the corpus fresh, lets `plan` decide the writes, then takes each target
 * file's own lock and writes atomically (several files through the intent journal). With
 * `onlyFiles`, a plan that reads only those files (plus ids and knowhow names, `LoadedCorpus.ids`
 * / `knowhowFiles`) gets just them, through the store; the whole corpus when the store cannot.
 */
export async function editCorpus<T>(
  layout: WorkflowLayout,
  runtime: Runtime,
  options: WriteOptions,
  plan: (loaded: LoadedCorpus) => { writes: FileWrite[]; result: T },
  onlyFiles?: readonly string[],
): Promise<T> {
  requireWorkflow(layout);
  return withCorpusLock(
    layout,
    async () => {
      await recoverSpecEdit(layout);
      const loaded: LoadedCorpus = (onlyFiles && loadFilesWithIds(layout, onlyFiles)) || loadCorpusFiles(layout);
      const { writes, result } = plan(loaded);
      if (writes.length === 0) return result;
      refuseNonUtf8(loaded, writes);
      const targets = writes.map((w) => join(layout.workflow, w.file));
      refuseNonFileTargets(targets);
      for (const t of targets) mkdirSync(join(t, '..'), { recursive: true });
      // A single file is encoded once: the same bytes are written and hashed for the store.
      const bytes = writes.length === 1 ? Buffer.from(writes[0].text, 'utf8') : undefined;
      await withLocks(
        targets,
        async () => {
          if (bytes) await writeFileAtomic(targets[0], bytes);
          else {
            const planned = writes.map((w) => ({ path: w.file, content: w.text }));
            const before = Object.fromEntries(writes.map((w) => [w.file, beforeHash(loaded, w.file)]));
            await commitFiles(
              layout.workflow,
              join(layout.workflow, SPEC_INTENT_FILE),
              planned,
              { before },
              runtime,
              'spec',
            );
          }
        },
        options.lock,
      );
      recordAppends(
        layout,
        writes.map((w) => ({ file: w.file, text: w.text, bytes })),
      );
      return result;
    },
    options.lock,
  );
}

function refuseNonUtf8(loaded: LoadedCorpus, writes: FileWrite[]): void {
  for (const w of writes) {
    const f = loaded.specs.find((s) => s.file === w.file) ?? loaded.knowhow.find((k) => k.file === w.file);
    if (f && !f.utf8) {
      throw inputError('FILE_NOT_UTF8', `.workflow/${w.file} is not valid UTF-8; maestro will not rewrite it`, {
        hint: 'convert the file to UTF-8 and rerun; nothing was written',
        location: { file: `.workflow/${w.file}` },
      });
    }
    if (f) refuseConflicted(w.file, f.text);
  }
}

/** sha256 of a file's text as read for this edit, or null when the edit creates it. */
function beforeHash(loaded: LoadedCorpus, file: string): string | null {
  const f = loaded.specs.find((s) => s.file === file) ?? loaded.knowhow.find((k) => k.file === file);
  return f ? sha256(f.text) : null;
}

export interface RecoveredEdit {
  /** Files rolled forward to the journaled bytes. */
  recovered: string[];
  /** Files changed by someone else since the interrupted edit: left as they are. */
  skipped: string[];
}

/**
 * Rolls an interrupted multi-file corpus edit forward. A file is written only while it still
 * holds exactly what the edit read (its journaled sha256), so a later write by another tool is
 * never overwritten; such files are reported as skipped. Call it under the corpus lock before
 * any corpus write (every writer of this package does; promote and audit should too).
 */
export async function recoverSpecEdit(layout: WorkflowLayout): Promise<RecoveredEdit | null> {
  const path = join(layout.workflow, SPEC_INTENT_FILE);
  const intent = readIntent<{ before?: Record<string, string | null> }>(path);
  if (!intent) return null;
  const out: RecoveredEdit = { recovered: [], skipped: [] };
  for (const w of intent.writes) {
    const abs = join(layout.workflow, w.path);
    const current = readTextIfExists(abs);
    const hash = current === null ? null : sha256(current);
    if (hash === w.sha256) continue;
    if (hash === (intent.meta?.before?.[w.path] ?? null)) {
      await writeFileAtomic(abs, w.content);
      out.recovered.push(w.path);
    } else out.skipped.push(w.path);
  }
  assertLocksHeld(path);
  unlinkSync(path);
  fsyncDir(layout.workflow);
  return out;
}

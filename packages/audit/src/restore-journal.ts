import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, parseJsonText, sha256 } from '@maestro/core';
import {
  assertLocksHeld,
  crashPoint,
  fsyncDir,
  readTextIfExists,
  type WorkflowLayout,
  withLocks,
  writeFileAtomic,
  writeJsonAtomic,
} from '@maestro/fs';
import { appendAuditLog, auditLogPath, backupDir, fileSha, writeManifest } from './backups.js';
import {
  type AuditBackupManifest,
  AuditBackupManifestSchema,
  type AuditLogLine,
  AuditLogLineSchema,
} from './schemas.js';

/**
 * The restore journal, `.workflow/.knowledge-restore.intent.json`, written before any file is
 * put back: which backup, each file's hash before the restore and its backup copy's hash (the
 * bytes stay in the backup folder, so binary and non-UTF-8 files come back exactly), the
 * manifest to write and the log line to add. One recovery direction: forward.
 */
export const RESTORE_INTENT_FILE = '.knowledge-restore.intent.json';

export interface RestoreIntent {
  schema_version: 'maestro-restore-intent/1.0';
  backup_id: string;
  files: { path: string; from_sha256: string | null; to_sha256: string }[];
  manifest: AuditBackupManifest;
  log: AuditLogLine;
}

export function restoreIntentPath(layout: WorkflowLayout): string {
  return join(layout.workflow, RESTORE_INTENT_FILE);
}

/** The pending restore, if any. A damaged intent is an environment error naming the file (exit 3). */
export function readRestoreIntent(layout: WorkflowLayout): RestoreIntent | null {
  const path = restoreIntentPath(layout);
  const text = readTextIfExists(path);
  if (text === null) return null;
  let raw: Partial<RestoreIntent> | null = null;
  try {
    raw = parseJsonText(text, `.workflow/${RESTORE_INTENT_FILE}`) as Partial<RestoreIntent>;
  } catch {
    // torn JSON: reported as damage below, like a wrong shape (maestro wrote it, not the user)
  }
  const manifest = AuditBackupManifestSchema.safeParse(raw?.manifest);
  const log = AuditLogLineSchema.safeParse(raw?.log);
  if (
    raw?.schema_version !== 'maestro-restore-intent/1.0' ||
    !Array.isArray(raw.files) ||
    !manifest.success ||
    !log.success
  ) {
    throw environmentError('INTENT_DAMAGED', `restore intent .workflow/${RESTORE_INTENT_FILE} is damaged`, {
      hint: 'if no maestro process is running, move it aside and rerun `maestro knowledge restore <backup-id> --force`',
      location: { file: path },
    });
  }
  return raw as RestoreIntent;
}

/**
 * Journals and performs a restore (the caller holds the corpus lock): intent, then each file,
 * then the manifest, then the log line, then the intent is removed. Crash points:
 * `restore:after-intent`, `restore:after-file-<n>`, `restore:after-manifest`, `restore:after-log`.
 */
export async function commitRestore(layout: WorkflowLayout, intent: RestoreIntent): Promise<string[]> {
  await writeJsonAtomic(restoreIntentPath(layout), intent);
  crashPoint('restore:after-intent');
  return applyRestore(layout, intent);
}

/** Finishes an interrupted restore, if one is pending (the caller holds the corpus lock). */
export async function recoverRestore(layout: WorkflowLayout): Promise<RestoreIntent | null> {
  const intent = readRestoreIntent(layout);
  if (!intent) return null;
  await applyRestore(layout, intent);
  return intent;
}

/**
 * Rolls the intent forward. A file already holding the backup's bytes is left alone; one still
 * as it was when the restore began gets them; one that someone changed after the interruption is
 * left as they wrote it and returned (never overwritten). Idempotent at every step.
 */
async function applyRestore(layout: WorkflowLayout, intent: RestoreIntent): Promise<string[]> {
  const dir = backupDir(layout, intent.backup_id);
  const skipped: string[] = [];
  await withLocks(
    intent.files.map((f) => join(layout.root, f.path)),
    async () => {
      for (const [i, f] of intent.files.entries()) {
        const abs = join(layout.root, f.path);
        const now = fileSha(abs);
        if (now !== f.to_sha256) {
          if (now !== f.from_sha256) skipped.push(f.path);
          else await writeFileAtomic(abs, backupBytes(dir, f.path, f.to_sha256));
        }
        crashPoint(`restore:after-file-${i + 1}`);
      }
    },
  );
  await writeManifest(layout, intent.manifest);
  crashPoint('restore:after-manifest');
  if (!logHas(layout, intent.log)) appendAuditLog(layout, [intent.log]);
  crashPoint('restore:after-log');
  assertLocksHeld(restoreIntentPath(layout));
  try {
    unlinkSync(restoreIntentPath(layout));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fsyncDir(layout.workflow);
  return skipped;
}

function backupBytes(dir: string, path: string, expected: string): Buffer {
  const bytes = readFileSync(join(dir, path));
  if (sha256(bytes) !== expected) {
    throw environmentError('BACKUP_CHANGED', `the backup copy of ${path} in ${dir} changed during the restore`, {
      hint: 'inspect the backup folder; nothing more was restored',
    });
  }
  return bytes;
}

/** Whether the log already holds this exact line (a restore killed after logging, before clearing). */
function logHas(layout: WorkflowLayout, line: AuditLogLine): boolean {
  const text = readTextIfExists(auditLogPath(layout));
  if (text === null) return false;
  const wanted = JSON.stringify(AuditLogLineSchema.parse(line));
  return text.split('\n').some((l) => l === wanted);
}

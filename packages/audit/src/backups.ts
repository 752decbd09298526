import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, isMaestroError, parseJsonText, sha256 } from '@maestro/core';
import { assertMayWrite, readTextIfExists, type WorkflowLayout, writeJsonAtomic } from '@maestro/fs';
import {
  type AuditBackupManifest,
  AuditBackupManifestSchema,
  type AuditLogLine,
  AuditLogLineSchema,
  type BackupList,
} from './schemas.js';

/** Our manifest, beside @maestro/fs's `backup-manifest.json` in the same folder. */
export const AUDIT_MANIFEST = 'audit-backup.json';
export const BACKUP_PREFIX = 'knowledge-audit-';
const BACKUP_ID = /^knowledge-audit-[0-9A-Za-z-]+$/;

/** maestro-flow's folder stamp: the ISO time with `:` and `.` replaced by `-`. */
export function backupStamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

export function backupDir(layout: WorkflowLayout, backupId: string): string {
  return join(layout.trash, backupId);
}

export function auditLogPath(layout: WorkflowLayout): string {
  return join(layout.auditDir, 'audit-log.jsonl');
}

/** Claims a fresh `knowledge-audit-<stamp>[-N]` folder (mkdir without `recursive`: one winner per name). */
export function claimBackupDir(layout: WorkflowLayout, now: Date): string {
  assertMayWrite(layout.trash);
  mkdirSync(layout.trash, { recursive: true });
  const base = `${BACKUP_PREFIX}${backupStamp(now)}`;
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    try {
      mkdirSync(backupDir(layout, id));
      return id;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}

export function assertBackupId(backupId: string): void {
  if (!BACKUP_ID.test(backupId)) {
    throw inputError('INVALID_BACKUP_ID', `"${backupId}" is not an audit backup id (knowledge-audit-<stamp>)`, {
      hint: 'run `maestro knowledge audit --backups` to list them',
    });
  }
}

export async function writeManifest(layout: WorkflowLayout, manifest: AuditBackupManifest): Promise<void> {
  await writeJsonAtomic(
    join(backupDir(layout, manifest.backup_id), AUDIT_MANIFEST),
    AuditBackupManifestSchema.parse(manifest),
  );
}

/** Reads and validates a backup's manifest. Unknown backup or damaged manifest → exit 2 naming it. */
export function readManifest(layout: WorkflowLayout, backupId: string): AuditBackupManifest {
  assertBackupId(backupId);
  const file = `.workflow/.trash/${backupId}/${AUDIT_MANIFEST}`;
  const text = readTextIfExists(join(backupDir(layout, backupId), AUDIT_MANIFEST));
  if (text === null) {
    throw inputError('BACKUP_NOT_FOUND', `no audit backup ${backupId} (${file} does not exist)`, {
      hint: 'run `maestro knowledge audit --backups` to list the backups',
    });
  }
  const parsed = AuditBackupManifestSchema.safeParse(parseJsonText(text, file));
  if (!parsed.success || parsed.data.backup_id !== backupId) {
    const why = parsed.success
      ? `backup_id "${parsed.data.backup_id}" does not match its folder`
      : parsed.error.issues
          .slice(0, 3)
          .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
          .join('; ');
    throw inputError('BACKUP_MANIFEST_INVALID', `${file} is not a valid audit backup manifest: ${why}`, {
      hint: 'the backed-up files are still in that folder; copy them back by hand if needed',
      location: { file },
    });
  }
  return parsed.data;
}

/** Every audit backup, oldest first (stamps sort chronologically). Damaged ones are listed as such. */
export function listBackups(layout: WorkflowLayout): BackupList {
  let names: string[];
  try {
    names = readdirSync(layout.trash, { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name.startsWith(BACKUP_PREFIX))
      .map((d) => d.name)
      .sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    names = [];
  }
  const backups = names.map((backup_id) => {
    const dir = `.workflow/.trash/${backup_id}`;
    try {
      const m = readManifest(layout, backup_id);
      return {
        backup_id,
        dir,
        created_at: m.created_at,
        state: m.state,
        audit_id: m.audit_id,
        actions: m.actions.length,
        files: m.files.map((f) => f.path),
        problem: null,
      };
    } catch (err) {
      if (!isMaestroError(err)) throw err;
      const base = { backup_id, dir, created_at: null, audit_id: null, actions: 0, files: [] };
      return { ...base, state: 'damaged' as const, problem: err.message };
    }
  });
  return { schema_version: 'maestro-audit-backups/1.0', backups };
}

/**
 * Appends lines to the audit log in one write, then fsyncs. Never rewrites what is there, so
 * the log costs O(new lines) and a concurrent reader never sees a truncated file.
 */
export function appendAuditLog(layout: WorkflowLayout, lines: readonly AuditLogLine[]): void {
  if (!lines.length) return;
  const text = lines.map((l) => JSON.stringify(AuditLogLineSchema.parse(l))).join('\n');
  assertMayWrite(layout.auditDir);
  mkdirSync(layout.auditDir, { recursive: true });
  const fd = openSync(auditLogPath(layout), 'a');
  try {
    writeSync(fd, `${text}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** sha256 of a file's bytes, or null when it does not exist. */
export function fileSha(path: string): string | null {
  try {
    return sha256(readFileSync(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

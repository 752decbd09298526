import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, type Runtime } from '@maestro/core';
import { type LockOptions, restoreFiles, type WorkflowLayout, withCorpusLock, withLocks } from '@maestro/fs';
import { appendAuditLog, backupDir, fileSha, readManifest, writeManifest } from './backups.js';
import type { AuditBackupManifest, RestoreResult } from './schemas.js';

export interface RestoreOptions {
  runtime: Runtime;
  /** Put files back even when they changed after the apply (their later edits are lost). */
  force?: boolean;
  lock?: LockOptions;
}

/**
 * The files of a backup that someone changed after the apply: their current hash is neither the
 * applied one nor (for an apply that never finished, or one already restored) the original one.
 * Pure over the manifest and the current hashes.
 */
export function changedSinceApply(
  manifest: AuditBackupManifest,
  current: ReadonlyMap<string, string | null>,
): string[] {
  const out: string[] = [];
  for (const f of manifest.files) {
    const now = current.get(f.path) ?? null;
    const accepted = new Set([f.after_sha256]);
    if (manifest.state !== 'applied') accepted.add(f.before_sha256);
    if (now === null || !accepted.has(now)) out.push(f.path);
  }
  return out;
}

/**
 * `maestro knowledge restore <backup-id>`: under the corpus lock, puts every file of the backup
 * back (atomically per file) and records it in the audit log. If a file changed since the apply
 * it refuses (`restored: false`, the files listed) unless `force`. A backup that was rolled back
 * already has nothing to restore; an unknown id or damaged manifest is exit 2.
 */
export async function restoreBackup(
  layout: WorkflowLayout,
  backupId: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return withCorpusLock(
    layout,
    async () => {
      const manifest = readManifest(layout, backupId);
      if (manifest.state === 'rolled-back') {
        throw inputError(
          'BACKUP_ROLLED_BACK',
          `${backupId} belongs to an apply that failed and was already rolled back`,
          {
            hint: 'there is nothing to restore; run `maestro knowledge audit --backups` to see the others',
          },
        );
      }
      const paths = manifest.files.map((f) => f.path);
      const missing = paths.filter((p) => !existsSync(join(backupDir(layout, backupId), p)));
      if (missing.length) {
        throw inputError('BACKUP_INCOMPLETE', `${backupId} is missing its copy of ${missing.join(', ')}`, {
          hint: `look in .workflow/.trash/${backupId}/; nothing was restored`,
        });
      }
      const current = new Map(paths.map((p) => [p, fileSha(join(layout.root, p))]));
      const changed = changedSinceApply(manifest, current);
      const result: RestoreResult = {
        schema_version: 'maestro-audit-restore/1.0',
        backup_id: backupId,
        restored: false,
        files: [],
        changed_since_apply: changed,
        forced: !!options.force,
        already_restored: false,
      };
      // A second restore of the same backup has nothing to put back: say so instead of "restored".
      const before = new Map(manifest.files.map((f) => [f.path, f.before_sha256]));
      if (manifest.state === 'restored' && paths.every((p) => current.get(p) === before.get(p))) {
        return { ...result, changed_since_apply: [], already_restored: true };
      }
      if (changed.length && !options.force) return result;
      await withLocks(
        paths.map((p) => join(layout.root, p)),
        () => restoreFiles(layout.root, backupDir(layout, backupId), paths),
        options.lock,
      );
      const at = options.runtime.now().toISOString();
      await writeManifest(layout, { ...manifest, state: 'restored', updated_at: at });
      appendAuditLog(layout, [
        {
          event: 'restore',
          audit_id: manifest.audit_id,
          backup_id: backupId,
          backup_path: `.workflow/.trash/${backupId}`,
          files: paths,
          forced: !!options.force,
          changed_since_apply: changed,
          at,
        },
      ]);
      return { ...result, restored: true, files: paths };
    },
    options.lock,
  );
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, type Runtime } from '@maestro/core';
import { type LockOptions, type WorkflowLayout, withCorpusLock } from '@maestro/fs';
import { backupDir, fileSha, readManifest } from './backups.js';
import { commitRestore, type RestoreIntent, recoverRestore } from './restore-journal.js';
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
 * `maestro knowledge restore <backup-id>`: under the corpus lock, finishes any interrupted
 * restore first, then journals this one (intent before any file) and puts every file of the
 * backup back, exactly as backed up, and records it in the audit log. A restore killed at any
 * point is finished by the next run (or any audit apply) to the same bytes. If a file changed
 * since the apply it refuses (`restored: false`, the files listed) unless `force`. A backup
 * that was rolled back already has nothing to restore; an unknown id or damaged manifest is exit 2.
 */
export async function restoreBackup(
  layout: WorkflowLayout,
  backupId: string,
  options: RestoreOptions,
): Promise<RestoreResult> {
  return withCorpusLock(
    layout,
    async () => {
      const recovered = await recoverRestore(layout);
      const manifest = readManifest(layout, backupId);
      if (recovered?.backup_id === backupId) return finished(recovered);
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
      const dir = backupDir(layout, backupId);
      const missing = paths.filter((p) => !existsSync(join(dir, p)));
      if (missing.length) {
        throw inputError('BACKUP_INCOMPLETE', `${backupId} is missing its copy of ${missing.join(', ')}`, {
          hint: `look in .workflow/.trash/${backupId}/; nothing was restored`,
        });
      }
      const current = new Map(paths.map((p) => [p, fileSha(join(layout.root, p))]));
      const changed = changedSinceApply(manifest, current);
      const forced = !!options.force;
      const result: RestoreResult = {
        schema_version: 'maestro-audit-restore/1.0',
        backup_id: backupId,
        restored: false,
        files: [],
        changed_since_apply: changed,
        forced,
        already_restored: false,
      };
      // A second restore of the same backup has nothing to put back: say so instead of "restored".
      const before = new Map(manifest.files.map((f) => [f.path, f.before_sha256]));
      if (manifest.state === 'restored' && paths.every((p) => current.get(p) === before.get(p))) {
        return { ...result, changed_since_apply: [], already_restored: true };
      }
      if (changed.length && !forced) return result;
      const at = options.runtime.now().toISOString();
      await commitRestore(layout, {
        schema_version: 'maestro-restore-intent/1.0',
        backup_id: backupId,
        files: paths.map((p) => ({
          path: p,
          from_sha256: current.get(p) ?? null,
          to_sha256: fileSha(join(dir, p)) as string,
        })),
        manifest: { ...manifest, state: 'restored', updated_at: at },
        log: {
          event: 'restore',
          audit_id: manifest.audit_id,
          backup_id: backupId,
          backup_path: `.workflow/.trash/${backupId}`,
          files: paths,
          forced,
          changed_since_apply: changed,
          at,
        },
      });
      return { ...result, restored: true, files: paths };
    },
    options.lock,
  );
}

/** The result of a restore that an earlier, interrupted run of the same command had begun. */
function finished(intent: RestoreIntent): RestoreResult {
  const log = intent.log as Extract<RestoreIntent['log'], { event: 'restore' }>;
  return {
    schema_version: 'maestro-audit-restore/1.0',
    backup_id: intent.backup_id,
    restored: true,
    files: intent.files.map((f) => f.path),
    changed_since_apply: log.changed_since_apply,
    forced: log.forced,
    already_restored: false,
  };
}

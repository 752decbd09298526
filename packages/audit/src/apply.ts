import { join } from 'node:path';
import { derivedId, environmentError, isMaestroError, MaestroError, type Runtime, sha256 } from '@maestro/core';
import { backupFiles, crashPoint, restoreFiles, type WorkflowLayout, withLocks, writeFileAtomic } from '@maestro/fs';
import type { LoadedCorpus } from '@maestro/spec';
import { appendAuditLog, backupDir, claimBackupDir, writeManifest } from './backups.js';
import { computeEdits, type FileEdit } from './edits.js';
import type { Applied, AuditBackupManifest, AuditLogLine, PruneAction, PrunePlan } from './schemas.js';

export interface ApplyOptions {
  runtime: Runtime;
  /** Apply actions whose target a pending candidate with a fresh receipt matches (skipped by default). */
  includePendingTargets?: boolean;
  /**
   * Called before each action's files are written. Tests inject faults here (throwing from the
   * second action proves the rollback); production code passes nothing.
   */
  beforeAction?: (index: number, action: PruneAction) => void | Promise<void>;
}

/**
 * Applies a prune plan. The caller holds the corpus lock and passes the corpus it read under
 * that lock. Steps: compute every file's new bytes (nothing written if that fails); copy every
 * file to be touched to `.trash/knowledge-audit-<stamp>/<project-relative path>` with a manifest
 * (state `applying`, before/after hashes); write each file atomically right after the last
 * action that changes it (under the file's own lock); append one audit-log line per action;
 * mark the manifest `applied`. If any step fails, every file is restored from the backup, a
 * `rollback` line is logged and the error is rethrown (AUDIT_APPLY_FAILED).
 */
export async function applyPrunePlan(
  layout: WorkflowLayout,
  loaded: LoadedCorpus,
  plan: PrunePlan,
  options: ApplyOptions,
): Promise<Applied> {
  const selected = plan.actions.filter((a) => options.includePendingTargets || a.pending_targets.length === 0);
  const skipped = plan.actions.filter((a) => !selected.includes(a)).map((a) => a.id);
  const none: Applied = {
    count: 0,
    audit_id: null,
    backup_id: null,
    backup_dir: null,
    applied_actions: [],
    skipped_pending_targets: skipped,
  };
  if (!selected.length) return none;
  const edits = computeEdits(loaded, selected);
  const manifest = await openBackup(layout, plan, selected, edits, options.runtime);
  try {
    await writeActions(layout, selected, edits, options);
  } catch (err) {
    await rollBack(layout, manifest, err, options.runtime);
  }
  const at = options.runtime.now().toISOString();
  appendAuditLog(
    layout,
    selected.map((a) => applyLine(manifest, a, at)),
  );
  await writeManifest(layout, { ...manifest, state: 'applied', updated_at: at });
  const backupPath = `.workflow/.trash/${manifest.backup_id}`;
  return {
    ...none,
    count: selected.length,
    audit_id: manifest.audit_id,
    backup_id: manifest.backup_id,
    backup_dir: backupPath,
    applied_actions: selected.map((a) => a.id),
  };
}

/** Claims the backup folder, copies every file to be touched into it, writes the manifest (`applying`). */
async function openBackup(
  layout: WorkflowLayout,
  plan: PrunePlan,
  selected: readonly PruneAction[],
  edits: readonly FileEdit[],
  runtime: Runtime,
): Promise<AuditBackupManifest> {
  const now = runtime.now();
  const backupId = claimBackupDir(layout, now);
  const auditId = derivedId('AUD-', [plan.plan_id, backupId]);
  const rel = (f: FileEdit) => `.workflow/${f.file}`;
  const manifest: AuditBackupManifest = {
    schema_version: 'maestro-audit-backup/1.0',
    backup_id: backupId,
    audit_id: auditId,
    plan_id: plan.plan_id,
    created_at: now.toISOString(),
    state: 'applying',
    updated_at: now.toISOString(),
    actions: selected.map((a) => a.id),
    files: edits.map((f) => ({ path: rel(f), before_sha256: sha256(f.before), after_sha256: sha256(f.after) })),
  };
  await backupFiles(layout.root, edits.map(rel), backupDir(layout, backupId), {
    createdAt: manifest.created_at,
    reason: `knowledge audit ${auditId}`,
  });
  await writeManifest(layout, manifest);
  crashPoint('audit-apply:after-backup');
  return manifest;
}

function applyLine(manifest: AuditBackupManifest, a: PruneAction, at: string): AuditLogLine {
  return {
    event: 'apply',
    audit_id: manifest.audit_id,
    backup_id: manifest.backup_id,
    backup_path: `.workflow/.trash/${manifest.backup_id}`,
    action_id: a.id,
    store: a.store,
    target_id: a.target_id,
    successor_id: a.successor_id,
    action: a.action,
    reason: a.reason,
    applied_at: at,
  };
}

async function writeActions(
  layout: WorkflowLayout,
  actions: readonly PruneAction[],
  edits: readonly FileEdit[],
  options: ApplyOptions,
): Promise<void> {
  const abs = (f: FileEdit) => join(layout.workflow, f.file);
  await withLocks(edits.map(abs), async () => {
    for (const [i, action] of actions.entries()) {
      await options.beforeAction?.(i, action);
      for (const f of edits) if (f.lastAction === i) await writeFileAtomic(abs(f), f.after);
      crashPoint(`audit-apply:after-action-${i + 1}`);
    }
  });
}

/** Puts every backed-up file back, logs the rollback and rethrows; never returns. */
async function rollBack(
  layout: WorkflowLayout,
  manifest: AuditBackupManifest,
  err: unknown,
  runtime: Runtime,
): Promise<never> {
  const reason = err instanceof Error ? err.message : String(err);
  const files = manifest.files.map((f) => f.path);
  try {
    await restoreFiles(layout.root, backupDir(layout, manifest.backup_id), files);
  } catch (restoreErr) {
    throw environmentError(
      'AUDIT_ROLLBACK_INCOMPLETE',
      `knowledge prune failed (${reason}) and the rollback was incomplete: ${(restoreErr as Error).message}`,
      { hint: `run \`maestro knowledge restore ${manifest.backup_id} --force\` once the cause is fixed`, cause: err },
    );
  }
  const at = runtime.now().toISOString();
  await writeManifest(layout, { ...manifest, state: 'rolled-back', updated_at: at });
  appendAuditLog(layout, [
    {
      event: 'rollback',
      audit_id: manifest.audit_id,
      backup_id: manifest.backup_id,
      backup_path: `.workflow/.trash/${manifest.backup_id}`,
      error: reason.slice(0, 500),
      files,
      at,
    },
  ]);
  const exitCode = isMaestroError(err) ? err.exitCode : 3;
  throw new MaestroError('AUDIT_APPLY_FAILED', `knowledge prune failed and was rolled back: ${reason}`, {
    exitCode,
    hint: `every touched file was restored from .workflow/.trash/${manifest.backup_id}; fix the cause and rerun`,
    cause: err,
  });
}

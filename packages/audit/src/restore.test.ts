import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, isMaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, skipDerived, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { knowhowDoc, pendingSession, SPEC, UNSYNCED } from '../test/project.js';
import { auditKnowledge } from './audit.js';
import { auditLogPath, listBackups, readManifest } from './backups.js';
import { changedSinceApply, restoreBackup } from './restore.js';
import {
  AuditBackupManifestSchema,
  AuditLogLineSchema,
  AuditReportSchema,
  BackupListSchema,
  RestoreResultSchema,
} from './schemas.js';

const runtime = fixedRuntime('2026-03-01T12:00:00.000Z', { stepMs: 1000 });
const noDerived = (rel: string) =>
  skipDerived(rel) || rel.startsWith('.workflow/.trash') || rel.startsWith('.workflow/.knowledge-audit');
const TIPS = {
  '.workflow/knowhow/TIP-20260101-a.md': knowhowDoc('Same', 'Same body.'),
  '.workflow/knowhow/TIP-20260101-b.md': knowhowDoc('Same', 'Same body.'),
};

async function applied(tree: Record<string, string>) {
  const root = tmpProject(tree);
  const layout = workflowLayout(root);
  const report = await auditKnowledge(layout, { runtime, prune: true, apply: true });
  return { root, layout, report, id: report.applied!.backup_id! };
}

describe('restoreBackup', () => {
  it('puts every file back byte for byte and records it', async () => {
    const tree = { [SPEC]: UNSYNCED, ...TIPS };
    const { root, layout, id } = await applied(tree);
    expect(readTree(root, noDerived)).not.toEqual(tree);
    const r = await restoreBackup(layout, id, { runtime });
    expect(r).toMatchObject({ restored: true, changed_since_apply: [], forced: false });
    expect(r.files.sort()).toEqual(Object.keys(tree).sort());
    expect(readTree(root, noDerived)).toEqual(tree);
    expect(readManifest(layout, id).state).toBe('restored');
    const log = readFileSync(auditLogPath(layout), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(log.map((l) => l.event)).toEqual(['apply', 'apply', 'restore']);
  });

  it('refuses files changed since the apply (listing them, touching nothing) unless forced', async () => {
    const { root, layout, id } = await applied({ [SPEC]: UNSYNCED, ...TIPS });
    const edited = `${readFileSync(join(root, SPEC), 'utf8')}\nmore\n`;
    writeFileSync(join(root, SPEC), edited);
    const before = readTree(root);
    const refused = await restoreBackup(layout, id, { runtime });
    expect(refused).toMatchObject({ restored: false, files: [], changed_since_apply: [SPEC] });
    expect(readTree(root)).toEqual(before);
    const forced = await restoreBackup(layout, id, { runtime, force: true });
    expect(forced).toMatchObject({ restored: true, changed_since_apply: [SPEC], forced: true });
    expect(readFileSync(join(root, SPEC), 'utf8')).toBe(UNSYNCED);
  });

  it('treats a deleted file as changed', async () => {
    const { root, layout, id } = await applied({ [SPEC]: UNSYNCED });
    rmSync(join(root, SPEC));
    expect((await restoreBackup(layout, id, { runtime })).changed_since_apply).toEqual([SPEC]);
  });

  it('refuses a backup whose copy of a file is gone, restoring nothing', async () => {
    const { root, layout, id } = await applied({ [SPEC]: UNSYNCED });
    rmSync(join(root, '.workflow/.trash', id, SPEC));
    const before = readTree(root);
    const err = await restoreBackup(layout, id, { runtime }).catch((e: unknown) => e);
    expect(isMaestroError(err) && [err.code, err.exitCode]).toEqual(['BACKUP_INCOMPLETE', 2]);
    expect(readTree(root)).toEqual(before);
  });

  it('unknown and malformed backups are exit 2', async () => {
    const { root, layout } = await applied({ [SPEC]: UNSYNCED });
    for (const bad of ['knowledge-audit-nope', '../x', 'knowledge-audit-a/../../b']) {
      const err = await restoreBackup(layout, bad, { runtime }).catch((e: unknown) => e);
      expect(isMaestroError(err) && err.exitCode).toBe(2);
    }
    writeTree(root, { '.workflow/.trash/knowledge-audit-broken/audit-backup.json': '{"schema_version":"x"}' });
    const err = await restoreBackup(layout, 'knowledge-audit-broken', { runtime }).catch((e: unknown) => e);
    expect(isMaestroError(err) && err.code).toBe('BACKUP_MANIFEST_INVALID');
    expect(listBackups(layout).backups.map((b) => b.state)).toEqual(['applied', 'damaged']);
  });

  it('a rolled-back apply has nothing to restore', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const layout = workflowLayout(root);
    const failing = () => {
      throw new Error('fault');
    };
    await auditKnowledge(layout, { runtime, prune: true, apply: true, beforeAction: failing }).catch(() => null);
    const [b] = listBackups(layout).backups;
    expect(b.state).toBe('rolled-back');
    const err = await restoreBackup(layout, b.backup_id, { runtime }).catch((e: unknown) => e);
    expect(isMaestroError(err) && [err.code, err.exitCode]).toEqual(['BACKUP_ROLLED_BACK', 2]);
  });

  it('changedSinceApply accepts the original bytes only for an apply that never finished', () => {
    const base = {
      schema_version: 'maestro-audit-backup/1.0' as const,
      backup_id: 'knowledge-audit-x',
      audit_id: 'AUD-1',
      plan_id: 'p',
      created_at: '2026-03-01T00:00:00.000Z',
      updated_at: '2026-03-01T00:00:00.000Z',
      actions: [],
      files: [{ path: 'f', before_sha256: 'a'.repeat(64), after_sha256: 'b'.repeat(64) }],
    };
    const at = (h: string) => new Map([['f', h]]);
    expect(changedSinceApply({ ...base, state: 'applied' }, at('a'.repeat(64)))).toEqual(['f']);
    expect(changedSinceApply({ ...base, state: 'applied' }, at('b'.repeat(64)))).toEqual([]);
    expect(changedSinceApply({ ...base, state: 'applying' }, at('a'.repeat(64)))).toEqual([]);
    expect(changedSinceApply({ ...base, state: 'applying' }, at('c'.repeat(64)))).toEqual(['f']);
  });
});

describe('published schemas match what is written and printed', () => {
  it('report, plan, log lines, manifest, backup list and restore result', async () => {
    const { root, layout, report, id } = await applied({ [SPEC]: UNSYNCED, ...TIPS, ...pendingSession(['S-1']) });
    AuditReportSchema.parse(report);
    AuditReportSchema.parse(await auditKnowledge(layout, { runtime }));
    AuditBackupManifestSchema.parse(
      JSON.parse(readFileSync(join(root, '.workflow/.trash', id, 'audit-backup.json'), 'utf8')),
    );
    BackupListSchema.parse(listBackups(layout));
    RestoreResultSchema.parse(await restoreBackup(layout, id, { runtime }));
    for (const line of readFileSync(auditLogPath(layout), 'utf8').trim().split('\n'))
      AuditLogLineSchema.parse(JSON.parse(line));
  });
});

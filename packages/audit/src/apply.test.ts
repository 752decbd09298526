import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, isMaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, skipDerived, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { knowhowDoc, SPEC, specFile, UNSYNCED } from '../test/project.js';
import { type AuditKnowledgeOptions, auditKnowledge } from './audit.js';
import { auditLogPath, listBackups } from './backups.js';

const runtime = fixedRuntime('2026-03-01T12:00:00.000Z');
const run = (root: string, o: AuditKnowledgeOptions = {}) => auditKnowledge(workflowLayout(root), { runtime, ...o });
const apply = (root: string, o: AuditKnowledgeOptions = {}) => run(root, { prune: true, apply: true, ...o });
const read = (root: string, rel: string) => readFileSync(join(root, rel), 'utf8');
const logLines = (root: string) =>
  readFileSync(auditLogPath(workflowLayout(root)), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const noTrash = (rel: string) =>
  skipDerived(rel) || rel.startsWith('.workflow/.trash') || rel.startsWith('.workflow/.knowledge-audit');

describe('audit without --prune (scenario 45)', () => {
  it('reports the unsynchronised supersession, plans nothing and writes nothing', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const before = readTree(root);
    const r = await run(root);
    expect(r.findings.map((f) => `${f.priority} ${f.subtype} ${f.target}`)).toContain(
      'P1 unsynchronized-supersession S-20260101-old',
    );
    expect(r.prune_plan).toBeNull();
    expect(r.applied).toBeNull();
    expect(readTree(root)).toEqual(before);
    const withPlan = await run(root, { prune: true });
    expect(withPlan.prune_plan?.actions).toHaveLength(1);
    expect(readTree(root)).toEqual(before);
  });
});

describe('audit --prune --apply', () => {
  it('backs up, deprecates the old entry, writes both sides, logs one line; a second run plans nothing (scenario 46)', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const r = await apply(root);
    expect(r.applied).toMatchObject({ count: 1, backup_id: 'knowledge-audit-2026-03-01T12-00-00-000Z' });
    const backup = join(root, '.workflow/.trash/knowledge-audit-2026-03-01T12-00-00-000Z', SPEC);
    expect(readFileSync(backup, 'utf8')).toBe(UNSYNCED);
    const after = read(root, SPEC);
    expect(after).toContain('sid="S-20260101-old" title="Use local time"');
    expect(after).toMatch(/sid="S-20260101-old"[^>]*status="deprecated"/);
    expect(after).toMatch(/sid="S-20260101-old"[^>]*superseded-by="S-20260201-new"/);
    const lines = logLines(root);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      event: 'apply',
      target_id: 'S-20260101-old',
      reason: 'unsynchronized-supersession',
    });
    const again = await apply(root);
    expect(again.prune_plan?.actions).toEqual([]);
    expect(again.applied).toMatchObject({ count: 0, backup_id: null });
    expect(again.findings.filter((f) => f.subtype === 'unsynchronized-supersession')).toEqual([]);
    expect(logLines(root)).toHaveLength(1);
  });

  it('writes the missing side: the successor gains supersedes when only superseded-by was written', async () => {
    const text = specFile([
      { sid: 'S-20260101-a', title: 'A', extra: 'superseded-by="S-20260101-b" status="deprecated"' },
      { sid: 'S-20260101-b', title: 'B', extra: 'supersedes="S-20260101-x"' },
      { sid: 'S-20260101-x', title: 'X', extra: 'superseded-by="S-20260101-b" status="deprecated"' },
    ]);
    const root = tmpProject({ [SPEC]: text });
    const r = await apply(root);
    expect(r.prune_plan?.actions.map((a) => a.reason)).toEqual(['one-sided-link']);
    expect(read(root, SPEC)).toContain('supersedes="S-20260101-x,S-20260101-a"');
    expect((await run(root, { prune: true })).prune_plan?.actions).toEqual([]);
  });

  it('deprecates exact duplicates toward the smallest sid (scenario 47) and keeps every other byte', async () => {
    const text = specFile([
      { sid: 'S-20260101-b', title: 'Use UTC', content: 'Store UTC.' },
      { sid: 'S-20260101-a', title: 'use  utc', content: 'store utc.' },
    ]);
    const root = tmpProject({ [SPEC]: text });
    const r = await apply(root);
    expect(r.prune_plan?.actions.map((a) => [a.target_id, a.successor_id, a.reason])).toEqual([
      ['S-20260101-b', 'S-20260101-a', 'exact-duplicate'],
    ]);
    const after = read(root, SPEC);
    const changed = after.split('\n').filter((l, i) => l !== text.split('\n')[i]);
    expect(changed).toHaveLength(2);
    expect(changed.every((l) => l.startsWith('<spec-entry '))).toBe(true);
    expect(after.split('\n').length).toBe(text.split('\n').length);
  });

  it('supersedes knowhow duplicates on both sides (scenario 48)', async () => {
    const root = tmpProject({
      '.workflow/knowhow/TIP-20260101-a.md': knowhowDoc('Retry with backoff', 'Use exponential backoff.'),
      '.workflow/knowhow/TIP-20260101-b.md': knowhowDoc('Retry with backoff', 'Use exponential backoff.'),
    });
    const r = await apply(root);
    expect(r.prune_plan?.actions.map((a) => [a.action, a.target_id, a.successor_id])).toEqual([
      ['supersede', 'knowhow-tip-20260101-b', 'knowhow-tip-20260101-a'],
    ]);
    const b = read(root, '.workflow/knowhow/TIP-20260101-b.md');
    expect(b).toContain('status: deprecated');
    expect(b).toContain('supersededBy: knowhow-tip-20260101-a');
    expect(b).toContain('\n\nUse exponential backoff.\n');
    expect(read(root, '.workflow/knowhow/TIP-20260101-a.md')).toContain('supersedes: ["knowhow-tip-20260101-b"]');
    expect((await run(root, { prune: true })).prune_plan?.actions).toEqual([]);
  });

  it('keeps the BOM and CRLF line endings and actually writes the change (scenario 49)', async () => {
    const crlf =
      '\uFEFF' +
      specFile(
        [
          { sid: 'S-20260101-old', title: 'Old' },
          { sid: 'S-20260101-new', title: 'New', extra: 'supersedes="S-20260101-old"' },
        ],
        '\r\n',
      );
    const root = tmpProject({ [SPEC]: crlf });
    await apply(root);
    const after = read(root, SPEC);
    expect(after).not.toBe(crlf);
    expect(after).toContain('status="deprecated"');
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after.split('\r\n').length).toBe(crlf.split('\r\n').length);
    expect(readFileSync(join(root, SPEC)).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('appends to an existing audit log and never rewrites it', async () => {
    const existing = '{"audit_id":"AUD-0000000000","from":"maestro-flow"}\n';
    const root = tmpProject({ [SPEC]: UNSYNCED, '.workflow/.knowledge-audit/audit-log.jsonl': existing });
    await apply(root);
    const text = readFileSync(auditLogPath(workflowLayout(root)), 'utf8');
    expect(text.startsWith(existing)).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(2);
  });

  it('restores every touched file when the second action fails (scenario 51)', async () => {
    const tree = {
      [SPEC]: UNSYNCED,
      '.workflow/knowhow/TIP-20260101-a.md': knowhowDoc('Same', 'Same body.'),
      '.workflow/knowhow/TIP-20260101-b.md': knowhowDoc('Same', 'Same body.'),
    };
    const root = tmpProject(tree);
    const before = readTree(root, noTrash);
    const seen: number[] = [];
    let midway = '';
    const err = await apply(root, {
      beforeAction: (i) => {
        seen.push(i);
        if (i === 1) {
          midway = read(root, SPEC);
          throw new Error('injected fault in action 2');
        }
      },
    }).catch((e: unknown) => e);
    expect(midway).toContain('status="deprecated"'); // action 1 had written its file
    expect(isMaestroError(err) && err.code).toBe('AUDIT_APPLY_FAILED');
    expect((err as Error).message).toContain('injected fault in action 2');
    expect(seen).toEqual([0, 1]);
    expect(readTree(root, noTrash)).toEqual(before);
    const [backup] = listBackups(workflowLayout(root)).backups;
    expect(backup.state).toBe('rolled-back');
    expect(logLines(root).map((l) => l.event)).toEqual(['rollback']);
    const plan = (await run(root, { prune: true })).prune_plan!;
    expect(plan.actions).toHaveLength(2);
    expect(plan.actions[0].target_file).not.toBe(plan.actions[1].target_file);
  });

  it('never edits a reused sid: it is a P0 duplicate-id finding and no action touches it', async () => {
    const text = specFile([
      { sid: 'S-20260101-x', title: 'Same', content: 'Same.' },
      { sid: 'S-20260101-x', title: 'Same', content: 'Same.' },
      { sid: 'S-20260101-y', title: 'Y', extra: 'supersedes="S-20260101-x"' },
    ]);
    const root = tmpProject({ [SPEC]: text });
    const r = await apply(root);
    expect(r.findings.filter((f) => f.priority === 'P0').map((f) => [f.subtype, f.target])).toEqual([
      ['duplicate-id', 'S-20260101-x'],
    ]);
    expect(r.findings.map((f) => f.subtype)).not.toContain('exact-duplicate');
    expect(r.prune_plan?.actions).toEqual([]);
    expect(read(root, SPEC)).toBe(text);
  });

  it('refuses a file that is not valid UTF-8 before writing anything', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const bytes = Buffer.concat([Buffer.from(UNSYNCED), Buffer.from([0xff, 0x0a])]);
    writeFileSync(join(root, SPEC), bytes);
    const err = await apply(root).catch((e: unknown) => e);
    expect(isMaestroError(err) && err.code).toBe('FILE_NOT_UTF8');
    expect(readFileSync(join(root, SPEC)).equals(bytes)).toBe(true);
    expect(readdirSync(join(root, '.workflow'))).not.toContain('.trash');
  });
});

describe('option checks', () => {
  it('refuses --apply without --prune (exit 2) and --include-pending-targets without --apply', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    for (const o of [{ apply: true }, { prune: true, includePendingTargets: true }, { scope: 'specs' as never }]) {
      const err = await run(root, o).catch((e: unknown) => e);
      expect(isMaestroError(err) && err.exitCode).toBe(2);
    }
    const err = await run(root, { apply: true }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('--apply requires --prune');
  });

  it('names the missing .workflow/ directory', async () => {
    const root = tmpProject();
    const err = await run(join(root, 'elsewhere')).catch((e: unknown) => e);
    expect(isMaestroError(err) && err.code).toBe('NO_WORKFLOW');
  });
});

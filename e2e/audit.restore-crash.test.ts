import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectTemplate, readTree, runMaestro, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

const env = { MAESTRO_NOW: '2026-03-01T12:00:00.000Z' };
const SPEC = '.workflow/specs/coding-conventions.md';
const HEAD = '---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n# Coding Conventions\n\n## Entries\n\n';
const tag = (sid: string, title: string, extra = '') =>
  `<spec-entry category="coding" keywords="time" date="2026-02-20" sid="${sid}" title="${title}"${extra}>\n\n### ${title}\n\n${title}.\n\n</spec-entry>\n`;
/** Two files the prune edits: a one-sided supersession in a spec, and two identical knowhow notes. */
const TREE = {
  [SPEC]: `${HEAD}${tag('S-20260101-old', 'Use local time')}\n${tag('S-20260201-new', 'Use UTC', ' supersedes="S-20260101-old"')}`,
  '.workflow/knowhow/TIP-20260101-a.md': '---\ntitle: Same\ntype: tip\n---\n\nSame body.\n',
  '.workflow/knowhow/TIP-20260101-b.md': '---\ntitle: Same\ntype: tip\n---\n\nSame body.\n',
};

const maestro = (root: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runMaestro([...args, '--workflow-root', root], { env: { ...env, ...extra } });
/** What the user wrote: not the backups, the audit log, nor derived state (`.workflow/.index/`, the store). */
const corpus = (rel: string) =>
  !rel.startsWith('.workflow/.trash') &&
  !rel.startsWith('.workflow/.knowledge-audit') &&
  !rel.startsWith('.workflow/.index');
const restoreLines = (root: string) =>
  readFileSync(join(root, '.workflow/.knowledge-audit/audit-log.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .filter((l) => JSON.parse(l).event === 'restore');

let backupId = '';
/** The project right after `knowledge audit --prune --apply` (applied once per file, copied fresh per test). */
const appliedProject = projectTemplate(() => {
  const root = tmpProject(TREE);
  const r = maestro(root, ['knowledge', 'audit', '--prune', '--apply', '--json']);
  expect(r.code, r.stderr).toBe(0);
  backupId = r.json<{ applied: { backup_id: string; files: string[] } }>().applied.backup_id;
  expect(readTree(root, (rel) => !corpus(rel))).not.toEqual(TREE);
  return root;
});

function applied(): { root: string; id: string } {
  return { root: appliedProject(), id: backupId };
}

// (A kill inside the intent's own write leaves no intent and no restored file: nothing to finish.)
const KILL_POINTS = [
  'restore:after-intent',
  'restore:after-file-1',
  'restore:after-file-2',
  'restore:after-manifest',
  'restore:after-log',
];

describe('a knowledge restore killed at any point', () => {
  it.each(KILL_POINTS)(
    'at %s: P0 and a failing gate until rerun, which finishes it to exactly the backup',
    (point) => {
      const { root, id } = applied();
      const killed = maestro(root, ['knowledge', 'restore', id], { MAESTRO_CRASH_AT: point });
      expect(killed.code, killed.stderr).not.toBe(0);

      const audit = maestro(root, ['knowledge', 'audit', '--json']).json<{
        findings: { subtype: string; priority: string; target: string; command: string }[];
      }>();
      expect(audit.findings.find((f) => f.subtype === 'interrupted-restore')).toMatchObject({
        priority: 'P0',
        target: id,
        command: `maestro knowledge restore ${id}`,
      });
      const gate = maestro(root, ['knowledge', 'gate', '--all']);
      expect(gate.code).toBe(1);
      expect(gate.stdout + gate.stderr).toContain('interrupted-restore');

      const rerun = maestro(root, ['knowledge', 'restore', id, '--json']);
      expect(rerun.code, rerun.stderr).toBe(0);
      expect(rerun.json()).toMatchObject({ restored: true, changed_since_apply: [] });
      expect(readTree(root, (rel) => !corpus(rel))).toEqual(TREE);
      expect(restoreLines(root)).toHaveLength(1);
      const after = maestro(root, ['knowledge', 'audit', '--json']).json<{ findings: { subtype: string }[] }>();
      expect(after.findings.map((f) => f.subtype)).not.toContain('interrupted-restore');
      expect(maestro(root, ['knowledge', 'audit', '--backups', '--json']).stdout).toContain('"restored"');
    },
    60_000,
  );

  it('an interrupted restore is also finished by the next audit apply, before it plans', () => {
    const { root, id } = applied();
    expect(maestro(root, ['knowledge', 'restore', id], { MAESTRO_CRASH_AT: 'restore:after-file-1' }).code).not.toBe(0);
    const r = maestro(root, ['knowledge', 'audit', '--prune', '--apply', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(restoreLines(root)).toHaveLength(1);
    expect(maestro(root, ['knowledge', 'audit', '--json']).stdout).not.toContain('interrupted-restore');
  }, 60_000);
});

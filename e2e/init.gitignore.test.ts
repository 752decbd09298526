import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InitOutput } from '@maestro/spec';
import { runMaestro, tmpDir } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

/** Issue 19 item 7: backups must not be committed by `git add -A`; the audit log is. */
const m = (root: string, args: string[]) =>
  runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: '2026-03-01T12:00:00.000Z' } });

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

describe('init .gitignore', () => {
  test('git add -A after an audit apply stages the audit log, never backups, locks or the index', () => {
    const root = tmpDir('maestro-init-');
    expect(m(root, ['init']).code).toBe(0);
    expect(readFileSync(join(root, '.workflow/.gitignore'), 'utf8')).toMatch(/^\.trash\/$/m);
    mkdirSync(join(root, '.workflow/.trash/knowledge-audit-x'), { recursive: true });
    writeFileSync(join(root, '.workflow/.trash/knowledge-audit-x/backup-manifest.json'), '{}');
    mkdirSync(join(root, '.workflow/.knowledge-audit'), { recursive: true });
    writeFileSync(join(root, '.workflow/.knowledge-audit/audit-log.jsonl'), '{}\n');
    mkdirSync(join(root, '.workflow/.index'), { recursive: true });
    writeFileSync(join(root, '.workflow/.index/x'), 'x');
    writeFileSync(join(root, '.workflow/specs/coding-conventions.md.lock'), '{}');
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    const staged = git(root, 'diff', '--cached', '--name-only').split('\n').filter(Boolean);
    expect(staged).toContain('.workflow/.knowledge-audit/audit-log.jsonl');
    expect(staged.filter((p) => /\.trash|\.index|\.lock$/.test(p))).toEqual([]);
  });

  test('rerunning init on an older project adds the missing lines and keeps the user lines', () => {
    const root = tmpDir('maestro-init-old-');
    mkdirSync(join(root, '.workflow'));
    expect(m(root, ['init']).code).toBe(0);
    const file = join(root, '.workflow/.gitignore');
    const old = '# derived, rebuildable state (maestro)\r\n.index/\r\n*.lock\r\n# ours\r\nscratch/';
    writeFileSync(file, old);
    const r = m(root, ['init', '--json']);
    expect(r.code).toBe(0);
    expect(InitOutput.parse(r.json())).toMatchObject({ created: [], updated: ['.gitignore'] });
    expect(readFileSync(file, 'utf8')).toBe(`${old}\r\n.trash/\r\n`);
    const again = m(root, ['init', '--json']);
    expect(again.json<{ updated: string[] }>().updated).toEqual([]);
    expect(m(root, ['init']).stdout).toContain('Already initialised');
    // A negated line is the user's choice.
    writeFileSync(file, '.index/\n*.lock\n!.trash/\n');
    expect(m(root, ['init', '--json']).json<{ updated: string[] }>().updated).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe('.index/\n*.lock\n!.trash/\n');
  });
});

import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { VersionOutput } from '@maestro/cli';
import { readTree, runMaestro, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

/** Issue 19 items 8, 9, 11: what a new user trips on, as they see it on the terminal. */
const env = { MAESTRO_NOW: '2026-03-01T12:00:00.000Z' };
const m = (root: string, args: string[]) => runMaestro([...args, '--workflow-root', root], { env });

function project(): string {
  const root = tmpProject();
  expect(m(root, ['init']).code).toBe(0);
  return root;
}

describe('diagnostics a new user reads', () => {
  test('a parse issue has one severity per line, no doubled prefix (item 8)', () => {
    const root = project();
    writeFileSync(join(root, '.workflow/specs/broken.md'), '<spec-entry category="quality" title="x">\nbody\n');
    const r = m(root, ['spec', 'list']);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line).toMatch(/^\.workflow\/specs\/broken\.md:\d+:\d+: (error|warning): /);
      expect(line.match(/\b(error|warning):/g)).toHaveLength(1);
    }
    // A message that is not a located issue still says it is a warning.
    const c = m(root, ['context', 'x'.repeat(3)]);
    for (const line of c.stderr.trim().split('\n').filter(Boolean)) expect(line).toMatch(/^(warning: |\.workflow\/)/);
  });

  test('a category file that is a directory is bad input naming it; a directory named specs/x.md is reported (item 9)', () => {
    const root = project();
    const file = join(root, '.workflow/specs/coding-conventions.md');
    rmSync(file);
    mkdirSync(file);
    mkdirSync(join(root, '.workflow/specs/x.md'));
    const add = m(root, ['spec', 'add', 'coding', 'Use UTC', 'Store times in UTC.']);
    expect(add.code).toBe(2);
    expect(add.stderr).toContain('.workflow/specs/coding-conventions.md is a directory');
    expect(add.stderr).not.toMatch(/free space/);
    const list = m(root, ['spec', 'list']);
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('.workflow/specs/x.md: warning: x.md is a directory, so it is not read');
    const json = m(root, ['spec', 'list', '--json']).json<{ issues: { code: string; file: string }[] }>();
    expect(json.issues.filter((i) => i.code === 'NOT_A_FILE').map((i) => i.file)).toEqual([
      '.workflow/specs/coding-conventions.md',
      '.workflow/specs/x.md',
    ]);
  });

  test('promote into a category file that is a directory is exit 2 naming it, and writes nothing (item 9)', () => {
    const root = project();
    const S = '20260301-a';
    const R = '20260301-001-plan';
    expect(m(root, ['session', 'create', '--id', S, '--title', 'A']).code).toBe(0);
    expect(m(root, ['run', 'start', '--session', S, '--id', R]).code).toBe(0);
    const stage = ['knowledge', 'stage', 'spec', 'Flags', 'Remove feature flags within two sprints.'];
    expect(m(root, [...stage, '--category', 'coding', '--session', S, '--run', R]).code).toBe(0);
    expect(m(root, ['run', 'complete', R, '--session', S, '--seal']).code).toBe(0);
    const file = join(root, '.workflow/specs/coding-conventions.md');
    rmSync(file);
    mkdirSync(file);
    expect(m(root, ['knowledge', 'review', S, '--refresh']).code).toBe(0);
    const before = readTree(root, (rel) => rel.startsWith('.workflow/.index'));
    const r = m(root, ['knowledge', 'promote', S, '--all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.workflow/specs/coding-conventions.md is a directory');
    expect(r.stderr).not.toMatch(/free space/);
    expect(readTree(root, (rel) => rel.startsWith('.workflow/.index'))).toEqual(before);
  });

  test('an unknown command is named without its arguments (item 11)', () => {
    const root = project();
    const r = m(root, ['serch', 'retry', 'backoff']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown command "maestro serch"');
    expect(r.stderr).toContain('did you mean `maestro search`?');
    const v = m(root, ['spec', 'lst', 'coding']);
    expect(v.stderr).toContain('unknown command "maestro spec lst"');
  });

  test('restoring an already-restored backup says there is nothing to restore (item 11)', () => {
    const root = tmpProject();
    const head = '---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n';
    const tag = (sid: string, title: string, extra = '') =>
      `<spec-entry category="coding" keywords="time" date="2026-02-20" sid="${sid}" title="${title}"${extra}>\n\n${title}.\n\n</spec-entry>\n`;
    writeTree(root, {
      '.workflow/specs/coding-conventions.md': `${head}${tag('S-20260101-old', 'Use local time')}\n${tag('S-20260201-new', 'Use UTC', ' supersedes="S-20260101-old"')}`,
    });
    const applied = m(root, ['knowledge', 'audit', '--prune', '--apply', '--json']).json<{
      applied: { backup_id: string };
    }>();
    const id = applied.applied.backup_id;
    const first = m(root, ['knowledge', 'restore', id]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Restored 1 file/);
    const before = readTree(root);
    const again = m(root, ['knowledge', 'restore', id]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`Nothing to restore: ${id} was already restored`);
    expect(again.stdout).not.toMatch(/Restored/);
    expect(m(root, ['knowledge', 'restore', id, '--json']).json()).toMatchObject({
      restored: false,
      already_restored: true,
      files: [],
    });
    const skip = (rel: string) => rel.startsWith('.workflow/.index');
    expect(readTree(root, skip)).toEqual(Object.fromEntries(Object.entries(before).filter(([k]) => !skip(k))));
  });

  test('--version --json is a JSON document with a schema, and -v works (item 6)', () => {
    const root = project();
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../apps/maestro/package.json'), 'utf8'));
    const json = m(root, ['--version', '--json']);
    expect(json.code).toBe(0);
    const doc = VersionOutput.parse(json.json());
    expect(doc).toMatchObject({ schema_version: 'maestro-version/1.0', name: '@maestro/cli', version: pkg.version });
    expect(doc.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(doc.version).not.toBe('0.0.0');
    for (const flag of ['-v', '-V', 'version']) expect(m(root, [flag]).stdout.trim()).toBe(pkg.version);
    expect(m(root, ['-v', 'x']).code).toBe(2);
  });
});

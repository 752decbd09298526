import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, tmpDir, writeTree } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const SPEC = `---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n# Coding Conventions\n\n## Entries\n\n<spec-entry category="coding" keywords="utc" date="2026-02-20" sid="S-20260220-utc1" title="Use UTC">\n\n### Use UTC\n\nStore times in UTC.\n\n</spec-entry>\n`;

/** A cloned project whose `.workflow` is a link to a directory elsewhere. */
function linkedProject() {
  const outside = tmpDir('maestro-elsewhere-');
  writeTree(outside, { 'wf/specs/coding-conventions.md': SPEC });
  const root = tmpDir('maestro-clone-');
  mkdirSync(join(root, 'src'));
  symlinkSync(join(outside, 'wf'), join(root, '.workflow'));
  return { root, outside };
}

test('reading through a .workflow link that leaves the project works, and writes nothing there', () => {
  const { root, outside } = linkedProject();
  const before = readTree(outside);
  const ctx = runMaestro(['context', 'how do we store times in utc', '--workflow-root', root]);
  expect(ctx.code, ctx.stderr).toBe(0);
  expect(ctx.stdout).toContain('Use UTC');
  const s = runMaestro(['search', 'utc', '--json', '--workflow-root', root]);
  expect(s.code, s.stderr).toBe(0);
  expect(s.json<{ count: number }>().count).toBe(1);
  expect(runMaestro(['spec', 'list', '--workflow-root', root]).code).toBe(0);
  expect(readTree(outside)).toEqual(before);
});

test('writing through it is refused (exit 1) naming the link and the opt-in, and works with the opt-in', () => {
  const { root, outside } = linkedProject();
  const before = readTree(outside);
  for (const args of [
    ['spec', 'add', 'coding', 'Use ISO', 'ISO 8601 dates.'],
    ['init'],
    ['session', 'create', '--title', 'x'],
  ]) {
    const r = runMaestro([...args, '--json', '--workflow-root', root]);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1);
    const err = r.json<{ error: { code: string; message: string; hint: string } }>().error;
    expect(err.code).toBe('WORKFLOW_OUTSIDE_PROJECT');
    expect(err.message).toContain(`${join(root, '.workflow')} is a link to ${join(outside, 'wf')}`);
    expect(err.hint).toContain('MAESTRO_ALLOW_EXTERNAL_WORKFLOW=1');
  }
  expect(readTree(outside)).toEqual(before);
  const ok = runMaestro(['spec', 'add', 'coding', 'Use ISO', 'ISO 8601 dates.', '--workflow-root', root], {
    env: { MAESTRO_ALLOW_EXTERNAL_WORKFLOW: '1' },
  });
  expect(ok.code, ok.stderr).toBe(0);
  expect(readTree(outside)['wf/specs/coding-conventions.md']).toContain('Use ISO');
});

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const tag = (sid: string, category: string) =>
  `<spec-entry category="${category}" keywords="k" date="2026-04-01" sid="${sid}">\n\n### ${sid}\n\nbody\n\n</spec-entry>\n`;

// A supersession spans two files; a SIGKILL between them leaves the journal, and the next write
// rolls forward to both sides (never a one-sided link).
for (const point of ['spec:after-intent', 'spec:after-file-1']) {
  test(`supersede killed at ${point} is completed by the next write`, () => {
    const root = tmpProject({
      '.workflow/specs/coding-conventions.md': tag('S-20260401-old1', 'coding'),
      '.workflow/specs/learnings.md': tag('S-20260401-new1', 'learning'),
    });
    const crashed = runMaestro(
      ['spec', 'supersede', 'S-20260401-old1', '--by', 'S-20260401-new1', '--workflow-root', root],
      {
        env: { MAESTRO_CRASH_AT: point },
      },
    );
    expect(crashed.code).not.toBe(0);
    expect(existsSync(join(root, '.workflow/.spec-commit.intent.json'))).toBe(true);
    const next = runMaestro(['spec', 'add', 'debug', 'Unrelated', 'x', '--workflow-root', root]);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(join(root, '.workflow/.spec-commit.intent.json'))).toBe(false);
    const read = (f: string) => readFileSync(join(root, '.workflow/specs', f), 'utf8');
    expect(read('coding-conventions.md')).toContain('superseded-by="S-20260401-new1" status="deprecated"');
    expect(read('learnings.md')).toContain('supersedes="S-20260401-old1"');
    const rerun = runMaestro([
      'spec',
      'supersede',
      'S-20260401-old1',
      '--by',
      'S-20260401-new1',
      '--json',
      '--workflow-root',
      root,
    ]);
    expect(rerun.json()).toMatchObject({ changed: false });
  });
}

test('recovery never overwrites a file another tool changed after the crash', () => {
  const root = tmpProject({
    '.workflow/specs/coding-conventions.md': tag('S-20260401-old1', 'coding'),
    '.workflow/specs/learnings.md': tag('S-20260401-new1', 'learning'),
  });
  const args = ['spec', 'supersede', 'S-20260401-old1', '--by', 'S-20260401-new1', '--workflow-root', root];
  expect(runMaestro(args, { env: { MAESTRO_CRASH_AT: 'spec:after-file-1' } }).code).not.toBe(0);
  const learnings = join(root, '.workflow/specs/learnings.md');
  const edited = `${readFileSync(learnings, 'utf8')}\nA line another tool wrote.\n`;
  writeFileSync(learnings, edited);
  const next = runMaestro(['spec', 'add', 'debug', 'Unrelated', 'x', '--workflow-root', root]);
  expect(next.code, next.stderr).toBe(0);
  expect(readFileSync(learnings, 'utf8')).toBe(edited);
  expect(existsSync(join(root, '.workflow/.spec-commit.intent.json'))).toBe(false);
});

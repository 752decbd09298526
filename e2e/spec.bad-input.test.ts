import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';

const M = (root: string, args: string[], input?: string) => runMaestro([...args, '--workflow-root', root], { input });

let root: string;
beforeAll(() => {
  root = tmpProject();
  expect(runMaestro(['init', '--workflow-root', root]).code).toBe(0);
  const r = M(root, ['spec', 'add', 'coding', 'Existing', 'body', '--json']);
  expect(r.code, r.stderr).toBe(0);
});

/** Exit 2, a one-line `error:` naming the problem, a `hint:` with the fix, and no file changed. */
function rejects(args: string[], message: RegExp, hint: RegExp, input?: string) {
  const before = readTree(root);
  const r = M(root, args, input);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).toMatch(hint);
  expect(readTree(root)).toEqual(before);
}

describe('bad input is exit 2 with the fix, nothing written', () => {
  test('unknown category lists the valid ones', () =>
    rejects(
      ['spec', 'add', 'quality', 'T', 'c'],
      /unknown category "quality"/,
      /coding, arch, debug, test, review, learning, ui/,
    ));
  test('a near miss suggests the category', () =>
    rejects(['spec', 'add', 'architecture', 'T', 'c'], /unknown category "architecture"/, /did you mean "arch"\?/));
  test('missing title', () => rejects(['spec', 'add', 'coding'], /missing <title>/, /usage: maestro spec add/));
  test('empty content', () => rejects(['spec', 'add', 'coding', 'T', '  '], /content is empty/, /--content-file/));
  test('empty stdin content', () =>
    rejects(['spec', 'add', 'coding', 'T', '--content-file', '-'], /content is empty/, /hint/, ''));
  test('missing --content-file', () =>
    rejects(
      ['spec', 'add', 'coding', 'T', '--content-file', 'nope.md'],
      /--content-file not found: .*nope\.md/,
      /check the path/,
    ));
  test('unreadable --content-file (a directory)', () => {
    mkdirSync(join(root, 'adir'), { recursive: true });
    rejects(['spec', 'add', 'coding', 'T', '--content-file', join(root, 'adir')], /is a directory/, /hint/);
  });
  test('content given twice', () =>
    rejects(
      ['spec', 'add', 'coding', 'T', 'c', '--content-file', 'x.md'],
      /either as an argument or with --content-file/,
      /drop one/,
    ));
  test('unknown knowhow type', () =>
    rejects(['knowhow', 'add', 'knowhow', 'T', 'c'], /unknown knowhow type/, /tip, template/));
  test('invalid explicit knowhow id', () =>
    rejects(['knowhow', 'add', 'tip', 'T', 'c', '--id', 'TIP_bad'], /invalid explicit knowhow id/, /tip-YYYYMMDD/));
  for (const args of [
    ['spec', 'show', 'S-20990101-none'],
    ['spec', 'history', 'S-20990101-none'],
    ['spec', 'deprecate', 'S-20990101-none'],
    ['spec', 'supersede', 'S-20990101-none', '--by', 'S-20990101-other'],
    ['spec', 'conflict', 'mark', 'S-20990101-none', '--note', 'n'],
    ['spec', 'conflict', 'clear', 'S-20990101-none'],
    ['knowhow', 'show', 'knowhow-nope'],
    ['knowhow', 'supersede', 'knowhow-a', '--by', 'knowhow-b'],
  ]) {
    test(`unknown id: ${args.slice(0, -1).join(' ')}`, () =>
      rejects(args, /no (spec entry|knowhow document) with id/, /maestro (spec|knowhow) list/));
  }
  test('supersede without --by', () => rejects(['spec', 'supersede', 'S-1'], /--by is required/, /usage/));
  test('bad MAESTRO_LOCK_TIMEOUT_MS', () => {
    const r = runMaestro(['spec', 'deprecate', 'S-1', '--workflow-root', root], {
      env: { MAESTRO_LOCK_TIMEOUT_MS: 'soon' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/MAESTRO_LOCK_TIMEOUT_MS must be a number/);
  });
  test('writes outside a project ask for maestro init', () => {
    const bare = tmpDir();
    const r = runMaestro(['spec', 'add', 'coding', 'T', 'c', '--workflow-root', bare]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no \.workflow\/ directory[\s\S]*maestro init/);
    expect(readTree(bare)).toEqual({});
  });
  test('--json errors are one maestro-error document', () => {
    const r = M(root, ['spec', 'show', 'S-x', '--json']);
    expect(r.json()).toMatchObject({
      schema_version: 'maestro-error/1.0',
      error: { code: 'UNKNOWN_ID', exit_code: 2 },
    });
  });
});

test('a malformed spec file is listed with file:line warnings and exit 0, and not rewritten', () => {
  const p = tmpProject({
    '.workflow/specs/learnings.md':
      'intro\n<spec-entry category="learning" keywords="a" date="2026-01-01" title="unterminated\n\n</spec-entry>\n<spec-entry category="nope" keywords="a" date="2026-01-01">\n### Fine\nbody\n</spec-entry>\n',
  });
  const before = readTree(p);
  const r = runMaestro(['spec', 'list', '--workflow-root', p]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Fine');
  expect(r.stderr).toContain('.workflow/specs/learnings.md:2:1: error: malformed <spec-entry> opening tag');
  expect(r.stderr).toContain('.workflow/specs/learnings.md:5:1: warning: category "nope"');
  expect(readTree(p)).toEqual(before);
});

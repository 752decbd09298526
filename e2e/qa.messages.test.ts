import { runMaestro, tmpDir } from '@maestro/test-utils';
import { beforeAll, describe, expect, test } from 'vitest';

let root: string;
const m = (...args: string[]) => runMaestro(args, { cwd: root });

beforeAll(() => {
  root = tmpDir();
  expect(runMaestro(['init'], { cwd: root }).code).toBe(0);
  expect(m('knowhow', 'add', 'tip', 'Retry', 'Retry with jitter.', '--id', 'tip-20260101-retry').code).toBe(0);
  expect(m('knowhow', 'add', 'tip', 'Backoff', 'Back off exponentially.', '--id', 'tip-20260102-backoff').code).toBe(0);
  expect(m('session', 'create', '--id', '20260101-s').code).toBe(0);
});

/** Exit 2 with an `error:` line and a `hint:` line. */
function usage(args: string[], error: string, hint: string) {
  const r = m(...args);
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
  expect(r.stderr.split('\n')[0]).toContain(error);
  expect(r.stderr).toMatch(new RegExp(`hint: .*${hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
}

describe('show output aligns every field', () => {
  test('knowhow show: the type and superseded-by lines line up with the others', () => {
    expect(
      m('knowhow', 'supersede', 'knowhow-tip-20260101-retry', '--by', 'knowhow-tip-20260102-backoff').stdout,
    ).toContain('Superseded: knowhow-tip-20260101-retry → knowhow-tip-20260102-backoff');
    const lines = m('knowhow', 'show', 'knowhow-tip-20260101-retry').stdout.split('\n').slice(1, 7);
    const columns = lines.map((l) => l.search(/(?<=:\s+)\S/));
    expect(lines[1]).toMatch(/^ {2}type: +tip$/);
    expect(new Set(columns).size).toBe(1);
  });
});

describe('usage errors say what is wrong and what to type', () => {
  test('spec list --category with a category nobody uses', () =>
    usage(['spec', 'list', '--category', 'nonsense'], 'unknown category "nonsense"', 'coding, arch'));
  test('knowhow list --type with a type nobody uses', () =>
    usage(['knowhow', 'list', '--type', 'nonsense'], 'unknown knowhow type "nonsense"', 'tip, template'));
  test('load with ids but no --id', () =>
    usage(
      ['load', 'S-20260101-ab12', 'S-20260101-cd34'],
      'unexpected argument',
      'maestro load --id S-20260101-ab12,S-20260101-cd34',
    ));
  test('backlog --restore with no ids', () =>
    usage(['knowledge', 'backlog', '--restore', ''], '--restore needs candidate ids', '--restore KDC-'));
  test('review --resolve with no ids', () =>
    usage(
      ['knowledge', 'review', '20260101-s', '--resolve', '', '--as', 'unique', '--reason', 'r'],
      '--resolve needs candidate ids',
      '--resolve KDC-',
    ));
  test('review --as with an unknown choice', () =>
    usage(
      ['knowledge', 'review', '20260101-s', '--resolve', 'KDC-0123456789abcdef', '--as', 'maybe', '--reason', 'r'],
      '(got "maybe")',
      'maestro knowledge review',
    ));
  test('review --resolve together with --all-as', () =>
    usage(
      ['knowledge', 'review', '20260101-s', '--resolve', 'KDC-0123456789abcdef', '--all-as', 'unique', '--reason', 'r'],
      '--resolve and --all-as are exclusive',
      'one at a time',
    ));
  test('review --all-as with --target', () =>
    usage(
      [
        'knowledge',
        'review',
        '20260101-s',
        '--all-as',
        'unique',
        '--disposition',
        'related',
        '--target',
        'S-1',
        '--reason',
        'r',
      ],
      '--target does not go with --all-as',
      'drop --target',
    ));
  test('review --all-as with an unknown disposition', () =>
    usage(
      ['knowledge', 'review', '20260101-s', '--all-as', 'unique', '--disposition', 'bogus', '--reason', 'r'],
      '(got "bogus")',
      '--disposition related',
    ));
});

describe('listing warnings carry no second severity label', () => {
  test('backlog --restore of an id that was not expired', () => {
    const r = m('knowledge', 'backlog', '--restore', 'KDC-0123456789abcdef');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'warning: .workflow/sessions: KDC-0123456789abcdef was not restored: it is not a candidate rejected by --expire-observed\n',
    );
  });
});

describe('pack build --out', () => {
  test('a file is bad input (exit 2), not an environment failure', () => {
    usage(
      ['pack', 'build', '--out', '.workflow/specs/coding-conventions.md'],
      'is a file, not a directory',
      '--out <new or empty directory>',
    );
  });
});

describe('search echoes a quoted phrase without doubled quotes', () => {
  test('"a phrase"', () => {
    const r = m('search', '"exponential backoff"');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^(No results for|Search) '"exponential backoff"'/);
  });
});

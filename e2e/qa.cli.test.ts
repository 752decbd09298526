import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, tmpDir } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

/** One maestro-error/1.0 document on stdout, with the given code and exit code. */
function jsonError(args: string[], cwd: string, code: string, exit: number, env?: NodeJS.ProcessEnv) {
  const r = runMaestro(args, { cwd, env });
  expect(r.code, r.stderr).toBe(exit);
  const doc = r.json<{ schema_version: string; error: { code: string; hint: string | null } }>();
  expect(doc.schema_version).toBe('maestro-error/1.0');
  expect(doc.error.code).toBe(code);
  expect(doc.error.hint).toBeTruthy();
  return r;
}

describe('--json prints exactly one JSON document, also when routing fails', () => {
  test('no command, unknown command, noun without a verb', () => {
    const dir = tmpDir();
    jsonError(['--json'], dir, 'USAGE', 2);
    const r = jsonError(['serach', 'x', '--json'], dir, 'UNKNOWN_COMMAND', 2);
    expect(r.stderr).toContain('did you mean `maestro search`');
    const noun = jsonError(['spec', '--json'], dir, 'USAGE', 2);
    expect(noun.stderr).toContain('spec add');
  });
});

describe('commands that need .workflow/ refuse without one and write nothing', () => {
  const reads = [
    ['spec', 'list'],
    ['spec', 'health'],
    ['knowhow', 'list'],
    ['session', 'list'],
    ['knowledge', 'backlog'],
    ['load', '--id', 'S-20260101-abcd'],
  ];
  const writes = [
    ['session', 'create', '--title', 'x'],
    ['knowhow', 'add', 'tip', 'T', 'body'],
    ['pack', 'build'],
  ];
  test.each([...reads, ...writes])('maestro %s ...', (...args) => {
    const dir = tmpDir();
    const r = runMaestro([...args, '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.json<{ error: { code: string } }>().error.code).toBe('NO_WORKFLOW');
    expect(r.stderr).toContain(`no .workflow/ directory in ${dir}`);
    expect(r.stderr).toContain('maestro init');
    expect(readdirSync(dir)).toEqual([]);
  });

  test('a --workflow-root that does not exist is not an empty project', () => {
    const r = runMaestro(['spec', 'list', '--workflow-root', join(tmpDir(), 'nope')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no .workflow/ directory');
  });

  test('packs and context still work without .workflow/', () => {
    const dir = tmpDir();
    expect(runMaestro(['pack', 'list', '--json'], { cwd: dir, env: { HOME: dir } }).code).toBe(0);
    expect(runMaestro(['context', 'how do we deploy'], { cwd: dir, env: { HOME: dir } }).code).toBe(0);
  });

  test('.workflow as a file is named, for init and for every other command', () => {
    const dir = tmpDir();
    writeFileSync(join(dir, '.workflow'), 'not a directory\n');
    const before = readTree(dir);
    for (const args of [['init'], ['spec', 'list'], ['session', 'list'], ['search', 'x']]) {
      const r = runMaestro(args, { cwd: dir });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`${join(dir, '.workflow')} is a file, not the .workflow/ directory`);
      expect(r.stderr).not.toContain('internal error');
    }
    const hook = runMaestro(['context', 'how do we deploy'], { cwd: dir, env: { HOME: dir } });
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stderr).toContain('is a file, not the .workflow/ directory; no specs served');
    expect(readTree(dir)).toEqual(before);
  });
});

describe('bad global input', () => {
  test('--workflow-root without a value is a usage error, not the current directory', () => {
    const dir = tmpDir();
    runMaestro(['init'], { cwd: dir });
    for (const args of [
      ['--workflow-root'],
      ['spec', 'list', '--workflow-root'],
      ['--workflow-root', '--json', 'spec', 'list'],
    ]) {
      const r = runMaestro(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error: --workflow-root needs a value/);
    }
    const empty = runMaestro(['spec', 'list', '--workflow-root='], { cwd: dir });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--workflow-root is empty');
  });

  test('MAESTRO_NOW that is not a real ISO date-time is refused (exit 2), not ignored or rolled over', () => {
    const dir = tmpDir();
    runMaestro(['init'], { cwd: dir });
    for (const now of ['garbage', '2026-02-30', '2026-13-01T00:00:00Z']) {
      const r = jsonError(['session', 'create', '--json'], dir, 'BAD_ENV', 2, { MAESTRO_NOW: now });
      expect(r.stderr).toContain(`MAESTRO_NOW must be an ISO date-time`);
      expect(r.stderr).toContain(`(got "${now}")`);
    }
    expect(readdirSync(join(dir, '.workflow/sessions'))).toEqual([]);
    const ok = runMaestro(['session', 'create', '--json'], {
      cwd: dir,
      env: { MAESTRO_NOW: '2026-01-31T23:30:00-05:00' },
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json<{ session_id: string }>().session_id).toBe('20260201-session');
  });

  test('option values that start with a dash, and missing values, name the option on one line', () => {
    const dir = tmpDir();
    runMaestro(['init'], { cwd: dir });
    const r = runMaestro(['search', 'x', '--limit', '-3'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: --limit needs a value\nhint: write --limit <value>, or --limit=<value> when it starts with "-"\n',
    );
    const typo = runMaestro(['search', 'x', '--lmit', '3'], { cwd: dir });
    expect(typo.stderr).toContain("Unknown option '--lmit'");
    expect(typo.stderr).toContain('did you mean --limit?');
  });
});

describe('text that starts with "-"', () => {
  test('is explained (one line, no dumped YAML) and goes through after --', () => {
    const dir = tmpDir();
    runMaestro(['init'], { cwd: dir });
    const yaml = runMaestro(['spec', 'add', 'coding', 'T', '---\ntitle: x\n---'], { cwd: dir });
    expect(yaml.code).toBe(2);
    expect(yaml.stderr.split('\n')[0]).toBe('error: an argument starting with "-" was read as an option: "---…"');
    expect(yaml.stderr).toContain('after `--`');
    const neg = runMaestro(['spec', 'add', 'coding', 'Limits', '-1 means unlimited'], { cwd: dir });
    expect(neg.code).toBe(2);
    expect(neg.stderr).toContain('goes after `--`');
    const ok = runMaestro(['spec', 'add', 'coding', 'Limits', '--json', '--', '-1 means unlimited'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    const id = ok.json<{ sid: string }>().sid;
    expect(runMaestro(['spec', 'show', id], { cwd: dir }).stdout).toContain('-1 means unlimited');
  });
});

describe('file-system failures are environment errors naming the path (exit 3), not bugs', () => {
  test('a file where a directory is expected', () => {
    const dir = tmpDir();
    runMaestro(['init'], { cwd: dir });
    const sessions = join(dir, '.workflow/sessions');
    // Replace sessions/ by a file: creating a session now fails inside the file system.
    rmSync(sessions, { recursive: true });
    writeFileSync(sessions, 'oops');
    const r = runMaestro(['session', 'create', '--id', '20260101-x', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(3);
    const doc = r.json<{ error: { code: string; message: string; hint: string } }>();
    expect(doc.error.code).toBe('IO_ERROR');
    expect(doc.error.message).toContain(sessions);
    expect(r.stderr).not.toContain('this is a bug');
  });
});

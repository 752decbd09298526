import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN, readTree, runMaestro, tmpProject } from '@maestro/test-utils';
import { describe, expect, onTestFinished, test } from 'vitest';

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const root = process.getuid?.() === 0;
/** Root ignores file modes, so as root the binary runs as `nobody`; without setpriv the test is skipped. */
const canDropWrite = !root || SETPRIV !== undefined;

function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) chmodTree(p, dirMode, fileMode);
    else chmodSync(p, fileMode);
  }
}

/** Runs the built binary on a project nobody may write. */
function readOnlyRun(cwd: string, args: string[]) {
  const env = { ...process.env, NO_COLOR: '1', MAESTRO_CHECK_OUTPUT: '1', HOME: cwd };
  const cmd = root
    ? [SETPRIV as string, '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, CLI_BIN, ...args]
    : [process.execPath, CLI_BIN, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd, env, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.runIf(canDropWrite)('a read-only project', () => {
  test('search and context still answer (in-memory index, warnings), nothing is written', () => {
    const dir = tmpProject();
    expect(runMaestro(['init'], { cwd: dir }).code).toBe(0);
    expect(runMaestro(['spec', 'add', 'coding', 'Use UTC', 'Store times in UTC.'], { cwd: dir }).code).toBe(0);
    expect(runMaestro(['search', 'utc'], { cwd: dir }).code).toBe(0); // .index/search/ exists, owned by root
    expect(runMaestro(['spec', 'add', 'coding', 'Use ISO dates', 'Write dates in ISO 8601.'], { cwd: dir }).code).toBe(
      0,
    );
    chmodTree(dir, 0o555, 0o444);
    onTestFinished(() => chmodTree(dir, 0o755, 0o644));
    const before = readTree(dir);
    const s = readOnlyRun(dir, ['search', 'utc', '--json']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).count).toBe(1);
    expect(s.stderr).toContain('cannot create lock');
    expect(s.stderr).toContain('searched an in-memory update instead');
    const c = readOnlyRun(dir, ['context', 'how do we store times in utc']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain('Use UTC');
    const w = readOnlyRun(dir, ['session', 'create', '--title', 'x', '--json']);
    expect(w.code).toBe(3);
    expect(JSON.parse(w.stdout).error.code).not.toBe('INTERNAL');
    expect(readTree(dir)).toEqual(before);
  });
});

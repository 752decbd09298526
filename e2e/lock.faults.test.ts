import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { CLI_BIN, runMaestro, runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

const SPEC = '.workflow/specs/coding-conventions.md';
const CORPUS_LOCK = '.workflow/.knowledge-corpus.namespace.lock';

/** `spec add` that suspends itself (SIGSTOP) with its temp copy written, right before its rename. */
function stalledAdd(root: string, title: string) {
  const child = spawn(process.execPath, [CLI_BIN, 'spec', 'add', 'coding', title, 'body', '--workflow-root', root], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      MAESTRO_CRASH_AT: 'atomic:before-rename',
      MAESTRO_CRASH_SIGNAL: 'SIGSTOP',
      MAESTRO_LOCK_STALE_MS: '300',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((r) =>
    child.on('exit', (code) => r({ code, stderr })),
  );
  return { child, exited };
}

async function untilStopped(pid: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('T')) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`pid ${pid} never stopped`);
}

const titles = (root: string) =>
  [...readFileSync(join(root, SPEC), 'utf8').matchAll(/title="([^"]+)"/g)].map((m) => m[1]);

describe.runIf(existsSync('/proc/self/stat'))('a writer suspended past the stale window', () => {
  test('is not broken while its pid lives: the other writer waits, then both entries land', async () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    expect(runMaestro(['spec', 'add', 'coding', 'First', 'body', '--workflow-root', root]).code).toBe(0);
    const a = stalledAdd(root, 'From A');
    try {
      await untilStopped(a.child.pid as number);
      await new Promise((r) => setTimeout(r, 800)); // well past the 300 ms window, no heartbeat
      const env = { MAESTRO_LOCK_STALE_MS: '300', MAESTRO_LOCK_TIMEOUT_MS: '1500' };
      const blocked = await runMaestroAsync(['spec', 'add', 'coding', 'From B', 'body', '--workflow-root', root], {
        env,
      });
      expect(blocked.code, blocked.stderr).toBe(3);
      expect(blocked.stderr).toContain(`pid ${a.child.pid}`);
      a.child.kill('SIGCONT');
      expect((await a.exited).code).toBe(0);
      const b = runMaestro(['spec', 'add', 'coding', 'From B', 'body', '--workflow-root', root], { env });
      expect(b.code, b.stderr).toBe(0);
      expect(titles(root)).toEqual(['First', 'From A', 'From B']);
    } finally {
      a.child.kill('SIGKILL');
    }
  }, 30_000);

  test('whose lock was removed anyway never renames over the new holder’s write (LOCK_LOST, exit 3)', async () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    expect(runMaestro(['spec', 'add', 'coding', 'First', 'body', '--workflow-root', root]).code).toBe(0);
    const a = stalledAdd(root, 'From A');
    try {
      await untilStopped(a.child.pid as number);
      // What another host's writer (or a person) does to a lock it judges stale.
      unlinkSync(join(root, CORPUS_LOCK));
      unlinkSync(join(root, `${SPEC}.lock`));
      const b = runMaestro(['spec', 'add', 'coding', 'From B', 'body', '--workflow-root', root]);
      expect(b.code, b.stderr).toBe(0);
      a.child.kill('SIGCONT');
      const done = await a.exited;
      expect(done.code).toBe(3);
      expect(done.stderr).toContain('lost lock');
      expect(done.stderr).toContain('was not written');
      expect(titles(root)).toEqual(['First', 'From B']);
      expect(runMaestro(['spec', 'health', '--workflow-root', root]).stdout).not.toContain('.tmp');
    } finally {
      a.child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('locks that cannot be waited for', () => {
  test('a 0-byte lock left by a kill mid-create is judged dead after a few seconds', async () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    writeFileSync(join(root, CORPUS_LOCK), '');
    const old = new Date(Date.now() - 5_000);
    utimesSync(join(root, CORPUS_LOCK), old, old);
    const t0 = Date.now();
    const r = runMaestro(['spec', 'add', 'coding', 'After', 'body', '--workflow-root', root]);
    expect(r.code, r.stderr).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
  });

  test('a directory at the lock path is exit 3 naming it, at once, not a spin until killed', () => {
    const root = tmpProject({ '.workflow/specs/.keep': '', '.workflow/.knowledge-corpus.namespace.lock/x': '' });
    const t0 = Date.now();
    // Bounded: before the fix this spun at 100 % CPU until killed.
    const r = spawnSync(
      process.execPath,
      [CLI_BIN, 'spec', 'add', 'coding', 'T', 'body', '--json', '--workflow-root', root],
      {
        env: { ...process.env, MAESTRO_LOCK_TIMEOUT_MS: '60000' },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.status).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'LOCK_UNBREAKABLE',
      message: expect.stringContaining(`${join(root, CORPUS_LOCK)}: it is a directory`),
    });
  });
});

/** unshare gives a private mount namespace in which a read-only bind mount is real, even for root. */
const canUnshare = spawnSync('unshare', ['-rm', 'true']).status === 0;

function readOnlyRun(root: string, args: string[], timeoutMs = 20_000) {
  const script = `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"`;
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', root, process.execPath, CLI_BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', MAESTRO_LOCK_TIMEOUT_MS: '2000' },
    encoding: 'utf8',
    timeout: timeoutMs,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

describe.runIf(canUnshare)('a read-only tree with a stale lock of a dead writer', () => {
  test('search and context answer from memory; a write is exit 3 naming the lock, within its deadline', () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    expect(runMaestro(['spec', 'add', 'coding', 'Use UTC', 'Store times in UTC.', '--workflow-root', root]).code).toBe(
      0,
    );
    expect(runMaestro(['search', 'utc', '--workflow-root', root]).code).toBe(0);
    expect(runMaestro(['spec', 'add', 'coding', 'Use ISO', 'ISO 8601 dates.', '--workflow-root', root]).code).toBe(0);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const owner = JSON.stringify({ pid: Number(dead.stdout), host: hostname(), token: 't', createdAt: 0 });
    for (const lock of ['.workflow/.index/search/index.lock', CORPUS_LOCK]) writeFileSync(join(root, lock), owner);
    const s = readOnlyRun(root, ['search', 'utc', '--json', '--workflow-root', root]);
    expect(s.signal).toBeNull();
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).count).toBe(1);
    expect(s.stderr).toContain('in-memory');
    const c = readOnlyRun(root, ['context', 'how do we store times in utc', '--workflow-root', root]);
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain('Use UTC');
    const w = readOnlyRun(root, ['spec', 'add', 'coding', 'T', 'body', '--workflow-root', root]);
    expect(w.signal).toBeNull();
    expect(w.code).toBe(3);
    expect(w.stderr).toContain(`cannot take or break lock ${join(root, CORPUS_LOCK)}: the file system is read-only`);
  }, 60_000);
});

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));

describe.runIf(process.getuid?.() === 0 && SETPRIV !== undefined)('a checkout that belongs to another user', () => {
  test('a stale lock there is exit 3 naming it (permission denied), within the deadline, not a spin', () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(
      join(root, CORPUS_LOCK),
      JSON.stringify({ pid: Number(dead.stdout), host: hostname(), token: 't', createdAt: 0 }),
    );
    chmodSync(root, 0o755); // the temp dir is 0700: let `nobody` reach the project, but not write it
    const t0 = Date.now();
    const r = spawnSync(
      SETPRIV as string,
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        CLI_BIN,
        'spec',
        'add',
        'coding',
        'T',
        'b',
        '--workflow-root',
        root,
      ],
      { env: { ...process.env, HOME: root, MAESTRO_LOCK_TIMEOUT_MS: '60000' }, encoding: 'utf8', timeout: 20_000 },
    );
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toContain(`cannot take or break lock ${join(root, CORPUS_LOCK)}: permission denied`);
  });
});

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { acquireLock, LockTimeoutError, withLock, withLocks } from './index.js';

const FS_DIST = resolve(import.meta.dirname, '../dist/index.js');

/** Runs a node ESM snippet with `fs` bound to the built @maestro/fs. */
function nodeScript(code: string) {
  return `import * as mfs from ${JSON.stringify(FS_DIST)};\n${code}`;
}

describe('withLock in one process', () => {
  it('serialises critical sections and is reentrant', async () => {
    const dir = tmpDir();
    const target = join(dir, 'file');
    const order: string[] = [];
    await Promise.all([
      withLock(target, async () => {
        order.push('a-in');
        await withLock(target, () => order.push('a-nested'));
        await new Promise((r) => setTimeout(r, 50));
        order.push('a-out');
      }),
      withLock(target, () => order.push('b')).then(() => undefined),
    ]);
    expect(order.indexOf('b') === 0 || order.indexOf('b') > order.indexOf('a-out')).toBe(true);
    expect(existsSync(`${target}.lock`)).toBe(false);
  });

  it('withLocks takes several locks and releases all', async () => {
    const dir = tmpDir();
    await withLocks([join(dir, 'b'), join(dir, 'a'), join(dir, 'a')], () => {
      expect(readdirSync(dir).sort()).toEqual(['a.lock', 'b.lock']);
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes an owner naming pid and host', async () => {
    const dir = tmpDir();
    const h = await acquireLock(join(dir, 'x'));
    const owner = JSON.parse(readFileSync(join(dir, 'x.lock'), 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: hostname() });
    expect(typeof owner.token).toBe('string');
    h.release();
    h.release();
    expect(existsSync(join(dir, 'x.lock'))).toBe(false);
  });
});

describe('stale locks', () => {
  it('breaks a lock whose mtime is older than the stale window', async () => {
    const dir = tmpDir();
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'elsewhere', token: 't', createdAt: 0 }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await withLock(join(dir, 'x'), () => undefined, { staleMs: 5_000, timeoutMs: 1_000 });
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks an empty lock (its creator died before writing the owner) after two seconds, not the stale window', async () => {
    const dir = tmpDir();
    const lock = join(dir, 'x.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 3_000);
    utimesSync(lock, old, old);
    await withLock(join(dir, 'x'), () => undefined, { staleMs: 30_000, timeoutMs: 1_000 });
    expect(existsSync(lock)).toBe(false);
    writeFileSync(lock, ''); // fresh: a creator may be writing its owner right now
    await expect(withLock(join(dir, 'x'), () => undefined, { staleMs: 30_000, timeoutMs: 300 })).rejects.toThrow(
      LockTimeoutError,
    );
  });

  it('breaks a lock whose owner pid is dead on this host at once', async () => {
    const dir = tmpDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(
      join(dir, 'x.lock'),
      JSON.stringify({ pid: Number(dead.stdout), host: hostname(), token: 't', createdAt: Date.now() }),
    );
    const t0 = Date.now();
    await withLock(join(dir, 'x'), () => undefined, { timeoutMs: 2_000 });
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('times out on a live holder and names pid, host and age', async () => {
    const dir = tmpDir();
    const lock = join(dir, 'x.lock');
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.ppid, host: hostname(), token: 't', createdAt: Date.now() - 3_000 }),
    );
    const err = await withLock(join(dir, 'x'), () => undefined, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockTimeoutError);
    const e = err as LockTimeoutError;
    expect(e.exitCode).toBe(3);
    expect(e.code).toBe('LOCK_TIMEOUT');
    expect(e.message).toContain(`pid ${process.ppid}`);
    expect(e.message).toContain(hostname());
    expect(e.message).toMatch(/held for \d+(\.\d)?s/);
    expect(readFileSync(lock, 'utf8')).toContain('"t"');
  });
});

describe('across processes', () => {
  it('a SIGKILLed holder is taken over within about a second', async () => {
    const dir = tmpDir();
    const target = join(dir, 'x');
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        nodeScript(
          `await mfs.acquireLock(${JSON.stringify(target)}); console.log('held'); setInterval(() => {}, 1000);`,
        ),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((r) => child.stdout.once('data', () => r()));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const t0 = Date.now();
    await withLock(target, () => undefined, { timeoutMs: 5_000 });
    expect(Date.now() - t0).toBeLessThan(1_500);
  });

  it('keeps a read-modify-write counter exact under 4 contending processes', async () => {
    const dir = tmpDir();
    const counter = join(dir, 'counter');
    writeFileSync(counter, '0');
    const script = nodeScript(`
      import { readFileSync, writeFileSync } from 'node:fs';
      for (let i = 0; i < 25; i++) {
        await mfs.withLock(${JSON.stringify(counter)}, async () => {
          const n = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
          await new Promise((r) => setTimeout(r, 1));
          writeFileSync(${JSON.stringify(counter)}, String(n + 1));
        });
      }`);
    const runs = Array.from(
      { length: 4 },
      () =>
        new Promise<number>((done) => {
          const p = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
          p.on('exit', (code) => done(code ?? 1));
        }),
    );
    expect(await Promise.all(runs)).toEqual([0, 0, 0, 0]);
    expect(readFileSync(counter, 'utf8')).toBe('100');
    expect(readdirSync(dir)).toEqual(['counter']);
  });
});

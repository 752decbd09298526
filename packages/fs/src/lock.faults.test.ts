import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMaestroError } from '@maestro/core';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { acquireLock, withLock, writeFileAtomic } from './index.js';

const FS_DIST = resolve(import.meta.dirname, '../dist/index.js');

/** Starts a process that takes `<target>.lock` and then waits; resolves once it holds it. */
function holder(target: string) {
  const code = `import * as mfs from ${JSON.stringify(FS_DIST)};
await mfs.acquireLock(${JSON.stringify(target)}, { staleMs: 200 });
console.log('held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise<typeof child>((r) => child.stdout.once('data', () => r(child)));
}

const caught = (p: Promise<unknown>) => p.then(() => null).catch((e: unknown) => e);

describe('a suspended holder on this host', () => {
  it('keeps its lock past the stale window while its pid is alive (SIGSTOP), then hands it over', async () => {
    const dir = tmpDir();
    const target = join(dir, 'x');
    const child = await holder(target);
    try {
      child.kill('SIGSTOP');
      const old = new Date(Date.now() - 60_000);
      utimesSync(`${target}.lock`, old, old); // far past any stale window
      const err = await caught(withLock(target, () => 'taken', { staleMs: 100, timeoutMs: 600 }));
      expect(isMaestroError(err) && err.code).toBe('LOCK_TIMEOUT');
      expect((err as Error).message).toContain(`pid ${child.pid}`);
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      expect(await withLock(target, () => 'taken', { timeoutMs: 2_000 })).toBe('taken');
    } finally {
      child.kill('SIGKILL');
    }
  }, 20_000);
});

describe('ownerless and unbreakable locks', () => {
  it('treats an empty lock as dead once it is a few seconds old, and waits for a fresh one', async () => {
    const dir = tmpDir();
    const target = join(dir, 'x');
    writeFileSync(`${target}.lock`, '');
    const fresh = await caught(withLock(target, () => undefined, { timeoutMs: 300 }));
    expect(isMaestroError(fresh) && fresh.code).toBe('LOCK_TIMEOUT');
    const old = new Date(Date.now() - 4_000);
    utimesSync(`${target}.lock`, old, old);
    const t0 = Date.now();
    await withLock(target, () => undefined, { timeoutMs: 2_000 });
    expect(Date.now() - t0).toBeLessThan(500);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates the lock already holding its owner (no empty lock is ever visible)', async () => {
    const dir = tmpDir();
    const target = join(dir, 'x');
    const h = await acquireLock(target);
    expect(JSON.parse(readFileSync(`${target}.lock`, 'utf8')).pid).toBe(process.pid);
    expect(readdirSync(dir)).toEqual(['x.lock']);
    h.release();
  });

  it('fails at once with exit 3 naming the path when the lock path is a directory', async () => {
    const dir = tmpDir();
    const target = join(dir, 'x');
    mkdirSync(`${target}.lock`);
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${target}.lock`, old, old);
    const t0 = Date.now();
    const err = await caught(withLock(target, () => undefined, { timeoutMs: 10_000 }));
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(isMaestroError(err) && [err.code, err.exitCode]).toEqual(['LOCK_UNBREAKABLE', 3]);
    expect((err as Error).message).toContain(`${target}.lock: it is a directory`);
  });
});

describe('a writer that lost its lock', () => {
  it('refuses to rename over what the new holder wrote (LOCK_LOST, exit 3)', async () => {
    const dir = tmpDir();
    const file = join(dir, 'f.md');
    writeFileSync(file, 'theirs\n');
    const err = await caught(
      withLock(file, async () => {
        unlinkSync(`${file}.lock`); // broken by someone else while this writer was stalled
        await writeFileAtomic(file, 'mine\n');
      }),
    );
    expect(isMaestroError(err) && [err.code, err.exitCode]).toEqual(['LOCK_LOST', 3]);
    expect((err as Error).message).toContain(`${file} was not written`);
    expect(readFileSync(file, 'utf8')).toBe('theirs\n');
    expect(readdirSync(dir)).toEqual(['f.md']);
  });
});

describe('temp files of killed writers', () => {
  it('are removed by the next write of that file; a live writer’s temp is kept', async () => {
    const dir = tmpDir();
    const file = join(dir, 'f.md');
    writeFileSync(`${file}.999999.0badc0de.tmp`, 'half');
    writeFileSync(`${file}.${process.pid}.00000000.tmp`, 'in flight');
    await writeFileAtomic(file, 'ok\n');
    expect(existsSync(`${file}.999999.0badc0de.tmp`)).toBe(false);
    expect(existsSync(`${file}.${process.pid}.00000000.tmp`)).toBe(true);
  });
});

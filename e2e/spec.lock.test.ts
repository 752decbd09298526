import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const FS = JSON.stringify(pathToFileURL(resolve(import.meta.dirname, '../packages/fs/dist/index.js')).href);

// Holds the project-wide corpus lock until killed.
const HOLDER = `
const { acquireLock, workflowLayout } = await import(${FS});
await acquireLock(workflowLayout(process.argv[2]).corpusLockTarget);
process.stdout.write('locked\\n');
setInterval(() => {}, 1000);
`;

function holdLock(root: string): Promise<ChildProcess> {
  const script = join(root, 'holder.mjs');
  writeFileSync(script, HOLDER);
  const child = spawn(process.execPath, [script, root], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (d.includes('locked')) done(child);
    });
    child.on('error', fail);
    child.on('exit', (code) => fail(new Error(`holder exited early (${code})`)));
  });
}

const add = (root: string, title: string, env: NodeJS.ProcessEnv = {}) =>
  runMaestroAsync(['spec', 'add', 'coding', title, 'body', '--workflow-root', root], { env });

test('a lock whose holder was SIGKILLed is taken over at once (dead-pid fast path, not the 10 s stale window)', async () => {
  const root = tmpProject({ '.workflow/specs/.keep': '' });
  const holder = await holdLock(root);
  holder.removeAllListeners('exit');
  const gone = new Promise((done) => holder.on('exit', done));
  holder.kill('SIGKILL');
  await gone;
  expect(existsSync(join(root, '.workflow/.knowledge-corpus.namespace.lock'))).toBe(true);
  const started = Date.now();
  const r = await add(root, 'After the crash', { MAESTRO_LOCK_TIMEOUT_MS: '8000' });
  const elapsed = Date.now() - started;
  expect(r.code, r.stderr).toBe(0);
  // Includes node start-up of the CLI (~0.2–0.6 s on a loaded 2-core machine).
  expect(elapsed).toBeLessThan(2_500);
  expect(existsSync(join(root, '.workflow/.knowledge-corpus.namespace.lock'))).toBe(false);
}, 30_000);

test('a lock held by a live process times out naming pid, host and age (exit 3), nothing written', async () => {
  const root = tmpProject({ '.workflow/specs/.keep': '' });
  const holder = await holdLock(root);
  holder.removeAllListeners('exit');
  try {
    const r = await add(root, 'Blocked', { MAESTRO_LOCK_TIMEOUT_MS: '400' });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`pid ${holder.pid} on ${hostname()}`);
    expect(r.stderr).toMatch(/held for \d+(\.\d)?s/);
    expect(existsSync(join(root, '.workflow/specs/coding-conventions.md'))).toBe(false);
    const json = await runMaestroAsync(['spec', 'add', 'coding', 'Blocked', 'b', '--json', '--workflow-root', root], {
      env: { MAESTRO_LOCK_TIMEOUT_MS: '300' },
    });
    expect(json.json<{ error: { code: string; exit_code: number } }>().error).toMatchObject({
      code: 'LOCK_TIMEOUT',
      exit_code: 3,
    });
  } finally {
    holder.kill('SIGKILL');
  }
}, 30_000);

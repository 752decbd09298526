import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMaestroAsync } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { R1, R2, reviewProject, S, type Serving, serve } from './review-helpers.js';

const FS = JSON.stringify(pathToFileURL(resolve(import.meta.dirname, '../packages/fs/dist/index.js')).href);
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
  });
}

async function login(s: Serving): Promise<{ cookie: string; csrf: string }> {
  const first = await fetch(s.url, { redirect: 'manual' });
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0];
  const html = await (await fetch(`${s.origin}/session/${S}`, { headers: { cookie } })).text();
  return { cookie, csrf: /name="csrf" value="([^"]+)"/.exec(html)![1] };
}

const post = (s: Serving, who: { cookie: string; csrf: string }, fields: [string, string][]) =>
  fetch(`${s.origin}/session/${S}/resolve`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: who.cookie, origin: s.origin, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams([['csrf', who.csrf], ...fields]).toString(),
  });

const resolution = (root: string, run: string, id: string) =>
  JSON.parse(
    readFileSync(join(root, `.workflow/sessions/${S}/runs/${run}/knowledge-reconciliation.json`), 'utf8'),
  ).candidates.find((c: { candidate_id: string }) => c.candidate_id === id)?.resolution;

describe('the review page takes the CLI locks', () => {
  it('waits for the corpus lock another process holds, then times out naming it; nothing is written', async () => {
    const { root, ids } = reviewProject();
    const s = await serve(root, [], { MAESTRO_LOCK_TIMEOUT_MS: '500' });
    const who = await login(s);
    const holder = await holdLock(root);
    try {
      const r = await post(s, who, [
        ['candidate', ids.conflict],
        ['as', 'conflict'],
        ['reason', 'pino stays'],
      ]);
      expect(r.status).toBe(500);
      expect(await r.text()).toContain(`pid ${holder.pid}`);
      expect(resolution(root, R1, ids.conflict)?.status).not.toBe('confirmed');
    } finally {
      holder.kill('SIGKILL');
    }
    const after = await post(s, who, [
      ['candidate', ids.conflict],
      ['as', 'conflict'],
      ['reason', 'pino stays'],
    ]);
    expect(after.status).toBe(303);
    expect(resolution(root, R1, ids.conflict)).toMatchObject({ status: 'confirmed', choice: 'conflict' });
    expect(await s.stop()).toBe(0);
  });

  it('a page resolve and a CLI resolve at the same moment both land', async () => {
    const { root, ids } = reviewProject();
    const s = await serve(root);
    const who = await login(s);
    const [page, cli] = await Promise.all([
      post(s, who, [
        ['candidate', ids.conflict],
        ['as', 'conflict'],
        ['reason', 'from the page'],
      ]),
      runMaestroAsync([
        'knowledge',
        'review',
        S,
        '--resolve',
        ids.flags,
        '--as',
        'unique',
        '--reason',
        'from the CLI',
        '--workflow-root',
        root,
      ]),
    ]);
    expect(page.status).toBe(303);
    expect(cli.code, cli.stderr).toBe(0);
    expect(resolution(root, R1, ids.conflict)).toMatchObject({ status: 'confirmed', reason: 'from the page' });
    expect(resolution(root, R2, ids.flags)).toMatchObject({ status: 'confirmed', reason: 'from the CLI' });
    expect(await s.stop()).toBe(0);
  });
});

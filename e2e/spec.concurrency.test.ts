import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runMaestro, runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const dist = (p: string) =>
  JSON.stringify(pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href);

// Each worker is a real process that adds 50 entries through the built package (the CLI path
// minus node start-up per entry, which would make 400 CLI calls take minutes on 2 cores).
const WORKER = `
const { addSpecEntry } = await import(${dist('spec')});
const { workflowLayout } = await import(${dist('fs')});
const { systemRuntime } = await import(${dist('core')});
const [root, worker] = process.argv.slice(2);
for (let i = 0; i < 50; i++) {
  const r = await addSpecEntry(workflowLayout(root), { category: 'coding', title: 'Rule ' + worker + '-' + i, content: 'Body ' + worker + '-' + i },
    systemRuntime, { lock: { timeoutMs: 30000 } });
  if (r.duplicate) throw new Error('unexpected duplicate');
}
`;

function run(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

function leftovers(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory()) walk(join(dir, d.name));
      else if (/\.lock$|\.tmp|\.\d+$|intent\.json$/.test(d.name)) out.push(join(dir, d.name));
    }
  };
  walk(join(root, '.workflow'));
  return out;
}

function sidsOf(root: string): string[] {
  const list = runMaestro(['spec', 'list', '--json', '--workflow-root', root]);
  expect(list.code, list.stderr).toBe(0);
  const out = list.json<{ entries: { id: string; hasSid: boolean }[]; issues: unknown[] }>();
  expect(out.issues).toEqual([]);
  expect(out.entries.every((e) => e.hasSid)).toBe(true);
  return out.entries.map((e) => e.id);
}

test('8 processes × 50 adds into one category file: 400 entries, 400 distinct sids, nothing left over', async () => {
  const root = tmpProject();
  expect(runMaestro(['init', '--workflow-root', root]).code).toBe(0);
  const script = join(root, 'worker.mjs');
  writeFileSync(script, WORKER);
  const results = await Promise.all(Array.from({ length: 8 }, (_, w) => run(script, [root, String(w)])));
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
  const sids = sidsOf(root);
  expect(sids).toHaveLength(400);
  expect(new Set(sids).size).toBe(400);
  const text = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
  expect(text.match(/<spec-entry /g)).toHaveLength(400);
  expect(leftovers(root)).toEqual([]);
}, 60_000);

test('4 processes × 5 adds through the real CLI', async () => {
  const root = tmpProject();
  expect(runMaestro(['init', '--workflow-root', root]).code).toBe(0);
  const worker = async (w: number) => {
    for (let i = 0; i < 5; i++) {
      const r = await runMaestroAsync([
        'spec',
        'add',
        'debug',
        `Note ${w}-${i}`,
        `Body ${w}-${i}`,
        '--json',
        '--workflow-root',
        root,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.json<{ duplicate: boolean }>().duplicate).toBe(false);
    }
  };
  await Promise.all([0, 1, 2, 3].map(worker));
  const sids = sidsOf(root);
  expect(new Set(sids).size).toBe(20);
  expect(leftovers(root)).toEqual([]);
}, 60_000);

import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryLocation } from '@maestro/memory';
import { CLI_BIN, runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const NOW = '2026-03-01T00:00:00.000Z';
const WORDS = ['billing', 'deploy', 'tabs', 'plan', 'staging', 'invoice', 'retry', 'cache', 'friday', 'review'];

/** A schema-valid store of `n` records with many near-duplicates, so consolidate has real work. */
function writeStore(root: string, base: string, n: number): string {
  const loc = memoryLocation(root, 'default', { MAESTRO_MEMORY_DIR: base });
  mkdirSync(loc.dir, { recursive: true, mode: 0o700 });
  const records = Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    // Mostly distinct texts (unique words), every third a near-duplicate of the one before.
    const k = i % 3 === 2 ? i - 1 : i;
    const topic = `${WORDS[k % 10]} zone${k.toString(36)} item${k}x`;
    return {
      id: `M-${i.toString(36).padStart(10, '0')}`,
      kind: i % 2 ? 'decision' : 'experience',
      text: `The team noted ${topic} ${i % 3 === 0 ? 'again' : ''}`.trim(),
      scope: { session: null, run: null, path: null },
      created_at: at,
      updated_at: at,
      last_recalled_at: null,
      recall_count: i % 4,
      recalled_sessions: [],
      confidence: i % 5 === 0 ? 0.12 : 0.8,
      decayed_at: at,
      source: { kind: 'manual', prompt: null, session: null, run: null },
      corrects: null,
      promotions: [],
      history: [{ at, action: 'created', text: null, from_id: null, confidence: null, note: null }],
    };
  });
  const file = {
    schema_version: 'maestro-memory/1.0',
    project_key: loc.projectKey,
    agent: 'default',
    revision: 1,
    updated_at: NOW,
    records,
  };
  writeFileSync(loc.records, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  return loc.records;
}

const env = (base: string) => ({ MAESTRO_MEMORY_DIR: base, MAESTRO_NOW: NOW, MAESTRO_AGENT: 'default' });

/** The store after an uninterrupted consolidate of the same input (a copy under another base). */
function expectedAfter(root: string, base: string): string {
  const other = tmpDir('maestro-mem-after-');
  cpSync(base, other, { recursive: true });
  const r = runMaestro(['memory', 'consolidate', '--json', '--workflow-root', root], { env: env(other) });
  expect(r.code, r.stderr).toBe(0);
  return readFileSync(memoryLocation(root, 'default', { MAESTRO_MEMORY_DIR: other }).records, 'utf8');
}

test('killed at the crash point before the write, consolidate leaves the store as it was', () => {
  const root = tmpProject();
  const base = tmpDir('maestro-mem-');
  const file = writeStore(root, base, 200);
  const before = readFileSync(file, 'utf8');
  const after = expectedAfter(root, base);
  expect(after).not.toBe(before);
  const crashed = runMaestro(['memory', 'consolidate', '--workflow-root', root], {
    env: { ...env(base), MAESTRO_CRASH_AT: 'memory:consolidate:before-write' },
  });
  expect(crashed.code).not.toBe(0);
  expect(readFileSync(file, 'utf8')).toBe(before);
  // the dead holder's lock is broken at once; the rerun completes to exactly the uninterrupted result
  const rerun = runMaestro(['memory', 'consolidate', '--workflow-root', root], { env: env(base) });
  expect(rerun.code, rerun.stderr).toBe(0);
  expect(readFileSync(file, 'utf8')).toBe(after);
  expect(readdirSync(join(file, '..')).sort()).toEqual(['memories.json']);
}, 60_000);

test('a real SIGKILL at any moment of consolidate leaves the store before or after, never half', async () => {
  const root = tmpProject();
  const base = tmpDir('maestro-mem-');
  const file = writeStore(root, base, 2000);
  const before = readFileSync(file, 'utf8');
  const started = Date.now();
  const after = expectedAfter(root, base);
  const took = Date.now() - started;
  const seen = { before: 0, after: 0 };
  // Kill points spread over one uninterrupted run (start-up, read, plan, write) and just past it.
  for (const share of [0.1, 0.35, 0.6, 0.8, 0.95, 1.2]) {
    const delay = Math.round(took * share);
    writeFileSync(file, before);
    const child = spawn(process.execPath, [CLI_BIN, 'memory', 'consolidate', '--workflow-root', root], {
      env: { ...process.env, ...env(base) },
      stdio: 'ignore',
    });
    // Listen before killing: a run that finished before the kill has already closed.
    const closed = new Promise((r) => child.on('close', r));
    await new Promise((r) => setTimeout(r, delay));
    child.kill('SIGKILL');
    await closed;
    const now = readFileSync(file, 'utf8');
    expect(now === before || now === after, `after a kill at ${delay} ms the store is neither before nor after`).toBe(
      true,
    );
    seen[now === before ? 'before' : 'after']++;
    // whatever the kill left (a lock, a temp file), the next consolidate finishes the job
    const next = runMaestro(['memory', 'consolidate', '--workflow-root', root], { env: env(base) });
    expect(next.code, next.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(after);
    expect(readdirSync(join(file, '..')).filter((n) => n !== 'memories.json')).toEqual([]);
  }
  expect(seen.before, `uninterrupted run took ${took} ms`).toBeGreaterThan(0);
}, 300_000);

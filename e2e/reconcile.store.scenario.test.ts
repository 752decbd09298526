import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { closeStores, openStore } from '@maestro/store';
import { CLI_BIN, copyDir, readTree, runMaestro, tmpDir } from '@maestro/test-utils';
import { afterAll, afterEach, expect, test } from 'vitest';

// The reconcile store (the `match` section of .workflow/.index/maestro.db) under two writers and
// killed writers: whatever happens, the next command answers exactly what a run from the text
// files alone answers.

const NOW = '2026-12-01T00:00:00.000Z';
const SET = resolve(import.meta.dirname, '../bench/reconcile-sets/harbor');
const SESSION = '20261201-harbor';
const RECEIPT = '.workflow/sessions/20261201-harbor/runs/20261201-001-harbor/knowledge-reconciliation.json';
const REVIEW = ['knowledge', 'review', SESSION, '--refresh', '--json'];

afterEach(() => closeStores());
afterAll(() => {
  if (template) rmSync(template, { recursive: true, force: true });
});

let template: string | null = null;

/** The harbor labelled set staged once, then copied per test. */
function project(): string {
  if (!template) {
    template = mkdtempSync(join(tmpdir(), 'maestro-rec-store-tpl-'));
    execFileSync(process.execPath, [join(SET, 'stage.mjs'), template], { stdio: 'ignore' });
  }
  const root = tmpDir('maestro-rec-store-');
  copyDir(template, root);
  return root;
}

const review = (root: string, env: Record<string, string> = {}) =>
  runMaestro([...REVIEW, '--workflow-root', root], { env: { MAESTRO_NOW: NOW, ...env } });

/** The receipt and review output of a run from the text files alone (no .workflow/.index/). */
function expected(): { receipt: string; stdout: string } {
  const root = project();
  const r = review(root);
  expect(r.code, r.stderr).toBe(0);
  return { receipt: readFileSync(join(root, RECEIPT), 'utf8'), stdout: r.stdout };
}

function spawnReview(root: string, env: Record<string, string> = {}): { child: ChildProcess; done: Promise<Result> } {
  const child = spawn(process.execPath, [CLI_BIN, ...REVIEW, '--workflow-root', root], {
    env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  // Decode across chunks: a UTF-8 character may be split between two of them.
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  child.stdout?.on('data', (d) => {
    stdout += d;
  });
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise<Result>((r) => child.on('close', (code, signal) => r({ code, signal, stdout, stderr })));
  return { child, done };
}

/** A review's verdicts and fresh state, without the "what this command regenerated" columns. */
function verdicts(stdout: string) {
  const view = JSON.parse(stdout) as { candidates: unknown[]; counts: unknown; runs: { after: string }[] };
  return { candidates: view.candidates, counts: view.counts, after: view.runs.map((r) => r.after) };
}

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The store holds one current row per corpus file and passes SQLite's integrity check. */
function expectSoundStore(root: string) {
  closeStores();
  const store = openStore(workflowLayout(root), { readOnly: true });
  expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
  const files = store.db.prepare('SELECT path FROM match_files ORDER BY path').all() as { path: string }[];
  const corpus = ['specs', 'knowhow'].flatMap((d) =>
    readdirSync(join(root, '.workflow', d))
      .filter((n) => n.endsWith('.md'))
      .map((n) => `${d}/${n}`),
  );
  expect(files.map((f) => f.path)).toEqual(corpus.sort());
  closeStores();
}

test('two review --refresh at once on a cold project: both answer, the store is written once and sound', async () => {
  const want = expected();
  const root = project();
  const a = spawnReview(root);
  const b = spawnReview(root);
  const [ra, rb] = await Promise.all([a.done, b.done]);
  expect(ra.code, ra.stderr).toBe(0);
  expect(rb.code, rb.stderr).toBe(0);
  // Each answers the verdicts of a run from the text files (one may find the other's receipt already fresh).
  for (const r of [ra, rb]) expect(verdicts(r.stdout)).toEqual(verdicts(want.stdout));
  expect(readFileSync(join(root, RECEIPT), 'utf8')).toBe(want.receipt);
  expectSoundStore(root);
  // and the next run, from the store both left, says the same
  rmSync(join(root, RECEIPT));
  const again = review(root);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toBe(want.stdout);
}, 180_000);

test('an indexer killed inside its write transaction leaves a store the next command uses', () => {
  const want = expected();
  const root = project();
  const crashed = review(root, { MAESTRO_CRASH_AT: 'reconcile:match:before-commit' });
  expect(crashed.code).not.toBe(0);
  expect(existsSync(join(root, RECEIPT))).toBe(false);
  const next = review(root);
  expect(next.code, next.stderr).toBe(0);
  expect(next.stdout).toBe(want.stdout);
  expect(readFileSync(join(root, RECEIPT), 'utf8')).toBe(want.receipt);
  expectSoundStore(root);
}, 180_000);

test('a real SIGKILL at any moment of a cold refresh: the next refresh gives the same receipt', async () => {
  const want = expected();
  const timing = project();
  const t0 = Date.now();
  expect(review(timing).code).toBe(0);
  const took = Date.now() - t0;
  let interrupted = 0;
  for (const share of [0.3, 0.6, 0.85]) {
    const root = project();
    const run = spawnReview(root);
    await new Promise((r) => setTimeout(r, Math.round(took * share)));
    run.child.kill('SIGKILL');
    const killed = await run.done;
    if (killed.signal === 'SIGKILL' && !existsSync(join(root, RECEIPT))) interrupted++;
    const next = review(root);
    expect(next.code, next.stderr).toBe(0);
    expect(verdicts(next.stdout)).toEqual(verdicts(want.stdout));
    expect(readFileSync(join(root, RECEIPT), 'utf8')).toBe(want.receipt);
    expectSoundStore(root);
  }
  expect(interrupted, `an uninterrupted refresh took ${took} ms`).toBeGreaterThan(0);
}, 300_000);

test('a writer stalled inside its transaction: another review answers from the text files, with a warning', async () => {
  const want = expected();
  const root = project();
  const stalled = spawnReview(root, {
    MAESTRO_CRASH_AT: 'reconcile:match:before-commit',
    MAESTRO_CRASH_SIGNAL: 'SIGSTOP',
  });
  // Wait until it holds the write lock (its WAL has the uncommitted rows).
  const wal = join(root, '.workflow/.index/maestro.db-wal');
  for (let i = 0; i < 600 && !(existsSync(wal) && readFileSync(wal).length > 64 * 1024); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500));
  try {
    const other = review(root);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe(want.stdout);
    expect(other.stderr).toMatch(/could not save derived state/);
  } finally {
    stalled.child.kill('SIGCONT');
  }
  const resumed = await stalled.done;
  expect(resumed.code, resumed.stderr).toBe(0);
  expect(resumed.stdout).toBe(want.stdout);
  expectSoundStore(root);
}, 300_000);

test('read-only review after a spec add re-derives one file in the store and writes nothing else', () => {
  const root = project();
  expect(review(root).code).toBe(0);
  const add = runMaestro(
    [
      'spec',
      'add',
      'coding',
      'Queue acks',
      'Consumers acknowledge only after the write commits.',
      '--workflow-root',
      root,
    ],
    { env: { MAESTRO_NOW: NOW } },
  );
  expect(add.code, add.stderr).toBe(0);
  const user = () => readTree(root, (rel) => rel.startsWith('.workflow/.index'));
  const before = user();
  const r = runMaestro(['knowledge', 'review', SESSION, '--json', '--workflow-root', root], {
    env: { MAESTRO_NOW: NOW },
  });
  expect(r.code, r.stderr).toBe(0);
  expect(user()).toEqual(before);
  // The same answer as a store rebuilt from the text files alone.
  rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
  const cold = runMaestro(['knowledge', 'review', SESSION, '--json', '--workflow-root', root], {
    env: { MAESTRO_NOW: NOW },
  });
  expect(cold.stdout).toBe(r.stdout);
  expect(user()).toEqual(before);
}, 180_000);

import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { CLI_BIN, readTree, runMaestroAsync, tmpDir } from '@maestro/test-utils';
import { afterAll, describe, expect, test } from 'vitest';

// No search or context result may depend on the state of the derived index: built in memory
// (read-only), read back from `.workflow/.index/search/` (warm), updated incrementally after an
// edit, or rebuilt after `rm -rf .workflow/.index` — and a large build split over a worker thread
// answers exactly like one on a single thread. The corpora are copies (never edited in place).
const CORPUS = resolve(import.meta.dirname, '../../shared/corpora/real-world');
const GEN = resolve(import.meta.dirname, '../bench/lib/gen-corpus.mjs');
const env = { MAESTRO_NOW: '2026-10-15T12:00:00Z' };
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Every real-world project's specs and knowhow in one `.workflow/` (file names prefixed by project). */
function realWorld(): string {
  const root = tmpDir('maestro-search-equiv-rw-');
  roots.push(root);
  for (const sub of ['specs', 'knowhow']) mkdirSync(join(root, '.workflow', sub), { recursive: true });
  const walk = (dir: string, depth: number) => {
    if (existsSync(join(dir, '.workflow'))) {
      const name = relative(CORPUS, dir).replaceAll('/', '__');
      for (const sub of ['specs', 'knowhow']) {
        const from = join(dir, '.workflow', sub);
        if (!existsSync(from)) continue;
        for (const f of readdirSync(from, { recursive: true, withFileTypes: true })) {
          if (!f.isFile() || !f.name.endsWith('.md')) continue;
          const rel = relative(from, join(f.parentPath, f.name)).replaceAll('/', '__');
          copyFileSync(join(f.parentPath, f.name), join(root, '.workflow', sub, `${name}__${rel}`));
        }
      }
    }
    if (depth === 0) return;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory() && !d.name.startsWith('.')) walk(join(dir, d.name), depth - 1);
    }
  };
  walk(CORPUS, 2);
  return root;
}

function generated(entries: number): string {
  const root = tmpDir('maestro-search-equiv-gen-');
  roots.push(root);
  execFileSync(process.execPath, [
    '-e',
    'import(process.argv[1]).then((m) => m.generateCorpus(process.argv[2], { entries: Number(process.argv[3]), seed: 5 }))',
    GEN,
    root,
    String(entries),
  ]);
  return root;
}

/** Dates every corpus file an hour back, so a warm index is trusted by stat (outside the racy window). */
function backdate(root: string): void {
  const past = new Date(Date.now() - 3_600_000);
  for (const sub of ['specs', 'knowhow']) {
    const dir = join(root, '.workflow', sub);
    for (const f of readdirSync(dir)) utimesSync(join(dir, f), past, past);
    utimesSync(dir, past, past);
  }
}

const corpusTree = (root: string) => readTree(join(root, '.workflow'), (rel) => rel.startsWith('.index'));

interface Snapshot {
  outputs: unknown[];
  statuses: string[];
}

/**
 * Every query as `search --json` (balanced and relevance, read-only so that no exposure is
 * recorded between runs) and one prompt as `context --json`; the index bookkeeping
 * (`index`, `exposure_recorded`) is left out of the comparison, everything else is compared.
 */
async function snapshot(root: string, queries: string[], prompt: string, extraEnv = {}): Promise<Snapshot> {
  const outputs: unknown[] = [];
  const statuses: string[] = [];
  const run = async (args: string[]) => {
    const r = await runMaestroAsync([...args, '--json', '--workflow-root', root], { env: { ...env, ...extraEnv } });
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
    const j = r.json<Record<string, unknown> & { index?: { status: string } }>();
    if (j.index) statuses.push(j.index.status);
    delete j.index;
    delete j.exposure_recorded;
    return j;
  };
  for (const q of queries) {
    outputs.push(await run(['search', q, '--read-only']));
    outputs.push(await run(['search', q, '--read-only', '--mode', 'relevance', '--limit', '25']));
  }
  outputs.push(await run(['context', prompt, '--budget', '1500']));
  // context counts what it showed; the next snapshot starts without counters again
  for (const f of ['exposure.jsonl', 'exposure.json', 'exposure.jsonl.old']) {
    rmSync(join(root, '.workflow/.index/search', f), { force: true });
  }
  return { outputs, statuses };
}

async function states(root: string, queries: string[], prompt: string, edit: () => void, extraEnv = {}) {
  backdate(root);
  const before = corpusTree(root);
  rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
  const memory = await snapshot(root, queries, prompt, extraEnv); // read-only searches: built in memory
  const warm = await snapshot(root, queries, prompt, extraEnv); // read back from index.bin
  expect(warm.statuses.every((s) => s === 'fresh')).toBe(true);
  expect(warm.outputs).toEqual(memory.outputs);
  expect(corpusTree(root)).toEqual(before); // search and context never write the corpus
  edit();
  const updated = await snapshot(root, queries, prompt, extraEnv); // in-memory update, then persisted by context
  expect(updated.statuses.every((s) => s === 'updated')).toBe(true);
  const afterUpdate = await snapshot(root, queries, prompt, extraEnv);
  rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
  const rebuilt = await snapshot(root, queries, prompt, extraEnv);
  expect(rebuilt.statuses.every((s) => s === 'built')).toBe(true);
  expect(updated.outputs).toEqual(rebuilt.outputs);
  expect(afterUpdate.outputs).toEqual(rebuilt.outputs);
  expect(updated.outputs).not.toEqual(memory.outputs); // the edit is seen
  return { memory, rebuilt };
}

describe('search and context answer the same whatever the state of the index', () => {
  test('on the real-world corpus (every project, one .workflow/), before and after editing one file', async () => {
    expect(existsSync(CORPUS), `the real-world corpus is expected at ${CORPUS}`).toBe(true);
    const root = realWorld();
    const knowhow = readdirSync(join(root, '.workflow/knowhow')).sort()[0];
    await states(
      root,
      ['api error handling retry', '测试 规范', '"knowledge base"'],
      'How should I handle API errors and retries in this project?',
      () =>
        appendFileSync(
          join(root, '.workflow/knowhow', knowhow),
          '\n\nRetry API errors with exponential backoff and a timeout; handle 测试 failures the same way.\n',
        ),
    );
  }, 600_000);

  test('on a generated corpus, tokenised with and without the worker thread', async () => {
    const queries = ['retry backoff', '"cache eviction"'];
    const prompt = 'Which retry and backoff rules apply to the queue worker?';
    // The same edit to the same file of two copies of the same corpus.
    const edit = (root: string) => () =>
      appendFileSync(
        join(root, '.workflow/specs/coding-conventions.md'),
        '\n<spec-entry category="coding" keywords="retry,queue" date="2026-10-01" title="Queue retry budget">\n\n### Queue retry budget\n\nRetry queue jobs with backoff, at most five times, then park them.\n\n</spec-entry>\n',
      );
    const a = generated(2500);
    const threaded = await states(a, queries, prompt, edit(a), { MAESTRO_SEARCH_WORKER: '1' });
    // The same corpus, the same edit, on one thread: built in memory before and after the edit.
    const b = generated(2500);
    backdate(b);
    const one = { MAESTRO_SEARCH_WORKER: '0' };
    expect((await snapshot(b, queries, prompt, one)).outputs).toEqual(threaded.memory.outputs);
    edit(b)();
    rmSync(join(b, '.workflow/.index'), { recursive: true, force: true });
    expect((await snapshot(b, queries, prompt, one)).outputs).toEqual(threaded.rebuilt.outputs);
  }, 600_000);
});

describe('building the index from two processes, or from one that is killed', () => {
  const args = (root: string) => ['search', 'retry backoff', '--mode', 'relevance', '--json', '--workflow-root', root];
  const results = (r: { json<T>(): T }) => JSON.stringify(r.json<{ results: unknown }>().results);

  test('two first searches at once (each tokenising on two threads) agree and leave one fresh index', async () => {
    const root = generated(2500);
    backdate(root);
    const e = { ...env, MAESTRO_SEARCH_WORKER: '1' };
    const [a, b] = await Promise.all([
      runMaestroAsync(args(root), { env: e }),
      runMaestroAsync(args(root), { env: e }),
    ]);
    for (const r of [a, b]) expect(r.code, r.stderr).toBe(0);
    expect(results(a)).toBe(results(b));
    const after = await runMaestroAsync(args(root), { env });
    expect(after.json<{ index: { status: string } }>().index.status).toBe('fresh');
    expect(results(after)).toBe(results(a));
    expect(existsSync(join(root, '.workflow/.index/search/index.lock'))).toBe(false);
  }, 120_000);

  test('an indexer killed while building leaves nothing that changes the next answer', async () => {
    const root = generated(6000);
    backdate(root);
    const want = await runMaestroAsync([...args(root), '--read-only'], { env });
    expect(want.code, want.stderr).toBe(0);
    const child = spawn(process.execPath, [CLI_BIN, ...args(root)], {
      env: { ...process.env, ...env },
      stdio: 'ignore',
    });
    const lock = join(root, '.workflow/.index/search/index.lock');
    for (let i = 0; i < 600 && !existsSync(lock); i++) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(lock), 'the indexer took the index lock').toBe(true);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // killed mid-build: its lock is still there (a dead owner's lock is broken by the next search)
    expect(existsSync(lock)).toBe(true);
    const next = await runMaestroAsync(args(root), { env });
    expect(next.code, next.stderr).toBe(0);
    expect(results(next)).toBe(results(want));
    expect(next.json<{ index: { status: string } }>().index.status).toMatch(/^(built|rebuilt)$/);
    const again = await runMaestroAsync(args(root), { env });
    expect(again.json<{ index: { status: string } }>().index.status).toBe('fresh');
    expect(results(again)).toBe(results(want));
  }, 120_000);
});

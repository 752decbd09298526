import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardWorkflowWrites, workflowLayout } from '@maestro/fs';
import { tmpDir } from '@maestro/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { closeStores, openStore, STORE_FILE } from './store.js';

// Crash, concurrency and damage tests of the store (issue 17). The other processes import the
// built package (`pnpm build` first), as the fs lock tests do.
const STORE_DIST = pathToFileURL(resolve(import.meta.dirname, '../dist/index.js')).href;
const FS_DIST = pathToFileURL(resolve(import.meta.dirname, '../../fs/dist/index.js')).href;

const SECTION = {
  name: 'demo',
  revision: '1',
  ddl: [
    'CREATE TABLE demo_rows (k TEXT PRIMARY KEY, v TEXT NOT NULL)',
    'CREATE TABLE demo_counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)',
  ],
};

afterEach(() => closeStores());

function project(): string {
  const root = tmpDir('maestro-store-faults-');
  mkdirSync(join(root, '.workflow', 'specs'), { recursive: true });
  return root;
}

/** A child process running `body` with `store` open on `root`'s workflow and `SECTION` ready. */
function child(root: string, body: string, { user }: { user?: 'nobody' } = {}): ChildProcess {
  const code = `import * as st from ${JSON.stringify(STORE_DIST)};
import * as mfs from ${JSON.stringify(FS_DIST)};
const SECTION = ${JSON.stringify(SECTION)};
const layout = mfs.workflowLayout(${JSON.stringify(root)});
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
${body}`;
  const args = ['--input-type=module', '-e', code];
  const [cmd, argv] =
    user === 'nobody'
      ? [SETPRIV as string, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...args]]
      : [process.execPath, args];
  const c = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(c);
  c.once('exit', () => running.delete(c));
  return c;
}

/** Children still running when a test ends (it failed or timed out) are killed, never left spinning. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const c of running) c.kill('SIGKILL');
  running.clear();
});

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function finished(c: ChildProcess): Promise<Exit> {
  let stdout = '';
  let stderr = '';
  c.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  c.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  return new Promise((done) => c.once('close', (code, signal) => done({ code, signal, stdout, stderr })));
}

/** Resolves once the child printed `word` on a line of its own. */
function printed(c: ChildProcess, word: string): Promise<void> {
  return new Promise((done, fail) => {
    let seen = '';
    c.stdout?.on('data', (d: Buffer | string) => {
      seen += d.toString();
      if (seen.split('\n').includes(word)) done();
    });
    c.once('close', (code) => fail(new Error(`child exited ${code} before printing ${word}`)));
  });
}

/** A store on disk holding `rows` committed rows (and a counter at `rows`), closed cleanly. */
function seeded(root: string, rows = 2000): string {
  const s = openStore(workflowLayout(root));
  s.section(SECTION);
  s.write(() => {
    const put = s.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)');
    for (let i = 0; i < rows; i++) put.run(`k${i}`, `${'v'.repeat(200)}${i}`);
    s.prepare('INSERT INTO demo_counter (id, n) VALUES (1, ?)').run(rows);
  });
  closeStores();
  return join(workflowLayout(root).index, STORE_FILE);
}

function count(root: string): { rows: number; counter: number | null; warnings: string[]; check: string } {
  const s = openStore(workflowLayout(root));
  s.section(SECTION);
  const rows = (s.prepare('SELECT count(*) AS n FROM demo_rows').get() as { n: number }).n;
  const c = s.prepare('SELECT n FROM demo_counter WHERE id = 1').get() as { n: number } | undefined;
  const check = (s.db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
  const out = { rows, counter: c?.n ?? null, warnings: [...s.warnings], check: check.join('; ') };
  closeStores();
  return out;
}

function overwrite(path: string, at: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, at);
  closeSync(fd);
}

const garbage = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + seed) & 255));

describe('two processes writing the same section at once', () => {
  it('both finish, every transaction lands whole, and a reader never sees half of one', async () => {
    const root = project();
    const start = Date.now() + 700; // both open the (not yet existing) file at the same moment
    const N = 250;
    const writer = (id: string) => `while (Date.now() < ${start}) {}
const store = st.openStore(layout);
store.section(SECTION);
for (let i = 0; i < ${N}; i++) {
  store.write(() => {
    store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run('${id}' + i, 'x'.repeat(500));
    store.prepare('INSERT INTO demo_counter (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1').run();
  });
}
if (store.warnings.length) console.error(store.warnings.join('\\n'));
console.log('done ' + store.persistent);`;
    const reader = `while (Date.now() < ${start}) {}
const store = st.openStore(layout);
store.section(SECTION);
let torn = 0, reads = 0, last = 0;
const q = store.prepare('SELECT (SELECT count(*) FROM demo_rows) AS rows, (SELECT n FROM demo_counter WHERE id = 1) AS n');
// Bounded: a writer that failed never brings the counter to the end (the test then reports it).
const until = Date.now() + 45_000;
while (last < ${2 * N} && Date.now() < until) {
  const r = q.get();
  reads++;
  if (r.n !== null && r.rows !== r.n) torn++;
  if (r.n !== null && r.n < last) torn++;
  last = r.n ?? 0;
}
console.log('reads ' + reads + ' torn ' + torn);`;
    const runs = [child(root, writer('a')), child(root, writer('b')), child(root, reader)].map(finished);
    const [a, b, r] = await Promise.all(runs);
    expect([a.code, a.stderr]).toEqual([0, '']);
    expect([b.code, b.stderr]).toEqual([0, '']);
    expect(a.stdout.trim()).toBe('done true');
    expect(b.stdout.trim()).toBe('done true');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^reads \d+ torn 0\n$/);
    expect(count(root)).toEqual({ rows: 2 * N, counter: 2 * N, warnings: [], check: 'ok' });
  }, 60_000);
});

describe('a writer killed mid-transaction', () => {
  it('leaves the committed transactions and none of the open one (WAL recovery on the next open)', async () => {
    const root = project();
    const c = child(
      root,
      `const store = st.openStore(layout);
store.section(SECTION);
for (let i = 0; i < 100; i++) store.write(() => store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run('c' + i, 'x'));
store.write(() => {
  const put = store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)');
  for (let i = 0; i < 20000; i++) put.run('open' + i, 'y'.repeat(300));
  console.log('inside');
  sleep(60000);
});`,
    );
    const exit = finished(c);
    await printed(c, 'inside');
    const wal = join(workflowLayout(root).index, `${STORE_FILE}-wal`);
    expect(statSync(wal).size).toBeGreaterThan(0); // the killed writer's frames are in the WAL
    c.kill('SIGKILL');
    expect((await exit).signal).toBe('SIGKILL');
    expect(count(root)).toEqual({ rows: 100, counter: null, warnings: [], check: 'ok' });
    // And the store takes writes again.
    const s = openStore(workflowLayout(root));
    s.section(SECTION);
    s.write(() => s.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run('after', 'z'));
    closeStores();
    expect(count(root).rows).toBe(101);
  }, 60_000);

  it('keeps every transaction whole when writers are killed at random moments', async () => {
    const root = project();
    const TX = 500;
    for (const delay of [120, 260, 410, 75]) {
      const c = child(
        root,
        `const store = st.openStore(layout);
store.section(SECTION);
const base = Date.now();
for (let t = 0; ; t++) {
  store.write(() => {
    const put = store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)');
    for (let i = 0; i < ${TX}; i++) put.run(base + '-' + t + '-' + i, 'w'.repeat(200));
    store.prepare('INSERT INTO demo_counter (id, n) VALUES (1, ${TX}) ON CONFLICT (id) DO UPDATE SET n = n + ${TX}').run();
  });
  if (t === 0) console.log('running');
}`,
      );
      const exit = finished(c);
      await printed(c, 'running');
      await new Promise((r) => setTimeout(r, delay));
      c.kill('SIGKILL');
      await exit;
      const after = count(root);
      expect(after.check).toBe('ok');
      expect(after.warnings).toEqual([]);
      expect(after.rows % TX).toBe(0);
      expect(after.counter).toBe(after.rows);
    }
  }, 60_000);
});

describe('a damaged database file', () => {
  it('with random bytes over its header: moved aside with a warning, rebuilt empty, usable', () => {
    const root = project();
    const db = seeded(root);
    overwrite(db, 0, garbage(100, 3));
    const after = count(root);
    expect(after.rows).toBe(0);
    expect(after.check).toBe('ok');
    expect(after.warnings.join('\n')).toMatch(/was damaged \(file is not a database\); moved it to .*\.damaged-\d+/);
    const aside = readdirSync(workflowLayout(root).index).filter((n) => n.startsWith(`${STORE_FILE}.damaged-`));
    expect(aside.length).toBe(1);
    expect(count(root)).toEqual({ rows: 0, counter: null, warnings: [], check: 'ok' }); // stays healthy
  });

  it('truncated: moved aside with a warning and rebuilt', () => {
    const root = project();
    const db = seeded(root);
    truncateSync(db, Math.floor(statSync(db).size / 3));
    const after = count(root);
    expect(after.rows).toBe(0);
    expect(after.check).toBe('ok');
    expect(after.warnings.join('\n')).toMatch(/was damaged .*moved it to .*\.damaged-\d+ and rebuilt/);
  });

  it('with a WAL file of garbage: the garbage is ignored and the last checkpoint answers', () => {
    const root = project();
    const db = seeded(root, 300);
    writeFileSync(`${db}-wal`, garbage(64 * 1024, 11));
    expect(count(root)).toEqual({ rows: 300, counter: 300, warnings: [], check: 'ok' });
  });

  it('with a WAL whose tail is garbage: a prefix of whole transactions survives', async () => {
    const root = project();
    seeded(root, 10);
    const c = child(
      root,
      `const store = st.openStore(layout);
store.section(SECTION);
for (let t = 0; t < 20; t++) store.write(() => {
  for (let i = 0; i < 50; i++) store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run(t + '-' + i, 'q'.repeat(100));
  store.prepare('UPDATE demo_counter SET n = n + 50 WHERE id = 1').run();
});
console.log('committed');
sleep(60000);`,
    );
    const exit = finished(c);
    await printed(c, 'committed');
    c.kill('SIGKILL');
    await exit;
    const wal = join(workflowLayout(root).index, `${STORE_FILE}-wal`);
    const size = statSync(wal).size;
    overwrite(wal, Math.floor(size / 2), garbage(size - Math.floor(size / 2), 5));
    const after = count(root);
    expect(after.check).toBe('ok');
    expect(after.rows).toBeLessThan(1010);
    expect((after.rows - 10) % 50).toBe(0);
    expect(after.counter).toBe(after.rows);
  }, 30_000);

  it('with a damaged page found only when read: the file is moved aside so that the next open rebuilds', () => {
    const root = project();
    const db = seeded(root);
    const pages = statSync(db).size / 4096;
    overwrite(db, Math.floor(pages / 2) * 4096, garbage(3 * 4096, 17));
    const s = openStore(workflowLayout(root));
    s.section(SECTION);
    let failure: unknown = null;
    try {
      s.prepare('SELECT k, v FROM demo_rows ORDER BY v').all();
      s.write(() => s.prepare('UPDATE demo_rows SET v = v || ?').run('!'));
    } catch (err) {
      failure = err;
    }
    expect((failure as { code?: string })?.code).toMatch(/^SQLITE_CORRUPT/);
    expect(s.warnings.join('\n')).toMatch(/damaged .*moved it to .*\.damaged-\d+; the next command rebuilds it/);
    closeStores();
    const after = count(root);
    expect(after).toEqual({ rows: 0, counter: null, warnings: [], check: 'ok' });
  });
});

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
const asRoot = process.getuid?.() === 0;
/** As root, file modes stop nothing: the child runs as `nobody` through setpriv (or the tests are skipped). */
const canDropWrite = !asRoot || SETPRIV !== undefined;
const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

function treeMode(dir: string, dirMode: number, fileMode: number): void {
  chmodSync(dir, dirMode);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) treeMode(p, dirMode, fileMode);
    else chmodSync(p, fileMode);
  }
}

describe.runIf(canDropWrite)('a read-only .index/ (as nobody when the tests run as root)', () => {
  const user = asRoot ? ('nobody' as const) : undefined;
  const probe = `let store;
try { store = st.openStore(layout); store.section(SECTION); } catch (err) { console.log('THREW ' + err.message); process.exit(1); }
store.write(() => store.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run('mem', '1'));
const n = store.prepare('SELECT count(*) AS n FROM demo_rows').get().n;
console.log(JSON.stringify({ persistent: store.persistent, n, warnings: store.warnings }));`;

  it('cannot create .index/: the store lives in memory with a warning', async () => {
    const root = project();
    chmodSync(root, 0o755);
    treeMode(join(root, '.workflow'), 0o555, 0o444);
    try {
      const r = await finished(child(root, probe, { user }));
      expect(r.code, r.stderr + r.stdout).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out).toMatchObject({ persistent: false, n: 1 });
      expect(out.warnings.join('\n')).toMatch(/cannot create .*\.index.*kept in memory/);
      expect(existsSync(workflowLayout(root).index)).toBe(false);
    } finally {
      treeMode(join(root, '.workflow'), 0o755, 0o644);
    }
  }, 20_000);

  it('an existing store it may not write: answers from memory, the file is untouched', async () => {
    const root = project();
    const db = seeded(root, 50);
    const before = sha(db);
    chmodSync(root, 0o755);
    treeMode(join(root, '.workflow'), 0o555, 0o444);
    try {
      const r = await finished(child(root, probe, { user }));
      expect(r.code, r.stderr + r.stdout).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.persistent).toBe(false);
      expect(out.warnings.join('\n')).toMatch(/kept in memory/);
      expect(sha(db)).toBe(before);
      expect(readdirSync(workflowLayout(root).index)).toEqual([STORE_FILE]);
    } finally {
      treeMode(join(root, '.workflow'), 0o755, 0o644);
    }
  }, 20_000);
});

describe('a refused external .workflow (a link out of the project)', () => {
  afterEach(() => guardWorkflowWrites(workflowLayout('/'), true));

  it('keeps derived state in memory and writes nothing there; with the opt-in it persists', () => {
    const outside = tmpDir('maestro-store-outside-');
    mkdirSync(join(outside, 'specs'));
    const root = tmpDir('maestro-store-linked-');
    symlinkSync(outside, join(root, '.workflow'));
    const layout = workflowLayout(root);
    guardWorkflowWrites(layout, false);
    const s = openStore(layout);
    expect(s.persistent).toBe(false);
    expect(s.warnings.join('\n')).toMatch(/refusing to write .*kept in memory/);
    s.section(SECTION);
    s.write(() => s.prepare('INSERT INTO demo_rows (k, v) VALUES (?, ?)').run('a', '1'));
    expect(readdirSync(outside)).toEqual(['specs']);
    closeStores();
    guardWorkflowWrites(layout, true);
    expect(openStore(layout).persistent).toBe(true);
    expect(existsSync(join(outside, '.index', STORE_FILE))).toBe(true);
  });
});

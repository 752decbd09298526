import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fileStates } from './files.js';
import { takeStoreNotices } from './notices.js';
import { closeStores, openStore, STORE_FILE } from './store.js';

const roots: string[] = [];
function project() {
  const root = mkdtempSync(join(tmpdir(), 'maestro-store-'));
  roots.push(root);
  mkdirSync(join(root, '.workflow', 'specs'), { recursive: true });
  return workflowLayout(root);
}
afterEach(() => {
  closeStores();
  for (const r of roots.splice(0)) {
    try {
      chmodSync(join(r, '.workflow'), 0o755);
    } catch {}
    rmSync(r, { recursive: true, force: true });
  }
});

const SECTION = { name: 'demo', revision: '1', ddl: ['CREATE TABLE demo_rows (k TEXT PRIMARY KEY, v TEXT)'] };

describe('openStore', () => {
  it('creates one WAL database under .index/ and keeps sections across opens', () => {
    const layout = project();
    const s = openStore(layout);
    expect(s.persistent).toBe(true);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    s.section(SECTION);
    s.write(() => s.prepare('INSERT INTO demo_rows VALUES (?, ?)').run('a', '1'));
    closeStores();
    const again = openStore(layout);
    again.section(SECTION);
    expect(again.prepare('SELECT v FROM demo_rows WHERE k = ?').get('a')).toEqual({ v: '1' });
  });

  it('hands out statements that chain and iterate like better-sqlite3 ones', () => {
    const s = openStore(project());
    s.section(SECTION);
    s.write(() => {
      for (const k of ['a', 'b']) s.prepare('INSERT INTO demo_rows VALUES (?, ?)').run(k, k.toUpperCase());
    });
    const q = s.prepare('SELECT k, v FROM demo_rows ORDER BY k');
    expect(q.pluck().all()).toEqual(['a', 'b']);
    expect(q.pluck(false).raw().all()).toEqual([
      ['a', 'A'],
      ['b', 'B'],
    ]);
    expect([...s.prepare('SELECT v FROM demo_rows ORDER BY k').iterate()]).toEqual([{ v: 'A' }, { v: 'B' }]);
    expect(s.prepare('SELECT k FROM demo_rows').reader).toBe(true);
  });

  it('drops a section whose revision changed, and only that section', () => {
    const layout = project();
    const s = openStore(layout);
    s.section(SECTION);
    s.section({ name: 'other', revision: '1', ddl: ['CREATE TABLE other_rows (k TEXT)'] });
    s.write(() => {
      s.prepare('INSERT INTO demo_rows VALUES (?, ?)').run('a', '1');
      s.prepare('INSERT INTO other_rows VALUES (?)').run('x');
    });
    s.section({ ...SECTION, revision: '2' });
    expect(s.prepare('SELECT count(*) AS n FROM demo_rows').get()).toEqual({ n: 0 });
    expect(s.prepare('SELECT count(*) AS n FROM other_rows').get()).toEqual({ n: 1 });
  });

  it('moves a damaged file aside, warns, and starts empty', () => {
    const layout = project();
    mkdirSync(layout.index, { recursive: true });
    writeFileSync(
      join(layout.index, STORE_FILE),
      'this is not a database, it is a text file that is long enough'.repeat(100),
    );
    const s = openStore(layout);
    expect(s.persistent).toBe(true);
    expect(s.warnings.join('\n')).toMatch(/damaged.*moved it to .*maestro\.db\.damaged-\d+/);
    s.section(SECTION);
    expect(readdirSync(layout.index).some((n) => n.startsWith(`${STORE_FILE}.damaged-`))).toBe(true);
  });

  it('keeps damage as a process notice, handed out once, and not the read-only fallback', () => {
    takeStoreNotices();
    const layout = project();
    mkdirSync(layout.index, { recursive: true });
    writeFileSync(
      join(layout.index, STORE_FILE),
      'not a database at all, only words, words and more words'.repeat(100),
    );
    openStore(layout);
    const notices = takeStoreNotices();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/derived-state store .* was damaged/);
    expect(takeStoreNotices()).toEqual([]);
    openStore(project(), { memoryOnly: true });
    expect(takeStoreNotices()).toEqual([]);
  });

  it('answers from memory when .index/ cannot be created', () => {
    if (process.getuid?.() === 0) return; // root writes anywhere; the read-only case is covered by e2e
    const layout = project();
    chmodSync(layout.workflow, 0o555);
    const s = openStore(layout);
    expect(s.persistent).toBe(false);
    expect(s.warnings.join('\n')).toMatch(/kept in memory/);
    s.section(SECTION);
  });
});

describe('fileStates', () => {
  it('hashes a file once it is settled, and again after any change', () => {
    const layout = project();
    const file = join(layout.workflow, 'specs', 'a.md');
    writeFileSync(file, 'one');
    const old = new Date(Date.now() - 10_000);

    utimesSync(file, old, old);
    const s = openStore(layout);
    const [first] = fileStates(s, layout.workflow, ['specs/a.md', 'specs/missing.md']);
    expect(first?.bytes?.toString()).toBe('one');
    const [second] = fileStates(s, layout.workflow, ['specs/a.md']);
    expect(second?.bytes).toBeNull();
    expect(second?.sha256).toBe(first?.sha256);
    writeFileSync(file, 'two');
    utimesSync(file, old, old);
    const [third] = fileStates(s, layout.workflow, ['specs/a.md']);
    expect(third?.bytes?.toString()).toBe('two');
    expect(third?.sha256).not.toBe(first?.sha256);
  });

  it('does not trust a hash taken within the racy window of the mtime', () => {
    const layout = project();
    writeFileSync(join(layout.workflow, 'specs', 'a.md'), 'fresh');
    const s = openStore(layout);
    fileStates(s, layout.workflow, ['specs/a.md']);
    const [again] = fileStates(s, layout.workflow, ['specs/a.md']);
    expect(again?.bytes).not.toBeNull();
  });

  it('hands out a resumable hash state over exactly the bytes it read, and none when trusted by stat', () => {
    const layout = project();
    const file = join(layout.workflow, 'specs', 'a.md');
    writeFileSync(file, 'head\n');
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    const s = openStore(layout);
    const [read] = fileStates(s, layout.workflow, ['specs/a.md']);
    expect(read?.resume?.copy().digest('hex')).toBe(read?.sha256);
    // Twice from the same state: a copy leaves it usable.
    const grown = read?.resume?.copy().update('tail\n').digest('hex');
    expect(read?.resume?.copy().update('tail\n').digest('hex')).toBe(grown);
    expect(grown).toBe(createHash('sha256').update('head\ntail\n').digest('hex'));
    const [trusted] = fileStates(s, layout.workflow, ['specs/a.md']);
    expect(trusted?.bytes).toBeNull();
    expect(trusted?.resume).toBeNull();
  });
});

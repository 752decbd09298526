import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { assertMayWrite, type WorkflowLayout } from '@maestro/fs';
import type BetterSqlite3 from 'better-sqlite3';
import { addStoreNotice } from './notices.js';

/** `.workflow/.index/maestro.db`: every derived table lives in this one file (delete it any time). */
export const STORE_FILE = 'maestro.db';

/**
 * The layout of the file as a whole. A file of another version is not migrated: it is derived
 * state, so it is emptied and rebuilt from the text files.
 */
export const STORE_SCHEMA = 'maestro-store/1';

/** How long a writer waits for another process's write transaction before giving up (ms). */
export const BUSY_TIMEOUT_MS = 10_000;

export type Database = BetterSqlite3.Database;
export type Statement = BetterSqlite3.Statement;

/**
 * One subsystem's tables. Each section carries its own revision: when a subsystem changes what it
 * stores (a new tokenizer, a new matcher), only its tables are dropped and recreated.
 */
export interface SectionSpec {
  /** Short name; the section's tables are named `<name>_...`. */
  name: string;
  /** Changes whenever the meaning or shape of the stored rows changes. */
  revision: string;
  /** `CREATE TABLE` / `CREATE INDEX` statements (without IF NOT EXISTS: run on an empty section). */
  ddl: readonly string[];
}

export interface DerivedStore {
  readonly db: Database;
  /** The database file, or null when the store lives in memory for this process only. */
  readonly path: string | null;
  /** False when nothing written here outlives the process (read-only checkout, unwritable `.index/`). */
  readonly persistent: boolean;
  /** What the user should hear about the store (rebuilt after damage, could not be saved, ...). */
  readonly warnings: string[];
  /** Makes sure a section's tables exist at its revision (dropping an older revision's rows). */
  section(spec: SectionSpec): void;
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE: waits for other writers, never deadlocks). */
  write<T>(fn: () => T): T;
  /** A cached prepared statement. */
  prepare(sql: string): Statement;
  close(): void;
}

export interface OpenStoreOptions {
  /** Open the file only to read; nothing is created or written (used by tests and tools). */
  readOnly?: boolean;
  /** Keep the store in memory even when `.index/` is writable (e.g. a refused external workflow). */
  memoryOnly?: boolean;
}

type DatabaseCtor = typeof BetterSqlite3;
let ctor: DatabaseCtor | null = null;

/** Loaded on first use so that commands that never touch derived state do not pay for the addon. */
function sqlite(): DatabaseCtor {
  if (!ctor) ctor = createRequire(import.meta.url)('better-sqlite3') as DatabaseCtor;
  return ctor;
}

const opened = new Map<string, DerivedStore>();

function noteDamage(warnings: string[], message: string): void {
  warnings.push(message);
  addStoreNotice(message);
}

/**
 * Opens (creating if needed) the derived-state store of a workflow. Failure never stops a command:
 * - a file that is not a database, fails `PRAGMA integrity_check`, or has another schema version
 *   is moved aside and rebuilt, with a warning;
 * - when `.index/` cannot be written (read-only checkout, full disk), the store lives in memory for
 *   this process, so the command still answers and the warning says why nothing was saved.
 * One store per database file per process; `closeStores` releases them (tests).
 */
export function openStore(layout: WorkflowLayout, options: OpenStoreOptions = {}): DerivedStore {
  const path = join(layout.index, STORE_FILE);
  const key = options.memoryOnly ? `memory:${path}` : path;
  const hit = opened.get(key);
  if (hit) return hit;
  const warnings: string[] = [];
  let memoryOnly = options.memoryOnly === true;
  if (!memoryOnly && !options.readOnly) {
    try {
      assertMayWrite(path);
    } catch (err) {
      memoryOnly = true; // a refused external .workflow: derived state stays in this process
      warnings.push(`${(err as Error).message}; derived state is kept in memory for this command`);
    }
  }
  const forget = () => {
    if (opened.get(key) === store) opened.delete(key);
  };
  const store = memoryOnly ? memoryStore(warnings) : openFile(layout.index, path, options.readOnly === true, forget);
  opened.set(key, store);
  return store;
}

/** Closes every store this process opened (the next `openStore` opens the file again). */
export function closeStores(): void {
  for (const s of opened.values()) s.close();
  opened.clear();
}

function openFile(dir: string, path: string, readOnly: boolean, forget: () => void): DerivedStore {
  const warnings: string[] = [];
  if (readOnly) {
    if (!existsSync(path)) return memoryStore(warnings);
    try {
      return wrap(new (sqlite())(path, { readonly: true, fileMustExist: true }), path, false, warnings);
    } catch (err) {
      warnings.push(
        `could not read the derived-state store ${path} (${(err as Error).message}); answering from the text files`,
      );
      return memoryStore(warnings);
    }
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    warnings.push(`cannot create ${dir} (${(err as Error).message}); derived state is kept in memory for this command`);
    return memoryStore(warnings);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    let db: Database | null = null;
    try {
      db = new (sqlite())(path, { timeout: BUSY_TIMEOUT_MS });
      initialise(db);
      return wrap(db, path, true, warnings, forget);
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      db?.close();
      if (isUnwritable(code, err)) {
        warnings.push(
          `cannot write the derived-state store ${path} (${(err as Error).message}); derived state is kept in memory for this command`,
        );
        return memoryStore(warnings);
      }
      if (attempt === 0 && isDamage(code)) {
        const aside = moveAside(path);
        noteDamage(
          warnings,
          `the derived-state store ${path} was damaged (${(err as Error).message}); moved it to ${aside} and rebuilt it from the text files`,
        );
        continue;
      }
      warnings.push(`could not open the derived-state store ${path} (${(err as Error).message}); using memory`);
      return memoryStore(warnings);
    }
  }
  return memoryStore(warnings);
}

function isDamage(code: string): boolean {
  return (
    code === 'SQLITE_CORRUPT' ||
    code === 'SQLITE_NOTADB' ||
    code.startsWith('SQLITE_CORRUPT') ||
    code === 'STORE_DAMAGED'
  );
}

function isUnwritable(code: string, err: unknown): boolean {
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'SQLITE_FULL' || code === 'SQLITE_IOERR') {
    return true;
  }
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR')) {
    return true;
  }
  return /EACCES|EROFS|ENOSPC|EPERM/.test(String((err as Error)?.message ?? ''));
}

/** Keeps a damaged file for inspection (`maestro.db.damaged-<ms>`), with its WAL and shm. */
function moveAside(path: string): string {
  const aside = `${path}.damaged-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      if (existsSync(path + suffix)) renameSync(path + suffix, aside + suffix);
    } catch {
      rmSync(path + suffix, { force: true });
    }
  }
  return aside;
}

class StoreDamage extends Error {
  readonly code = 'STORE_DAMAGED';
}

function initialise(db: Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -32000');
  let version: string | undefined;
  try {
    db.exec('CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    db.exec('CREATE TABLE IF NOT EXISTS store_sections (name TEXT PRIMARY KEY, revision TEXT NOT NULL) WITHOUT ROWID');
    version = (db.prepare("SELECT value FROM store_meta WHERE key = 'schema'").get() as { value: string } | undefined)
      ?.value;
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (isDamage(code)) throw err;
    throw err;
  }
  if (version === undefined) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
    if (tables.n > 2) checkIntegrity(db);
    db.prepare("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('schema', ?)").run(STORE_SCHEMA);
  } else if (version !== STORE_SCHEMA) {
    dropAll(db);
    db.exec('CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
    db.exec('CREATE TABLE store_sections (name TEXT PRIMARY KEY, revision TEXT NOT NULL) WITHOUT ROWID');
    db.prepare("INSERT INTO store_meta (key, value) VALUES ('schema', ?)").run(STORE_SCHEMA);
  }
}

function checkIntegrity(db: Database): void {
  const rows = db.pragma('quick_check') as { quick_check: string }[];
  if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') {
    throw new StoreDamage(`integrity check failed: ${rows.map((r) => r.quick_check).join('; ')}`);
  }
}

function dropAll(db: Database): void {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all() as {
    name: string;
  }[];
  db.transaction(() => {
    for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.name.replaceAll('"', '""')}"`);
  })();
}

function memoryStore(warnings: string[]): DerivedStore {
  const db = new (sqlite())(':memory:');
  initialise(db);
  return wrap(db, null, false, warnings);
}

/**
 * A statement whose failures are seen by the store: damage found only when a page is read (the
 * open-time checks pass, a query hits a broken page) is reported through `onError` before the
 * error goes on to the caller. Chained calls (`pluck()`, `raw()`, ...) return the guarded statement.
 */
function guarded(statement: Statement, onError: (err: unknown) => void): Statement {
  const methods = new Map<PropertyKey, unknown>();
  const proxy: Statement = new Proxy(statement, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      let method = methods.get(prop);
      if (!method) {
        method = (...args: unknown[]) => {
          try {
            const out: unknown = value.apply(target, args);
            if (out === target) return proxy;
            if (prop === 'iterate') return guardedIterator(out as IterableIterator<unknown>, onError);
            return out;
          } catch (err) {
            onError(err);
            throw err;
          }
        };
        methods.set(prop, method);
      }
      return method;
    },
  });
  return proxy;
}

function guardedIterator(it: IterableIterator<unknown>, onError: (err: unknown) => void): IterableIterator<unknown> {
  const step = (fn: () => IteratorResult<unknown>) => {
    try {
      return fn();
    } catch (err) {
      onError(err);
      throw err;
    }
  };
  const out: IterableIterator<unknown> = {
    next: (...args: [] | [unknown]) => step(() => it.next(...args)),
    return: (value?: unknown) => step(() => it.return?.(value) ?? { done: true, value }),
    [Symbol.iterator]: () => out,
  };
  return out;
}

function wrap(
  db: Database,
  path: string | null,
  persistent: boolean,
  warnings: string[],
  forget: () => void = () => {},
): DerivedStore {
  const statements = new Map<string, Statement>();
  const ready = new Set<string>();
  const readOnly = db.readonly;
  let damaged = false;
  /**
   * Damage found after the open (a broken page met by a query or a commit): the connection is
   * closed first (so that closing it later cannot delete the WAL of the file that replaces it),
   * the file is moved aside with a warning, and the next `openStore` starts a new one. The
   * caller still gets the error: derived state is recomputed from the text files.
   */
  const onError = (err: unknown) => {
    if (damaged || !persistent || path === null) return;
    if (!isDamage((err as { code?: string }).code ?? '')) return;
    damaged = true;
    statements.clear();
    try {
      if (db.open) db.close();
    } catch {}
    const aside = moveAside(path);
    noteDamage(
      warnings,
      `the derived-state store ${path} is damaged (${(err as Error).message}); moved it to ${aside}; the next command rebuilds it from the text files`,
    );
    forget();
  };
  const prepare = (sql: string): Statement => {
    let s = statements.get(sql);
    if (!s) {
      try {
        s = guarded(db.prepare(sql), onError);
      } catch (err) {
        onError(err);
        throw err;
      }
      statements.set(sql, s);
    }
    return s;
  };
  const store: DerivedStore = {
    db,
    path,
    persistent,
    warnings,
    prepare,
    section(spec) {
      const key = `${spec.name}@${spec.revision}`;
      if (ready.has(key)) return;
      const row = prepare('SELECT revision FROM store_sections WHERE name = ?').get(spec.name) as
        | { revision: string }
        | undefined;
      if (row?.revision === spec.revision) {
        ready.add(key);
        return;
      }
      if (readOnly) throw new StoreDamage(`section ${spec.name} is not at revision ${spec.revision}`);
      store.write(() => {
        // Another process may have created it while this one waited for the write lock.
        const again = prepare('SELECT revision FROM store_sections WHERE name = ?').get(spec.name) as
          | { revision: string }
          | undefined;
        if (again?.revision === spec.revision) return;
        const prefix = `${spec.name}_`;
        const old = db
          .prepare("SELECT name, type FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?")
          .all(prefix.length, prefix) as { name: string }[];
        for (const t of old) db.exec(`DROP TABLE IF EXISTS "${t.name.replaceAll('"', '""')}"`);
        for (const sql of spec.ddl) db.exec(sql);
        prepare('INSERT OR REPLACE INTO store_sections (name, revision) VALUES (?, ?)').run(spec.name, spec.revision);
      });
      statements.clear();
      ready.add(key);
    },
    write<T>(fn: () => T): T {
      if (db.inTransaction) return fn();
      try {
        return db.transaction(fn).immediate();
      } catch (err) {
        onError(err);
        throw err;
      }
    },
    close() {
      statements.clear();
      if (db.open) db.close();
    },
  };
  return store;
}

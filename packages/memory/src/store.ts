import { chmodSync, mkdirSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { inputError, parseJsonText } from '@maestro/core';
import { crashPoint, type LockOptions, readTextIfExists, withLock, writeFileAtomic } from '@maestro/fs';
import type { MemoryLocation } from './location.js';
import { DEFAULT_RULES } from './rules.js';
import { type MemoryFile, MemoryFileSchema, type MemoryRules, MemoryRulesSchema } from './schemas.js';

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;

function invalid(file: string, what: string, problems: string[]) {
  return inputError('MEMORY_INVALID', `${file} is not a valid ${what}: ${problems.slice(0, 3).join('; ')}`, {
    hint: 'fix the file by hand or move it away (nothing was rewritten); `maestro memory list` shows the store path',
    location: { file },
  });
}

function parseWith<T>(
  file: string,
  text: string,
  what: string,
  schema: {
    safeParse(
      v: unknown,
    ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
  },
): T {
  const raw = parseJsonText(text, file);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw invalid(
      file,
      what,
      parsed.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`),
    );
  }
  return parsed.data;
}

/** Parsed stores by path, keyed by the file's identity: every write renames a new inode into place. */
const parsedCache = new Map<string, { key: string; file: MemoryFile }>();

/**
 * `readStore` for read-only callers that run often in one process (recall): re-parses only when
 * the file's inode, size, mtime or ctime changed. Callers must not mutate the result.
 */
export function readStoreCached(loc: MemoryLocation): MemoryFile | null {
  let key: string;
  try {
    const st = statSync(loc.records);
    key = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  } catch {
    parsedCache.delete(loc.records);
    return readStore(loc);
  }
  const hit = parsedCache.get(loc.records);
  if (hit?.key === key) return hit.file;
  const file = readStore(loc);
  if (file) parsedCache.set(loc.records, { key, file });
  return file;
}

/** The store, or null when this agent has none yet. Reading never creates a file or directory. */
export function readStore(loc: MemoryLocation): MemoryFile | null {
  const text = readTextIfExists(loc.records);
  if (text === null) return null;
  const file = parseWith(loc.records, text, 'memory store', MemoryFileSchema);
  if (file.agent !== loc.agent || file.project_key !== loc.projectKey) {
    throw invalid(loc.records, 'memory store for this project and agent', [
      `it belongs to agent "${file.agent}" of project ${file.project_key}`,
    ]);
  }
  return file;
}

export function emptyStore(loc: MemoryLocation, at: string): MemoryFile {
  return {
    schema_version: 'maestro-memory/1.0',
    project_key: loc.projectKey,
    agent: loc.agent,
    revision: 0,
    updated_at: at,
    records: [],
  };
}

/** The agent's rules; the defaults (remember every kind, built-in secret rules only) when there is no file. */
export function readRules(loc: MemoryLocation): MemoryRules {
  const text = readTextIfExists(loc.rules);
  return text === null ? DEFAULT_RULES : parseWith(loc.rules, text, 'memory rules file', MemoryRulesSchema);
}

/**
 * Creates the store directory private to the user: every directory this creates from the
 * memory base down is 0700, and the project and agent directories are set to 0700 even if
 * they existed with a wider mode.
 */
export function ensurePrivateDir(loc: MemoryLocation): void {
  mkdirSync(loc.dir, { recursive: true, mode: DIR_MODE });
  for (const d of [loc.dir, dirname(loc.dir)]) {
    if ((statSync(d).mode & 0o777) !== DIR_MODE) chmodSync(d, DIR_MODE);
  }
}

/**
 * Removes temp files an interrupted atomic write left beside our files (`memories.json.<hash>`):
 * they may hold text the user has since deleted.
 */
function removeLeftovers(path: string): void {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  for (const name of readdirSync(dir)) {
    // Only temp files of the file whose lock the caller holds: nobody else can be writing them.
    if (name.startsWith(prefix) && /^[0-9a-f]{6,}$/.test(name.slice(prefix.length))) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // removed by another writer
      }
    }
  }
}

async function writePrivate(path: string, value: unknown): Promise<void> {
  // Compact JSON: the store is private state read on every prompt, not a file people review in diffs.
  await writeFileAtomic(path, `${JSON.stringify(value)}\n`, { mode: FILE_MODE, dirMode: DIR_MODE });
  if ((statSync(path).mode & 0o777) !== FILE_MODE) chmodSync(path, FILE_MODE);
  removeLeftovers(path);
}

/**
 * Locked read-modify-write of the store: takes `memories.json.lock`, re-reads, lets `fn` change
 * a copy (or throw to refuse, writing nothing), bumps the revision and writes atomically, so a
 * crash at any point leaves the old file or the new one.
 */
export async function updateStore<T>(
  loc: MemoryLocation,
  at: string,
  fn: (store: MemoryFile) => T,
  options: { crashPointName?: string; write?: (result: T) => boolean; lock?: LockOptions } = {},
): Promise<T> {
  ensurePrivateDir(loc);
  return withLock(
    loc.records,
    async () => {
      const store = readStore(loc) ?? emptyStore(loc, at);
      const result = fn(store);
      if (options.write && !options.write(result)) return result;
      store.revision += 1;
      store.updated_at = at;
      if (options.crashPointName) crashPoint(options.crashPointName);
      await writePrivate(loc.records, MemoryFileSchema.parse(store));
      return result;
    },
    options.lock,
  );
}

/** Writes the rules file under its lock. */
export async function writeRules(loc: MemoryLocation, rules: MemoryRules): Promise<void> {
  ensurePrivateDir(loc);
  await withLock(loc.rules, () => writePrivate(loc.rules, MemoryRulesSchema.parse(rules)));
}

/** Rules read-modify-write under the rules lock. */
export async function updateRules(loc: MemoryLocation, fn: (rules: MemoryRules) => MemoryRules): Promise<MemoryRules> {
  ensurePrivateDir(loc);
  return withLock(loc.rules, async () => {
    const next = fn(readRules(loc));
    await writePrivate(loc.rules, MemoryRulesSchema.parse(next));
    return next;
  });
}

import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, isMaestroError } from '@maestro/core';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { memoryBase, memoryLocation, projectKey, resolveAgent } from './location.js';
import { consolidateMemories, listMemories } from './ops.js';
import { addMemory, deleteMemories, type MemoryTarget, showMemory, updateMemory } from './records.js';

function target(agent?: string): MemoryTarget & { base: string } {
  const base = tmpDir('maestro-mem-');
  const root = tmpDir('maestro-proj-');
  return {
    root,
    agent,
    base,
    env: { MAESTRO_MEMORY_DIR: base },
    runtime: fixedRuntime('2026-01-01T00:00:00Z', { stepMs: 1000 }),
  };
}

/** Every byte of every file under `dir`. */
function allBytes(dir: string): string {
  let out = '';
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const p = join(dir, name);
    if (statSync(p).isFile()) out += readFileSync(p, 'latin1');
  }
  return out;
}

async function code(p: Promise<unknown> | (() => unknown)) {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    if (isMaestroError(err)) return { code: err.code, exit: err.exitCode, message: err.message };
    throw err;
  }
  throw new Error('expected an error');
}

describe('where memory lives', () => {
  test('MAESTRO_MEMORY_DIR, else XDG_DATA_HOME, else ~/.local/share; a relative override is refused', async () => {
    expect(memoryBase({ MAESTRO_MEMORY_DIR: '/m' })).toBe('/m');
    expect(memoryBase({ XDG_DATA_HOME: '/x' })).toBe('/x/maestro/memory');
    expect(memoryBase({ HOME: '/h' })).toBe('/h/.local/share/maestro/memory');
    expect(memoryBase({ HOME: '/h', XDG_DATA_HOME: 'rel' })).toBe('/h/.local/share/maestro/memory');
    expect(await code(() => memoryBase({ MAESTRO_MEMORY_DIR: 'rel/dir' }))).toMatchObject({
      code: 'INVALID_MEMORY_DIR',
      exit: 2,
    });
  });

  test('the project key is the same through a symlink and differs between projects', () => {
    const a = tmpDir();
    const link = join(tmpDir(), 'link');
    symlinkSync(a, link);
    expect(projectKey(link)).toBe(projectKey(a));
    expect(projectKey(a)).toMatch(/^[a-z0-9-]+-[a-f0-9]{16}$/);
    expect(projectKey(tmpDir())).not.toBe(projectKey(a));
  });

  test('agent names are one safe path segment', async () => {
    expect(resolveAgent(undefined, {})).toBe('default');
    expect(resolveAgent(undefined, { MAESTRO_AGENT: 'codex' })).toBe('codex');
    expect(resolveAgent('claude-code', { MAESTRO_AGENT: 'codex' })).toBe('claude-code');
    for (const bad of ['../x', 'a/b', '..', '', '-x']) {
      expect(await code(() => resolveAgent(bad, {}))).toMatchObject({ code: 'INVALID_AGENT', exit: 2 });
    }
  });
});

describe('the store on disk', () => {
  test('directories are 0700 and files 0600, even under a permissive umask', async () => {
    const t = target();
    const old = process.umask(0);
    try {
      await addMemory(t, { text: 'The user chose plan B', kind: 'decision' });
    } finally {
      process.umask(old);
    }
    const loc = memoryLocation(t.root, 'default', t.env);
    expect(statSync(loc.dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(loc.dir, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(loc.records).mode & 0o777).toBe(0o600);
  });

  test('an existing wider directory is narrowed to 0700', async () => {
    const t = target();
    const loc = memoryLocation(t.root, 'default', t.env);
    mkdirSync(loc.dir, { recursive: true, mode: 0o755 });
    await addMemory(t, { text: 'fact' });
    expect(statSync(loc.dir).mode & 0o777).toBe(0o700);
  });

  test('reading creates nothing', () => {
    const t = target();
    expect(listMemories(t).records).toEqual([]);
    expect(readdirSync(t.base)).toEqual([]);
  });

  test('a damaged store is refused (exit 2) naming the file, and left byte for byte', async () => {
    const t = target();
    await addMemory(t, { text: 'fact' });
    const loc = memoryLocation(t.root, 'default', t.env);
    writeFileSync(loc.records, '{"schema_version": "maestro-memory/1.0", "records": [');
    const before = readFileSync(loc.records, 'utf8');
    const err = await code(addMemory(t, { text: 'another' }));
    expect(err).toMatchObject({ exit: 2 });
    expect(err.message).toContain(loc.records);
    expect(readFileSync(loc.records, 'utf8')).toBe(before);
  });

  test('two agents of one project never see each other', async () => {
    const t = target();
    await addMemory({ ...t, agent: 'a' }, { text: 'alpha fact' });
    await addMemory({ ...t, agent: 'b' }, { text: 'beta fact' });
    expect(listMemories({ ...t, agent: 'a' }).records.map((r) => r.text)).toEqual(['alpha fact']);
    expect(listMemories({ ...t, agent: 'b' }).records.map((r) => r.text)).toEqual(['beta fact']);
  });
});

describe('update and delete', () => {
  test('update keeps the previous text in history; refusals write nothing', async () => {
    const t = target();
    const { record } = await addMemory(t, { text: 'plan B', kind: 'decision' });
    const r = await updateMemory(t, record.id, { text: 'plan C' });
    expect(r.changed).toEqual(['text']);
    expect(r.record.history.at(-1)).toMatchObject({ action: 'updated', text: 'plan B' });
    expect(await code(updateMemory(t, record.id, { text: 'token = abcdefgh' }))).toMatchObject({
      code: 'MEMORY_REFUSED_BY_RULE',
      exit: 1,
    });
    expect(showMemory(t, record.id).record.text).toBe('plan C');
    expect(await code(() => showMemory(t, 'M-zzzzzzzzzz'))).toMatchObject({ code: 'MEMORY_NOT_FOUND', exit: 2 });
  });

  test('delete leaves no byte of the text anywhere in the store, history and merged copies included', async () => {
    const t = target();
    const secret = 'Remember the user mentioned a private medical appointment';
    const a = await addMemory(t, { text: secret });
    const b = await addMemory(t, { text: `${secret}.` });
    await updateMemory(t, a.record.id, { text: `${secret} on Friday` });
    await addMemory(t, { text: 'unrelated keeper' });
    await consolidateMemories(t); // merges b into a: a's history holds both texts
    expect(allBytes(t.base)).toContain('private medical');
    await deleteMemories(t, [a.record.id]);
    expect(allBytes(t.base)).not.toContain('private medical');
    expect(allBytes(t.base)).not.toContain(a.record.id);
    expect(allBytes(t.base)).not.toContain(b.record.id);
    expect(listMemories(t).records.map((r) => r.text)).toEqual(['unrelated keeper']);
  });

  test('deleting the id of a record merged into another removes its text from that history', async () => {
    const t = target();
    const a = await addMemory(t, { text: 'The user prefers dark mode in the editor', kind: 'preference' });
    const b = await addMemory(t, { text: 'the user prefers dark mode in the editor!', kind: 'preference' });
    await updateMemory(t, a.record.id, { confidence: 0.9 });
    await consolidateMemories(t);
    expect(existsSync(memoryLocation(t.root, 'default', t.env).records)).toBe(true);
    await deleteMemories(t, [b.record.id]);
    const kept = showMemory(t, a.record.id).record;
    expect(kept.history.some((h) => h.from_id === b.record.id)).toBe(false);
    expect(allBytes(t.base)).not.toContain('editor!');
  });
});

import { join } from 'node:path';
import { runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// `maestro context` answers without the memory package when the agent has no store; the block, the
// JSON and the warnings must be what the memory package gives in every case.

function project() {
  const root = tmpProject();
  const home = tmpDir('maestro-home-');
  const env: Record<string, string> = {
    HOME: home,
    XDG_DATA_HOME: join(home, '.data'),
    MAESTRO_NOW: '2026-05-06T09:10:00Z',
  };
  const run = (args: string[], more: Record<string, string> = {}) =>
    runMaestro(args, { cwd: root, env: { ...env, ...more } });
  expect(run(['init']).code).toBe(0);
  expect(run(['spec', 'add', 'coding', 'Use UTC timestamps', 'Store every timestamp in UTC.']).code).toBe(0);
  return run;
}

interface ContextJson {
  context: string;
  recalled_memories: { agent: string; ids: string[] };
}
const out = (r: { json(): unknown }) => r.json() as ContextJson;

describe('context and the agent memory store', () => {
  it('no store: no memory block, the resolved agent named, no warning', () => {
    const run = project();
    const plain = run(['context', 'how do we store timestamps', '--json']);
    expect(plain.code, plain.stderr).toBe(0);
    const data = out(plain);
    expect(data.recalled_memories).toEqual({ agent: 'default', ids: [] });
    expect(data.context).not.toContain('<recalled-memories');
    expect(plain.stderr).not.toContain('memor');
    const byEnv = run(['context', 'how do we store timestamps', '--json'], { MAESTRO_AGENT: 'codex' });
    expect(out(byEnv).recalled_memories).toEqual({ agent: 'codex', ids: [] });
    const byFlag = run(['context', 'how do we store timestamps', '--agent', 'claude-code', '--json']);
    expect(out(byFlag).recalled_memories).toEqual({ agent: 'claude-code', ids: [] });
  });

  it('a store: its memories are recalled into the block', () => {
    const run = project();
    expect(run(['memory', 'add', 'timestamps in the billing export are stored in UTC, checked twice']).code).toBe(0);
    const r = run(['context', 'timestamps in the billing export', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(out(r).recalled_memories.ids).toHaveLength(1);
    expect(out(r).context).toContain('<recalled-memories agent="default"');
  });

  it('a bad agent name or memory directory is a warning, never a failure of the context', () => {
    const run = project();
    const bad = run(['context', 'how do we store timestamps', '--agent', '../evil', '--json']);
    expect(bad.code, bad.stderr).toBe(0);
    expect(bad.stderr).toContain('memories not recalled');
    expect(bad.stderr).toContain('not allowed');
    const dir = run(['context', 'how do we store timestamps', '--json'], { MAESTRO_MEMORY_DIR: 'relative/dir' });
    expect(dir.code, dir.stderr).toBe(0);
    expect(dir.stderr).toContain('MAESTRO_MEMORY_DIR must be an absolute path');
  });
});

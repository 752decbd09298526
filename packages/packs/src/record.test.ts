import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { ContextResolution, resolveContext, validatePack, writeContextRecord } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack, wsOptions } from './fixtures.test-util.js';

const runtime = fixedRuntime('2026-05-06T09:10:00Z');

describe('context-resolution records', () => {
  it('writes a record that validates against the standard schema, with wrapper order (scenarios 52, 60)', async () => {
    const root = tmpDir();
    writePack(
      root,
      'acme-facts',
      baseFront('acme-facts', {
        description: 'Acme Widget offline facts.',
        metadata: { producedBy: { kind: 'agent-skill', name: 'builder', version: '1.0.0' } },
      }),
      { 'compiled/facts.md': '# Facts\n\nAcme Widget works offline.\n' },
    );
    writePack(
      root,
      'founder-persona',
      baseFront('founder-persona', {
        type: 'personal-profile',
        description: 'Founder voice for Acme Widget intros.',
        runtime: { mode: 'persona' },
      }),
      { 'compiled/voice.md': '# Voice\n\nWarm and short.\n' },
    );
    const resolution = resolveContext({
      ...wsOptions(root),
      query: 'Introduce Acme Widget offline support in the founder voice',
    });
    const path = await writeContextRecord(resolution, { workspaceRoot: root, runtime, version: '0.0.0' });
    expect(path).toBe(join(root, 'runs/context-20260506T091000Z.json'));
    const record = JSON.parse(readFileSync(path as string, 'utf8'));
    expect(ContextResolution.safeParse(record).success).toBe(true);
    expect(record).toMatchObject({
      run_id: 'context-20260506T091000Z',
      status: 'passed',
      wrapper_order: ['founder-persona', 'acme-facts'],
      resolver: { tool: 'maestro', version: '0.0.0', strategy: 'profile-aware-budgeted' },
    });
    expect(
      record.activated_packs.map((p: { name: string; wrapper_order: number }) => [p.name, p.wrapper_order]),
    ).toEqual([
      ['founder-persona', 1],
      ['acme-facts', 2],
    ]);
    expect(record.activated_packs[1].builder_skill).toEqual({ name: 'builder', version: '1.0.0' });
    const again = await writeContextRecord(resolution, { workspaceRoot: root, runtime, version: '0.0.0' });
    expect(again).toBe(join(root, 'runs/context-20260506T091000Z-2.json'));
  });

  it("writes into the pack's own runs/ when one workspace pack was activated, and the pack stays valid", async () => {
    const root = tmpDir();
    const pack = writePack(
      root,
      'stale-facts',
      baseFront('stale-facts', { status: 'stale', description: 'Old holiday facts.' }),
      { 'compiled/facts.md': '# Facts\n\nHolidays: 20 days.\n' },
    );
    const resolution = resolveContext({ ...wsOptions(root), query: 'holiday facts' });
    const path = await writeContextRecord(resolution, { workspaceRoot: root, runtime, version: '0.0.0' });
    expect(path).toBe(join(pack, 'runs/context-20260506T091000Z.json'));
    expect(JSON.parse(readFileSync(path as string, 'utf8')).status).toBe('stale');
    expect(validatePack(pack).ok).toBe(true);
  });

  it('writes no record when no pack was activated (the schema needs one)', async () => {
    const root = tmpDir();
    writePack(root, 'x', baseFront('x'), { 'compiled/facts.md': '# f\n' });
    const resolution = resolveContext({ ...wsOptions(root), query: 'completely unrelated question about soup' });
    expect(await writeContextRecord(resolution, { workspaceRoot: root, runtime, version: '0.0.0' })).toBeNull();
    expect(existsSync(join(root, 'runs'))).toBe(false);
  });

  it('marks a resolution where a pack contributed nothing as failed', async () => {
    const root = tmpDir();
    writePack(root, 'acme', baseFront('acme', { description: 'Acme facts.' }), {
      'compiled/facts.md': `# Facts\n\n${'acme '.repeat(2000)}\n`,
    });
    const resolution = resolveContext({ ...wsOptions(root), query: 'acme facts', budget: 50 });
    const path = await writeContextRecord(resolution, { workspaceRoot: root, runtime, version: '0.0.0' });
    expect(JSON.parse(readFileSync(path as string, 'utf8'))).toMatchObject({ status: 'failed', token_estimate: 0 });
  });
});

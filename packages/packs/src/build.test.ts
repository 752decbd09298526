import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import {
  type PackBuildEntry,
  planPackBuild,
  resolveContext,
  SourceMap,
  validatePack,
  writePackBuild,
} from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { write } from './fixtures.test-util.js';

const entry = (over: Partial<PackBuildEntry>): PackBuildEntry => ({
  id: 'S-20260101-aaaa',
  store: 'spec',
  title: 'Use UTC timestamps',
  content: 'Store and compare times in UTC.\n\n## Why\n\nServers span time zones.',
  category: 'coding',
  keywords: ['time', 'utc'],
  date: '2026-01-01',
  status: 'active',
  file: 'specs/coding-conventions.md',
  line: 3,
  type: null,
  ...over,
});

const entries: PackBuildEntry[] = [
  entry({}),
  entry({
    id: 'S-20260102-bbbb',
    title: 'Events are append-only',
    content: 'Never update an event row; write a correction event.',
    category: 'arch',
    file: 'specs/architecture-constraints.md',
    line: 5,
  }),
  entry({
    id: 'S-20260103-cccc',
    title: 'Old rule',
    content: 'Deprecated content DEPRECATED-MARK.',
    status: 'deprecated',
  }),
  entry({
    id: 'knowhow-flaky-tests',
    store: 'knowhow',
    title: 'Flaky test triage',
    content: '# Triage\n\nRerun once, then quarantine.',
    category: null,
    file: 'knowhow/KNW-20260104-flaky.md',
    line: null,
    type: 'tip',
  }),
];

const options = { name: 'demo-knowledge', project: 'demo', maestroVersion: '0.0.0', date: '2026-05-06' };
const runtime = fixedRuntime('2026-05-06T09:10:00Z');

describe('pack build', () => {
  it('plans a document-first pack with splits per category and a source map back to sids', () => {
    const plan = planPackBuild(entries, options);
    expect([...plan.files.keys()]).toEqual([
      'KNOWLEDGE.md',
      'documents/demo-knowledge.md',
      'compiled/splits/demo-knowledge/coding.md',
      'compiled/splits/demo-knowledge/arch.md',
      'compiled/splits/demo-knowledge/knowhow.md',
      'compiled/index.json',
      'indexes/source-map.json',
    ]);
    const map = SourceMap.parse(JSON.parse(plan.files.get('indexes/source-map.json') as string));
    expect(map.claims.map((c) => c.claim_id)).toEqual(['S-20260101-aaaa', 'S-20260102-bbbb', 'knowhow-flaky-tests']);
    expect(map.claims[0]).toMatchObject({
      source: { path: 'documents/demo-knowledge.md', anchor: '#use-utc-timestamps-s-20260101-aaaa' },
      compiled_into: ['compiled/splits/demo-knowledge/coding.md'],
    });
    const doc = plan.files.get('documents/demo-knowledge.md') as string;
    expect(doc).toContain('### Use UTC timestamps (S-20260101-aaaa)');
    expect(doc).toContain('\n##### Why\n');
    expect(doc).toContain('Source: `.workflow/specs/coding-conventions.md:3`');
    expect(doc).not.toContain('DEPRECATED-MARK');
  });

  it('writes a pack that pack validate accepts, with a compile run, and resolves by section', async () => {
    const out = join(tmpDir(), 'demo-knowledge');
    const result = await writePackBuild(planPackBuild(entries, options), out, { runtime, maestroVersion: '0.0.0' });
    expect(result).toMatchObject({
      valid: true,
      entries: 3,
      specs: 2,
      knowhow: 1,
      run: 'runs/compile-20260506T091000Z.json',
    });
    const v = validatePack(out);
    expect(v.findings).toEqual([]);
    const run = JSON.parse(readFileSync(join(out, result.run), 'utf8'));
    expect(run).toMatchObject({
      trigger: 'manual',
      status: 'passed',
      profile: 'document-first',
      primary_document: 'documents/demo-knowledge.md',
    });
    expect(run.inputs.map((i: { path: string }) => i.path)).toEqual([
      '.workflow/knowhow/KNW-20260104-flaky.md',
      '.workflow/specs/architecture-constraints.md',
      '.workflow/specs/coding-conventions.md',
    ]);
    const ctx = resolveContext({
      cwd: out,
      workspaceRoot: join(out, '..'),
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
      query: 'Can I update an event row?',
      budget: 800,
      packs: ['demo-knowledge'],
    }).output;
    expect(ctx.packs[0].selected_files).toEqual(['compiled/splits/demo-knowledge/arch.md']);
    expect(ctx.context).toContain('write a correction event');
  });

  it('rebuilds in place: unchanged files stay, stale splits go, runs accumulate', async () => {
    const out = join(tmpDir(), 'demo-knowledge');
    await writePackBuild(planPackBuild(entries, options), out, { runtime, maestroVersion: '0.0.0' });
    const second = await writePackBuild(planPackBuild(entries.slice(0, 1), options), out, {
      runtime,
      maestroVersion: '0.0.0',
    });
    const ops = Object.fromEntries(second.files.map((f) => [f.path, f.operation]));
    expect(ops['compiled/splits/demo-knowledge/coding.md']).toBe('unchanged');
    expect(ops['compiled/splits/demo-knowledge/arch.md']).toBe('deleted');
    expect(ops['KNOWLEDGE.md']).toBe('updated');
    expect(existsSync(join(out, 'compiled/splits/demo-knowledge/arch.md'))).toBe(false);
    expect(second.run).toBe('runs/compile-20260506T091000Z-2.json');
    expect(second.valid).toBe(true);
  });

  it('refuses to overwrite a foreign pack or a non-empty folder', async () => {
    const base = tmpDir();
    write(
      join(base, 'foreign/KNOWLEDGE.md'),
      '---\nname: foreign\ndescription: x\ntype: domain-reference\nstatus: ready\n---\n',
    );
    writeFileSync(join(base, 'notes.txt'), 'mine');
    const plan = planPackBuild(entries, options);
    await expect(writePackBuild(plan, join(base, 'foreign'), { runtime, maestroVersion: '0' })).rejects.toMatchObject({
      code: 'PACK_BUILD_FOREIGN_PACK',
      exitCode: 2,
    });
    await expect(writePackBuild(plan, base, { runtime, maestroVersion: '0' })).rejects.toMatchObject({
      code: 'PACK_BUILD_OUT_NOT_EMPTY',
      exitCode: 2,
    });
    expect(readFileSync(join(base, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('builds a valid pack from an empty corpus', async () => {
    const out = join(tmpDir(), 'empty-knowledge');
    const r = await writePackBuild(planPackBuild([], { ...options, name: 'empty-knowledge' }), out, {
      runtime,
      maestroVersion: '0',
    });
    expect(r).toMatchObject({ valid: true, entries: 0 });
  });
});

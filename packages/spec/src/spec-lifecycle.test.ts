import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, type MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import {
  backfillSids,
  clearConflict,
  deprecateEntry,
  loadCorpus,
  markConflict,
  specHealth,
  specHistory,
  supersedeEntry,
} from './index.js';

const rt = () => fixedRuntime('2026-05-01T10:00:00Z', { seed: 5 });
const tag = (sid: string, extra = '', title = sid) =>
  `<spec-entry category="coding" keywords="k" date="2026-04-01" sid="${sid}"${extra}>\n\n### ${title}\n\nbody ${sid}\n\n</spec-entry>\n\n`;

function project(files: Record<string, string>) {
  const root = tmpProject(Object.fromEntries(Object.entries(files).map(([k, v]) => [`.workflow/specs/${k}`, v])));
  return {
    root,
    layout: workflowLayout(root),
    read: (f: string) => readFileSync(join(root, '.workflow/specs', f), 'utf8'),
  };
}

async function failure(p: Promise<unknown>): Promise<MaestroError> {
  try {
    await p;
  } catch (err) {
    return err as MaestroError;
  }
  throw new Error('expected a failure');
}

describe('supersedeEntry', () => {
  it('writes both sides across files and a rerun changes nothing', async () => {
    const { root, layout, read } = project({
      'coding-conventions.md': tag('S-1'),
      'learnings.md': `---\ncategory: learning\n---\n${tag('S-2')}`,
    });
    const r = await supersedeEntry(layout, 'S-1', 'S-2', rt());
    expect(r).toMatchObject({ changed: true, files: ['specs/coding-conventions.md', 'specs/learnings.md'] });
    expect(read('coding-conventions.md')).toContain('sid="S-1" superseded-by="S-2" status="deprecated">');
    expect(read('learnings.md')).toContain('sid="S-2" supersedes="S-1">');
    const before = readTree(root);
    expect((await supersedeEntry(layout, 'S-1', 'S-2', rt())).changed).toBe(false);
    expect(readTree(root)).toEqual(before);
    expect(before['.workflow/.spec-commit.intent.json']).toBeUndefined();
  });

  it('merges supersedes lists (scenario 61)', async () => {
    const { layout, read } = project({
      'coding-conventions.md': tag('S-a') + tag('S-b') + tag('S-new', ' supersedes="S-a"'),
    });
    await supersedeEntry(layout, 'S-b', 'S-new', rt());
    expect(read('coding-conventions.md')).toContain('sid="S-new" supersedes="S-a,S-b">');
  });

  it('refuses self-supersession, re-pointing and cycles (scenario 60)', async () => {
    const { root, layout } = project({
      'coding-conventions.md':
        tag('S-old', ' superseded-by="S-x" status="deprecated"') +
        tag('S-x', ' supersedes="S-old"') +
        tag('S-y') +
        tag('S-p', ' supersedes="S-q"') +
        tag('S-q'),
    });
    const before = readTree(root);
    expect((await failure(supersedeEntry(layout, 'S-y', 'S-y', rt()))).code).toBe('SELF_SUPERSESSION');
    const again = await failure(supersedeEntry(layout, 'S-old', 'S-y', rt()));
    expect([again.code, again.exitCode, again.message]).toEqual([
      'ALREADY_SUPERSEDED',
      1,
      'S-old is already superseded by S-x',
    ]);
    expect((await failure(supersedeEntry(layout, 'S-p', 'S-q', rt()))).code).toBe('SUPERSEDE_CYCLE');
    expect((await failure(supersedeEntry(layout, 'S-y', 'S-old', rt()))).code).toBe('REPLACEMENT_DEPRECATED');
    expect((await failure(supersedeEntry(layout, 'S-nope', 'S-y', rt()))).exitCode).toBe(2);
    expect(readTree(root)).toEqual(before);
  });
});

describe('deprecate and conflicts', () => {
  it('deprecates by id, idempotently', async () => {
    const { layout, read } = project({ 'coding-conventions.md': tag('S-1') });
    expect((await deprecateEntry(layout, 'S-1', 'obsolete', rt())).changed).toBe(true);
    expect(read('coding-conventions.md')).toContain('sid="S-1" status="deprecated" deprecated-reason="obsolete">');
    expect((await deprecateEntry(layout, 'S-1', 'obsolete', rt())).changed).toBe(false);
  });

  it('marks and clears a conflict by id in a file with frontmatter (scenario 64)', async () => {
    const text = `---\ntitle: x\ncategory: coding\n---\n\n${tag('S-0')}${tag('S-1')}`;
    const { layout, read } = project({ 'coding-conventions.md': text });
    const m = await markConflict(layout, 'S-1', 'disputes "S-0"', rt());
    expect(m.marker).toMatch(/^CMK-20260501-[a-z0-9]{4}$/);
    expect(read('coding-conventions.md')).toContain(
      `sid="S-1" confidence="contested" conflict-marker="${m.marker}" conflict-note="disputes &quot;S-0&quot;" conflict-date="2026-05-01">`,
    );
    expect(loadCorpus(layout).byId.get('S-1')!.conflict).toEqual({
      marker: m.marker,
      note: 'disputes "S-0"',
      date: '2026-05-01',
    });
    await clearConflict(layout, 'S-1', rt());
    expect(read('coding-conventions.md')).toBe(text);
  });
});

describe('backfillSids', () => {
  it('assigns sids once, then reports nothing to do (scenario 63)', async () => {
    const noSid = '<spec-entry category="ui" keywords="k" date="2026-04-01">\nheadless body\n</spec-entry>\n';
    const { layout } = project({
      'ui-conventions.md': noSid + noSid.replace('headless', 'other'),
      'learnings.md': tag('S-1'),
    });
    const first = await backfillSids(layout, rt());
    expect(first.count).toBe(2);
    const c = loadCorpus(layout);
    expect(c.entries.filter((e) => e.hasSid)).toHaveLength(3);
    expect((await backfillSids(layout, rt())).count).toBe(0);
  });
});

describe('history and health', () => {
  it('flags a deleted successor as broken and not current (scenario 59)', () => {
    const { layout } = project({ 'coding-conventions.md': tag('S-x', ' superseded-by="S-gone" status="deprecated"') });
    const c = loadCorpus(layout);
    const h = specHistory(c, 'S-x');
    expect(h.chain).toMatchObject([{ id: 'S-x', status: 'deprecated', current: false }]);
    expect(h.broken).toEqual([{ from: 'S-x', to: 'S-gone', attribute: 'superseded-by' }]);
    expect(specHealth(c, new Date('2026-05-01')).danglingSupersededBy).toMatchObject([
      { id: 'S-x', missing: 'S-gone' },
    ]);
  });

  it('terminates on cycles and lists cyclic sids (scenario 62)', () => {
    const { layout } = project({
      'coding-conventions.md':
        tag('S-A', ' supersedes="S-B" superseded-by="S-B"') +
        tag('S-B', ' supersedes="S-A" superseded-by="S-A"') +
        tag('S-C'),
    });
    const c = loadCorpus(layout);
    const h = specHistory(c, 'S-A');
    expect(h.cyclic).toBe(true);
    expect(h.chain.map((i) => i.id).sort()).toEqual(['S-A', 'S-B']);
    const health = specHealth(c, new Date('2026-05-01'));
    expect(health).toMatchObject({ total: 3, cyclicSids: ['S-A', 'S-B'], chains: 1, withSid: 3 });
  });

  it('walks a chain oldest → newest and marks the current one', () => {
    const { layout } = project({
      'coding-conventions.md':
        tag('S-1', ' superseded-by="S-2" status="deprecated"') +
        tag('S-2', ' supersedes="S-1" superseded-by="S-3" status="deprecated"') +
        tag('S-3', ' supersedes="S-2"'),
    });
    const h = specHistory(loadCorpus(layout), 'S-2');
    expect(h.chain.map((i) => [i.id, i.current])).toEqual([
      ['S-1', false],
      ['S-2', false],
      ['S-3', true],
    ]);
  });
});

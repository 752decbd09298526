import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { addSpecEntry, initWorkflow, loadCorpus } from './index.js';

const rt = () => fixedRuntime('2026-05-01T10:00:00Z', { seed: 11, stepMs: 1000 });

async function project() {
  const root = tmpProject();
  await initWorkflow(workflowLayout(root));
  return { root, layout: workflowLayout(root) };
}

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(MaestroError);
    return `${(err as MaestroError).code}/${(err as MaestroError).exitCode}`;
  }
  return 'ok';
}

describe('addSpecEntry', () => {
  it('appends an entry with a new sid to the category file', async () => {
    const { layout } = await project();
    const r = await addSpecEntry(
      layout,
      { category: 'coding', title: 'Use UTC', content: 'Store times in UTC.', keywords: ['time'] },
      rt(),
    );
    expect(r).toMatchObject({ ok: true, duplicate: false, file: 'specs/coding-conventions.md', redirected: false });
    expect(r.sid).toMatch(/^S-20260501-[a-z0-9]{4}$/);
    const e = loadCorpus(layout).byId.get(r.sid!)!;
    expect(e).toMatchObject({
      title: 'Use UTC',
      content: 'Store times in UTC.',
      category: 'coding',
      date: '2026-05-01',
      keywords: ['time'],
    });
  });

  it('treats a same-title entry (case-insensitive, deprecated too) as a duplicate and writes nothing', async () => {
    const root = tmpProject({
      '.workflow/specs/ui-conventions.md':
        '<spec-entry category="ui" keywords="a" date="2026-01-01" sid="S-20260101-aaaa" status="deprecated">\n\n### Foo\n\nx\n\n</spec-entry>',
    });
    const before = readTree(root);
    const r = await addSpecEntry(workflowLayout(root), { category: 'ui', title: ' foo ', content: 'other' }, rt());
    expect(r).toMatchObject({ duplicate: true, sid: 'S-20260101-aaaa' });
    expect(readTree(root)).toEqual(before);
  });

  it('stores content over 2048 characters as a DOC knowhow document with a ref and a 200-char summary', async () => {
    const { root, layout } = await project();
    const long = `${'words '.repeat(341)}abc`; // 2049 characters
    expect(long.length).toBe(2049);
    const r = await addSpecEntry(layout, { category: 'arch', title: 'Big design', content: long }, rt());
    expect(r).toMatchObject({ redirected: true, knowhowRef: 'knowhow/DOC-20260501-big-design.md' });
    const doc = readFileSync(join(root, '.workflow', r.knowhowRef!), 'utf8');
    expect(doc).toContain('type: document');
    expect(doc.endsWith(`${long.trim()}\n`)).toBe(true);
    const e = loadCorpus(layout).byId.get(r.sid!)!;
    expect(e.ref).toBe('knowhow/DOC-20260501-big-design.md');
    expect(e.content).toHaveLength(200);
    const inline = await addSpecEntry(layout, { category: 'arch', title: 'Exactly', content: 'x'.repeat(2048) }, rt());
    expect(inline.redirected).toBe(false);
  });

  it('draws sids unique across the corpus', async () => {
    const { layout } = await project();
    const first = await addSpecEntry(layout, { category: 'coding', title: 'A', content: 'a' }, rt());
    // The same seeded runtime would draw the same sid again; it must skip the taken one.
    const second = await addSpecEntry(layout, { category: 'debug', title: 'B', content: 'b' }, rt());
    expect(second.sid).not.toBe(first.sid);
  });

  it('creates a missing category file from its seed (writes only)', async () => {
    const root = tmpProject({ '.workflow/specs/.keep': '' });
    const r = await addSpecEntry(workflowLayout(root), { category: 'test', title: 'T', content: 'c' }, rt());
    const text = readFileSync(join(root, '.workflow', r.file), 'utf8');
    expect(text).toMatch(/^---\ntitle: "Test Conventions"/);
    expect(text).toContain('### T');
  });

  it('rejects bad input with exit 2 and writes nothing', async () => {
    const { root, layout } = await project();
    const before = readTree(root);
    expect(await code(addSpecEntry(layout, { category: 'quality', title: 'x', content: 'y' }))).toBe(
      'UNKNOWN_CATEGORY/2',
    );
    expect(await code(addSpecEntry(layout, { category: 'coding', title: ' ', content: 'y' }))).toBe('MISSING_TITLE/2');
    expect(await code(addSpecEntry(layout, { category: 'coding', title: 'x', content: '\n' }))).toBe('EMPTY_CONTENT/2');
    expect(readTree(root)).toEqual(before);
    const bare = tmpDir();
    expect(await code(addSpecEntry(workflowLayout(bare), { category: 'coding', title: 'x', content: 'y' }))).toBe(
      'NO_WORKFLOW/2',
    );
  });
});

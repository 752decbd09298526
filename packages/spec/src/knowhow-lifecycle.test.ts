import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime, MaestroError } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { addKnowhow, knowhowHistory, listKnowhow, loadCorpus, supersedeKnowhow } from './index.js';

const rt = () => fixedRuntime('2026-05-01T10:07:00Z');

describe('knowhow lifecycle', () => {
  it('names files {PREFIX}-YYYYMMDD-<slug>, with -HHMM for titles without an ASCII slug', async () => {
    const layout = workflowLayout(tmpProject());
    const a = await addKnowhow(layout, { type: 'tip', title: 'Retry with Backoff!', content: 'Use jitter.' }, rt());
    expect(a).toMatchObject({
      id: 'knowhow-tip-20260501-retry-with-backoff',
      file: 'knowhow/TIP-20260501-retry-with-backoff.md',
    });
    const b = await addKnowhow(layout, { type: 'recipe', title: '部署流程', content: '步骤' }, rt());
    expect(b.file).toBe('knowhow/RCP-20260501-1007.md');
    const c = loadCorpus(layout);
    expect(listKnowhow(c, 'recipe').map((e) => e.title)).toEqual(['部署流程']);
  });

  it('explicit-id adds are replay-safe and refuse divergent payloads', async () => {
    const root = tmpProject();
    const layout = workflowLayout(root);
    const input = { type: 'tip', title: 'T', content: 'body', explicitId: 'tip-20260501-abc' };
    const first = await addKnowhow(layout, input, rt());
    expect(first).toMatchObject({ file: 'knowhow/TIP-20260501-abc.md', replayed: false });
    const before = readTree(root);
    expect(await addKnowhow(layout, input, fixedRuntime('2026-06-01T00:00:00Z'))).toMatchObject({ replayed: true });
    expect(readTree(root)).toEqual(before);
    await expect(addKnowhow(layout, { ...input, content: 'other' }, rt())).rejects.toMatchObject({
      code: 'CALLER_PAYLOAD_CONFLICT',
    });
    await expect(addKnowhow(layout, { ...input, explicitId: 'rcp-20260501-abc' }, rt())).rejects.toMatchObject({
      code: 'INVALID_KNOWHOW_ID',
      exitCode: 2,
    });
    await expect(addKnowhow(layout, { ...input, type: 'knowhow' }, rt())).rejects.toBeInstanceOf(MaestroError);
  });

  it('supersedes on both sides, by stem or id, and shows the chain', async () => {
    const root = tmpProject({
      '.workflow/knowhow/TIP-20260101-old.md': '---\ntitle: Old\ntype: tip\ncustom: 1.10\n---\n\nold body\n',
      '.workflow/knowhow/TIP-20260201-new.md': '---\ntitle: New\ntype: tip\n---\n\nnew body\n',
    });
    const layout = workflowLayout(root);
    const r = await supersedeKnowhow(layout, 'TIP-20260101-old', 'knowhow-tip-20260201-new', rt());
    expect(r).toMatchObject({ old: 'knowhow-tip-20260101-old', new: 'knowhow-tip-20260201-new', changed: true });
    expect(readFileSync(join(root, '.workflow/knowhow/TIP-20260101-old.md'), 'utf8')).toBe(
      '---\ntitle: Old\ntype: tip\ncustom: 1.10\nstatus: deprecated\nsupersededBy: knowhow-tip-20260201-new\n---\n\nold body\n',
    );
    expect(readFileSync(join(root, '.workflow/knowhow/TIP-20260201-new.md'), 'utf8')).toContain(
      'supersedes: ["knowhow-tip-20260101-old"]\n',
    );
    expect((await supersedeKnowhow(layout, 'TIP-20260101-old', 'TIP-20260201-new', rt())).changed).toBe(false);
    const h = knowhowHistory(loadCorpus(layout), 'TIP-20260201-new.md');
    expect(h.chain.map((i) => [i.id, i.current])).toEqual([
      ['knowhow-tip-20260101-old', false],
      ['knowhow-tip-20260201-new', true],
    ]);
  });
});

describe('reads never write', () => {
  it('loadCorpus leaves the tree untouched even without seed files', () => {
    const root = tmpProject({ '.workflow/specs/custom.md': '# only prose\n' });
    const before = readTree(root);
    loadCorpus(workflowLayout(root));
    expect(readTree(root)).toEqual(before);
  });
});

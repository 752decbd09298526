import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { loadCorpus } from './corpus.js';
import { repairLinks } from './link-repair.js';

const runtime = fixedRuntime('2026-05-01T10:00:00Z');

function project(files: Record<string, string>) {
  const root = tmpProject();
  mkdirSync(join(root, '.workflow/knowhow'), { recursive: true });
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(root, '.workflow', rel), text);
  return workflowLayout(root);
}

describe('repairLinks', () => {
  it('prunes dangling knowhow links, keeps resolvable ones and every other byte', async () => {
    const layout = project({
      'knowhow/TIP-20260101-a.md':
        '---\ntitle: A\ntype: tip\nstatus: deprecated\nsupersededBy: TIP-20260101-gone\nextra: kept\n---\nbody a\n',
      'knowhow/TIP-20260101-b.md':
        '---\ntitle: B\ntype: tip\nsupersedes: [TIP-20260101-c, TIP-20260101-lost]\n---\nb\n',
      'knowhow/TIP-20260101-c.md':
        '---\ntitle: C\ntype: tip\nstatus: deprecated\nsupersededBy: TIP-20260101-b\n---\nc\n',
    });
    const dry = await repairLinks(layout, { dryRun: true }, runtime);
    expect(dry.repairs.map((r) => `${r.id} ${r.attribute} ${r.missing}`).sort()).toEqual([
      'knowhow-tip-20260101-a superseded-by TIP-20260101-gone',
      'knowhow-tip-20260101-b supersedes TIP-20260101-lost',
    ]);
    expect(readFileSync(join(layout.knowhow, 'TIP-20260101-a.md'), 'utf8')).toContain('supersededBy');
    const r = await repairLinks(layout, {}, runtime);
    expect(r.files.sort()).toEqual(['knowhow/TIP-20260101-a.md', 'knowhow/TIP-20260101-b.md']);
    expect(readFileSync(join(layout.knowhow, 'TIP-20260101-a.md'), 'utf8')).toBe(
      '---\ntitle: A\ntype: tip\nstatus: deprecated\nextra: kept\ndeprecatedReason: "superseded by TIP-20260101-gone, which is no entry of this project (link removed by maestro spec link repair)"\n---\nbody a\n',
    );
    expect(readFileSync(join(layout.knowhow, 'TIP-20260101-b.md'), 'utf8')).toBe(
      '---\ntitle: B\ntype: tip\nsupersedes: ["TIP-20260101-c"]\n---\nb\n',
    );
    const corpus = loadCorpus(layout);
    expect(corpus.byId.get('knowhow-tip-20260101-c')?.supersededBy).toBe('knowhow-tip-20260101-b');
    expect((await repairLinks(layout, {}, runtime)).repairs).toEqual([]);
  });
});

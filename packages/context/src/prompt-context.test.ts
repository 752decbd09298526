import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { mayHavePacks, promptContext } from './prompt-context.js';

const rt = fixedRuntime(new Date('2026-03-04T05:06:07.000Z'));
const entry = (sid: string, title: string, body: string, extra = '') =>
  `<spec-entry category="arch" keywords="" date="2026-01-01" sid="${sid}" title="${title}"${extra}>\n\n### ${title}\n\n${body}\n\n</spec-entry>\n`;

function project(specs: string) {
  const root = tmpProject({ '.workflow/specs/architecture-constraints.md': specs });
  const home = tmpDir('maestro-ctx-home-');
  const scopes = {
    cwd: root,
    home,
    workspaceRoot: join(root, '.agents', 'knowledge'),
    userRoot: join(home, '.agents', 'knowledge'),
    orgRoots: [],
    builtinRoot: null,
    workspaceTrusted: false,
    approve: [],
    packs: [],
    disable: [],
    gitignore: true,
  };
  return { root, scopes, layout: workflowLayout(root) };
}

const FILLER = Array.from({ length: 40 }, (_, i) =>
  entry(`S-20260101-f${String(i).padStart(3, '0')}`, `Filler rule ${i}`, `Unrelated note number ${i} about chores.`),
).join('');

describe('promptContext', () => {
  it('activates a pack and selects its split for a prompt worded differently, in either language', async () => {
    const p = project(FILLER);
    const pack = join(p.root, '.agents', 'knowledge', 'service-conventions');
    const put = (rel: string, text: string) => {
      mkdirSync(join(pack, rel, '..'), { recursive: true });
      writeFileSync(join(pack, rel), text);
    };
    put(
      'KNOWLEDGE.md',
      '---\nname: service-conventions\ndescription: Service conventions for logging, metrics and deployment.\ntype: domain-reference\nstatus: ready\nprofile: document-first\n---\n# Service conventions\n',
    );
    put('compiled/splits/conventions/logging.md', '# Logging\n\nEvery service writes structured logs with pino.\n');
    put('compiled/splits/conventions/metrics.md', '# Metrics\n\nCounters are exposed for prometheus.\n');
    const ask = async (prompt: string) => {
      const { data } = await promptContext(
        p.layout,
        { ...p.scopes, workspaceTrusted: true, prompt, budget: 1500, recordExposure: false },
        rt,
      );
      return data.packs.flatMap((x) => x.selected_splits);
    };
    expect(await ask('How should we log errors?')).toEqual(['compiled/splits/conventions/logging.md']);
    expect(await ask('日志应该怎么写？')).toEqual(['compiled/splits/conventions/logging.md']);
  });

  it('recalls the entry about the prompt, records it as shown, and says nothing for an unrelated prompt', async () => {
    const p = project(
      FILLER +
        entry(
          'S-20260101-risk',
          'RiskEngine position limits',
          'The RiskEngine rejects orders over the max exposure limit.',
        ),
    );
    const { data } = await promptContext(
      p.layout,
      { ...p.scopes, prompt: 'How does the RiskEngine enforce the exposure limit on orders?', budget: 1500 },
      rt,
    );
    expect(data.specs.map((s) => s.id)).toEqual(['S-20260101-risk']);
    expect(data.blocks).toEqual([
      { name: 'recalled-knowledge', tokens: data.token_estimate, ids: ['S-20260101-risk'] },
    ]);
    expect(data.exposure_recorded).toBe(true);
    expect(readFileSync(join(p.root, '.workflow/.index/search/exposure.jsonl'), 'utf8')).toContain('S-20260101-risk');
    const none = await promptContext(p.layout, { ...p.scopes, prompt: 'bake sourdough bread today', budget: 1500 }, rt);
    expect(none.data).toMatchObject({ context: '', specs: [], blocks: [], exposure_recorded: false });
  });

  it('never recalls a deprecated entry, and flags a contested one', async () => {
    const p = project(
      FILLER +
        entry('S-20260101-old1', 'Kafka retention old', 'Kafka retention is seven days.', ' status="deprecated"') +
        entry('S-20260101-cont', 'Kafka retention window', 'Kafka retention is three days.', ' confidence="contested"'),
    );
    const { data } = await promptContext(
      p.layout,
      { ...p.scopes, prompt: 'what is the kafka retention?', budget: 1500 },
      rt,
    );
    expect(data.specs.map((s) => s.id)).toEqual(['S-20260101-cont']);
    expect(data.recall.contested).toEqual(['S-20260101-cont']);
    expect(data.context).toContain('(contested: marked contested');
    expect(data.context).not.toContain('seven days');
  });

  it('loads no pack code when no pack scope exists, and serves packs when one does', async () => {
    const p = project(FILLER);
    expect(mayHavePacks({ ...p.scopes, prompt: 'x', budget: 1 })).toBe(false);
    expect(mayHavePacks({ ...p.scopes, prompt: 'x', budget: 1, catalog: true })).toBe(true);
    // An empty scope directory holds no pack either; a file in its place is left to the pack code.
    mkdirSync(p.scopes.userRoot, { recursive: true });
    expect(mayHavePacks({ ...p.scopes, prompt: 'x', budget: 1 })).toBe(false);
    mkdirSync(join(p.root, '.agents'));
    writeFileSync(p.scopes.workspaceRoot, 'not a directory');
    expect(mayHavePacks({ ...p.scopes, prompt: 'x', budget: 1 })).toBe(true);
    rmSync(p.scopes.workspaceRoot);
    const pack = join(p.scopes.userRoot, 'acme-widget');
    mkdirSync(join(pack, 'documents'), { recursive: true });
    writeFileSync(
      join(pack, 'KNOWLEDGE.md'),
      '---\nname: acme-widget\ndescription: Facts about the Acme Widget pricing.\ntype: domain-reference\nstatus: ready\nprofile: wiki-first\n---\n# Acme Widget\n\nData.\n',
    );
    expect(existsSync(p.scopes.userRoot)).toBe(true);
    expect(mayHavePacks({ ...p.scopes, prompt: 'x', budget: 1 })).toBe(true);
    const { data } = await promptContext(
      p.layout,
      { ...p.scopes, prompt: 'What does the Acme Widget cost?', budget: 1500 },
      rt,
    );
    expect(data.wrapper_order).toEqual(['acme-widget']);
    expect(data.blocks.map((b) => b.name)).toEqual(['packs']);
  });
});

import {
  CATALOG_NOTE,
  type CatalogBlockEntry,
  countClosingTags,
  estimateTokens,
  packGuide,
  renderCatalogBlock,
  resolveContext,
} from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack, wsOptions } from './fixtures.test-util.js';

const filler = (word: string, n: number) => `${word} `.repeat(n).trim();

function guided(root: string, guide: string) {
  return writePack(
    root,
    'acme',
    baseFront('acme', { description: 'Acme Widget offline facts.' }),
    { 'compiled/offline.md': '# Offline\n\nAcme Widget queues edits offline.\n' },
    guide,
  );
}

describe('guide tier (KNOWLEDGE.md body) on activation', () => {
  it('includes a small guide whole, first in the wrapper, listed apart from the selected files', () => {
    const root = tmpDir();
    guided(root, '# Acme\n\n## Usage\n\nUse for support replies.\n');
    const out = resolveContext({ ...wsOptions(root), query: 'Does Acme Widget work offline?' }).output;
    const p = out.packs[0];
    expect(p.guide).toEqual(['KNOWLEDGE.md']);
    expect(p.selected_files).toEqual(['compiled/offline.md']);
    expect(out.context).toContain('Guide: KNOWLEDGE.md\nSelected: compiled/offline.md');
    expect(out.context.indexOf('--- KNOWLEDGE.md ---')).toBeLessThan(
      out.context.indexOf('--- compiled/offline.md ---'),
    );
    expect(out.context).not.toContain('description: Acme'); // the frontmatter is catalog metadata, not guide
  });

  it('cuts a large guide to its usage and boundary sections (never the context map alone), within budget', () => {
    const root = tmpDir();
    guided(
      root,
      `# Acme\n\n## Context map\n\n${filler('`compiled/x.md`', 300)}\n\n## Boundaries\n\nNever promise offline sync times.\n\n## History\n\n${filler('history', 3000)}\n`,
    );
    const out = resolveContext({ ...wsOptions(root), query: 'Does Acme Widget work offline?', budget: 1200 }).output;
    expect(out.packs[0].guide).toEqual(['KNOWLEDGE.md#boundaries']);
    expect(out.context).toContain('Never promise offline sync times.');
    expect(out.context).not.toMatch(/history history|compiled\/x\.md/);
    expect(out.token_estimate).toBeLessThanOrEqual(1200);
  });

  it('gives content priority: the guide only takes what is left, and --no-guide leaves it out', () => {
    const root = tmpDir();
    guided(root, `# Acme\n\n## Usage\n\n${filler('usage', 200)}\n`);
    const tight = resolveContext({ ...wsOptions(root), query: 'Does Acme Widget work offline?', budget: 200 }).output;
    expect(tight.packs[0].selected_files).toEqual(['compiled/offline.md']);
    expect(tight.packs[0].guide).toEqual([]);
    expect(tight.packs[0].warnings.some((w) => w.startsWith("the guide's usage/boundary notes did not fit"))).toBe(
      true,
    );
    const off = resolveContext({ ...wsOptions(root), query: 'Does Acme Widget work offline?', guide: false }).output;
    expect(off.packs[0].guide).toEqual([]);
    expect(off.context).not.toContain('usage usage');
  });

  it('serves the guide alone through the activation tool, cut by sections when the budget is small', () => {
    const root = tmpDir();
    guided(
      root,
      `# Acme\n\n## Usage\n\nFor support.\n\n## Boundaries\n\nNo prices.\n\n## Appendix\n\n${filler('appendix', 600)}\n`,
    );
    const full = packGuide({ ...wsOptions(root), pack: 'acme', budget: 2000 });
    expect(full.guide).toEqual(['KNOWLEDGE.md']);
    expect(full.resources).toEqual([{ kind: 'runtime', path: 'compiled/offline.md' }]);
    const small = packGuide({ ...wsOptions(root), pack: 'acme', budget: 250 });
    expect(small.guide).toEqual(['KNOWLEDGE.md#acme', 'KNOWLEDGE.md#usage', 'KNOWLEDGE.md#boundaries']);
    expect(small.context).not.toContain('appendix appendix');
    expect(small.token_estimate).toBeLessThanOrEqual(250);
    expect(countClosingTags(small.context, 'knowledge_pack_guide')).toBe(1);
  });
});

describe('catalog block', () => {
  const entry = (name: string, extra: Partial<CatalogBlockEntry> = {}): CatalogBlockEntry => ({
    name,
    description: `Facts about ${name}.`,
    type: 'domain-reference',
    status: 'ready',
    trust: 'user-confirmed',
    profile: 'wiki-first',
    runtime_mode: 'data',
    primary_document: null,
    location: `/ws/${name}/KNOWLEDGE.md`,
    activation: 'available',
    ...extra,
  });

  it('lists entries in order within the budget and names what it left out, never silently', () => {
    const entries = ['a', 'b', 'c', 'd'].map((n) => entry(n));
    const all = renderCatalogBlock(entries, 5000);
    expect(all.listed).toEqual(['a', 'b', 'c', 'd']);
    expect(all.text.startsWith(`<available_knowledge_packs>\n${CATALOG_NOTE}\n`)).toBe(true);
    const some = renderCatalogBlock(entries, all.tokens - 40);
    expect(some.listed).toEqual(['a', 'b', 'c']);
    expect(some.omitted).toEqual(['d']);
    expect(some.text).toContain('(1 more pack(s) not listed, over the token budget: d)');
    expect(estimateTokens(some.text)).toBeLessThanOrEqual(all.tokens - 40);
    expect(renderCatalogBlock(entries, 50)).toEqual({ text: '', tokens: 0, listed: [], omitted: ['a', 'b', 'c', 'd'] });
  });

  it('marks gated packs and omits optional elements that are not known', () => {
    const text = renderCatalogBlock(
      [entry('u', { activation: 'needs-approval', primary_document: 'documents/u.md' })],
      2000,
    ).text;
    expect(text).toContain('<activation>needs-approval</activation>');
    expect(text).toContain('<primary_document>documents/u.md</primary_document>');
    expect(renderCatalogBlock([entry('r')], 2000).text).not.toMatch(/<activation>|<primary_document>/);
  });
});

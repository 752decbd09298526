import { chmodSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { discoverPacks, resolveContext } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, write, writePack } from './fixtures.test-util.js';

const ws = (dir: string) => [{ scope: 'workspace' as const, dir }];

describe('discoverPacks', () => {
  it('finds a pack with only its frontmatter, absolute location and root (scenario 1)', () => {
    const root = tmpDir();
    const pack = writePack(
      root,
      'acme-widget-brief',
      baseFront('acme-widget-brief'),
      {},
      `# Guide\n\n${'body '.repeat(50_000)}`,
    );
    const r = discoverPacks(ws(root));
    expect(r.packs).toHaveLength(1);
    expect(r.packs[0]).toMatchObject({
      name: 'acme-widget-brief',
      scope: 'workspace',
      root: pack,
      location: join(pack, 'KNOWLEDGE.md'),
    });
    expect(JSON.stringify(r.packs[0])).not.toContain('body body');
    expect(r.scans[0]).toMatchObject({ exists: true, packs: 1, truncated: null });
  });

  it('skips knowledge.md, node_modules, dot-dirs and build output without collisions (scenarios 2-5)', () => {
    const root = tmpDir();
    writePack(root, 'real', baseFront('real'));
    write(join(root, 'lower/knowledge.md'), '---\nname: lower\n---\n');
    writePack(root, 'node_modules/@acme/npm-kb', baseFront('npm-kb'));
    writePack(root, '.git/hidden', baseFront('hidden'));
    writePack(root, 'team/.cache/cached', baseFront('cached'));
    writePack(root, 'dist/real', baseFront('real'));
    writePack(root, 'indexes/idx', baseFront('idx'));
    const r = discoverPacks(ws(root));
    expect(r.packs.map((p) => p.name)).toEqual(['real']);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['PACK_ENTRY_CASE']);
  });

  it('bounds depth with a diagnostic and finds category folders (scenarios 6, 7)', () => {
    const root = tmpDir();
    writePack(root, 'team-marketing/q3-campaign-plan', baseFront('q3-campaign-plan'));
    writePack(root, 'a/b/c/d/e/f/g/deep', baseFront('deep'));
    writePack(root, 'a/b/c/d/e/six', baseFront('six'));
    const r = discoverPacks(ws(root), { maxDepth: 6, maxDirs: 2000 });
    expect(r.packs.map((p) => p.name).sort()).toEqual(['q3-campaign-plan', 'six']);
    expect(r.scans[0].truncated).toBe('depth');
    expect(r.diagnostics).toEqual([expect.objectContaining({ code: 'PACK_SCAN_DEPTH_LIMIT', severity: 'warning' })]);
  });

  it('bounds the directory count with a diagnostic', () => {
    const root = tmpDir();
    for (let i = 0; i < 30; i++) mkdirSync(join(root, `d${String(i).padStart(2, '0')}`));
    writePack(root, 'zz-last', baseFront('zz-last'));
    const r = discoverPacks(ws(root), { maxDepth: 6, maxDirs: 10 });
    expect(r.packs).toEqual([]);
    expect(r.scans[0]).toMatchObject({ truncated: 'dirs', dirsScanned: 10 });
    expect(r.diagnostics[0].code).toBe('PACK_SCAN_DIR_LIMIT');
  });

  it('treats packs as leaves (scenario 8)', () => {
    const root = tmpDir();
    writePack(root, 'acme-widget-brief', baseFront('acme-widget-brief'), {
      'assets/template-pack/KNOWLEDGE.md': '---\nname: template-pack\n---\n',
    });
    expect(discoverPacks(ws(root)).packs.map((p) => p.name)).toEqual(['acme-widget-brief']);
  });

  it('terminates on a symlink loop and lists an aliased pack once (scenarios 9, 10)', () => {
    const root = tmpDir();
    writePack(root, 'group/brand-glossary', baseFront('brand-glossary'));
    symlinkSync(root, join(root, 'group/loop-to-root'));
    symlinkSync(join(root, 'group/brand-glossary'), join(root, 'alias'));
    symlinkSync(join(root, 'self'), join(root, 'self'));
    const started = Date.now();
    const r = discoverPacks(ws(root));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.packs.map((p) => p.name)).toEqual(['brand-glossary']);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['PACK_SYMLINK_BROKEN']);
  });

  it('does not follow a symlink that leaves the scope root, with a diagnostic', () => {
    const root = tmpDir();
    const elsewhere = tmpDir();
    writePack(elsewhere, 'outside-pack', baseFront('outside-pack'));
    symlinkSync(join(elsewhere, 'outside-pack'), join(root, 'linked'));
    const r = discoverPacks(ws(root));
    expect(r.packs).toEqual([]);
    expect(r.diagnostics[0]).toMatchObject({ code: 'PACK_SYMLINK_ESCAPE', severity: 'warning' });
  });

  it('lists one pack reachable from two scopes once, under the first scope', () => {
    const root = tmpDir();
    writePack(root, 'shared', baseFront('shared'));
    const r = discoverPacks([
      { scope: 'workspace', dir: root },
      { scope: 'user', dir: root },
    ]);
    expect(r.packs.map((p) => `${p.scope}:${p.name}`)).toEqual(['workspace:shared']);
    expect(r.diagnostics[0].code).toBe('PACK_SCOPE_DUPLICATE');
  });

  it('never executes anything in a pack (scenario 11)', () => {
    const root = tmpDir();
    const sentinel = join(root, 'SENTINEL');
    const pack = writePack(root, 'scripted', baseFront('scripted', { profile: 'wiki-first' }), {
      'compiled/facts.md': '# Facts\n\nRun `scripts/setup.sh` to set up scripted facts.\n',
      'scripts/setup.sh': `#!/bin/sh\ntouch ${sentinel}\n`,
    });
    chmodSync(join(pack, 'scripts/setup.sh'), 0o755);
    discoverPacks(ws(root));
    resolveContext({
      cwd: root,
      workspaceRoot: root,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
      query: 'scripted facts setup',
      budget: 2000,
      packs: ['scripted'],
    });
    expect(existsSync(sentinel)).toBe(false);
  });

  it('treats missing scope roots as empty, with no error (scenario 12)', () => {
    const root = tmpDir();
    const r = discoverPacks([
      { scope: 'user', dir: join(root, 'missing') },
      { scope: 'org', dir: join(root, 'also-missing') },
    ]);
    expect(r).toMatchObject({ packs: [], diagnostics: [] });
    expect(r.scans.map((s) => s.exists)).toEqual([false, false]);
  });

  it('keeps a pack with broken frontmatter as quarantined and still loads the others (scenarios 13, 14)', () => {
    const root = tmpDir();
    writePack(root, 'broken', 'name: broken\ndescription: "unclosed\ntype: x');
    writePack(root, 'nodesc', { name: 'nodesc', type: 'domain-reference', status: 'ready' });
    writePack(root, 'good', baseFront('good'));
    const r = discoverPacks(ws(root));
    const byName = Object.fromEntries(r.packs.map((p) => [p.name, p]));
    expect(byName.broken.manifest).toBeNull();
    expect(byName.broken.issues[0]).toMatchObject({ code: 'PACK_INVALID_YAML', file: 'KNOWLEDGE.md' });
    expect(byName.nodesc.manifest).toBeNull();
    expect(byName.nodesc.issues.map((i) => i.message)).toContain('Missing required field in frontmatter: description');
    expect(byName.good.manifest?.name).toBe('good');
  });
});

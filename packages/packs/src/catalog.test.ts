import { join } from 'node:path';
import { effectiveTrust, listPacks, loadCatalog, type PackScopeOptions, parseDisableRule } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, writePack } from './fixtures.test-util.js';

/** brand-glossary in all four scopes: workspace unreviewed, user user-confirmed, org official, built-in official. */
function fourScopes(): PackScopeOptions & { base: string } {
  const base = tmpDir();
  const glossary = (trust: string) => baseFront('brand-glossary', { trust });
  writePack(join(base, 'ws'), 'brand-glossary', glossary('unreviewed'), {
    'compiled/facts.md': '# Workspace glossary\n',
  });
  writePack(join(base, 'user'), 'brand-glossary', glossary('user-confirmed'), {
    'compiled/facts.md': '# User glossary\n',
  });
  writePack(join(base, 'org'), 'brand-glossary', glossary('official'), { 'compiled/facts.md': '# Org glossary\n' });
  writePack(join(base, 'builtin'), 'brand-glossary', glossary('official'), {
    'compiled/facts.md': '# Builtin glossary\n',
  });
  return {
    base,
    cwd: base,
    workspaceRoot: join(base, 'ws'),
    userRoot: join(base, 'user'),
    orgRoots: [join(base, 'org')],
    builtinRoot: join(base, 'builtin'),
    workspaceTrusted: true,
  };
}

describe('catalog precedence and trust', () => {
  it('lets the workspace copy win and lists the three shadowed locations (scenario 26)', () => {
    const o = fourScopes();
    const { catalog } = loadCatalog(o);
    const winner = catalog.active.get('brand-glossary');
    expect(winner?.pack.scope).toBe('workspace');
    expect(catalog.entries.map((e) => `${e.pack.scope}:${e.state}`)).toEqual([
      'workspace:active',
      'user:shadowed',
      'org:shadowed',
      'builtin:shadowed',
    ]);
    const shadowed = catalog.diagnostics.filter((d) => d.code.startsWith('PACK_SHADOW'));
    expect(shadowed.map((d) => d.path)).toEqual([
      join(o.base, 'user/brand-glossary/KNOWLEDGE.md'),
      join(o.base, 'org/brand-glossary/KNOWLEDGE.md'),
      join(o.base, 'builtin/brand-glossary/KNOWLEDGE.md'),
    ]);
  });

  it('says loudly when a lower-trust pack shadows higher-trust ones (scenario 27)', () => {
    const { catalog } = loadCatalog(fourScopes());
    const loud = catalog.diagnostics.filter((d) => d.code === 'PACK_SHADOW_LOWER_TRUST');
    expect(loud).toHaveLength(3);
    for (const d of loud) {
      expect(d.severity).toBe('warning');
      expect(d.message).toMatch(/^LOWER-TRUST PACK SHADOWS A HIGHER-TRUST ONE: 'brand-glossary'/);
      expect(d.message).toContain('trust unreviewed');
    }
    expect(loud[1].message).toContain('trust official');
  });

  it('gives a quiet info diagnostic when the winner is at least as trusted', () => {
    const o = fourScopes();
    const { catalog } = loadCatalog({ ...o, workspaceRoot: null });
    const d = catalog.diagnostics.filter((x) => x.code.startsWith('PACK_SHADOW'));
    expect(d.map((x) => `${x.severity}:${x.code}`)).toEqual([
      'warning:PACK_SHADOW_LOWER_TRUST',
      'warning:PACK_SHADOW_LOWER_TRUST',
    ]);
    const { catalog: c2 } = loadCatalog({ ...o, workspaceRoot: null, userRoot: null });
    expect(c2.diagnostics.map((x) => `${x.severity}:${x.code}`)).toEqual(['info:PACK_SHADOWED']);
  });

  it('uses an explicitly selected path over every scope (scenario 28)', () => {
    const o = fourScopes();
    const { catalog } = loadCatalog({ ...o, packs: [join(o.base, 'org/brand-glossary')] });
    const winner = catalog.active.get('brand-glossary');
    expect(winner).toMatchObject({ explicit: true, pack: { scope: 'explicit', home: 'org' } });
    expect(winner?.trust.effective).toBe('official');
    expect(catalog.entries).toHaveLength(4);
  });

  it('falls back to the user copy when the workspace copy is disabled (scenario 29)', () => {
    const o = fourScopes();
    const { catalog } = loadCatalog({ ...o, disable: ['brand-glossary@workspace'] });
    expect(catalog.active.get('brand-glossary')?.pack.scope).toBe('user');
    expect(catalog.entries[0].state).toBe('disabled');
    const all = loadCatalog({ ...o, disable: ['brand-glossary'] }).catalog;
    expect(all.active.size).toBe(0);
  });

  it('shows an untrusted workspace as metadata only and never elevates its declared trust (scenarios 30, 31)', () => {
    const base = tmpDir();
    writePack(base, 'vendor-sdk-notes', baseFront('vendor-sdk-notes', { trust: 'official' }));
    const list = listPacks({
      cwd: base,
      workspaceRoot: base,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: false,
    });
    expect(list.workspace_trusted).toBe(false);
    expect(list.packs[0]).toMatchObject({
      name: 'vendor-sdk-notes',
      metadata_only: true,
      trust: { declared: 'official', effective: 'unreviewed' },
    });
    const approved = loadCatalog({
      cwd: base,
      workspaceRoot: base,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: false,
      approve: ['vendor-sdk-notes'],
    });
    expect(approved.catalog.active.get('vendor-sdk-notes')?.trust).toEqual({
      declared: 'official',
      effective: 'user-confirmed',
      metadataOnly: false,
    });
  });

  it('computes effective trust from scope ceilings', () => {
    expect(
      effectiveTrust({ home: 'user', declared: 'official', workspaceTrusted: false, approved: false }).effective,
    ).toBe('user-confirmed');
    expect(effectiveTrust({ home: 'org', declared: null, workspaceTrusted: false, approved: false }).effective).toBe(
      'official',
    );
    expect(
      effectiveTrust({ home: 'builtin', declared: 'external', workspaceTrusted: false, approved: false }).effective,
    ).toBe('external');
    expect(effectiveTrust({ home: null, declared: null, workspaceTrusted: false, approved: false }).effective).toBe(
      'user-confirmed',
    );
    expect(
      effectiveTrust({ home: 'workspace', declared: null, workspaceTrusted: true, approved: false }).effective,
    ).toBe('user-confirmed');
  });

  it('resolves a same-scope collision by path order, with a warning', () => {
    const base = tmpDir();
    writePack(base, 'a/dup', baseFront('dup'));
    writePack(base, 'b/dup', baseFront('dup'));
    const { catalog } = loadCatalog({
      cwd: base,
      workspaceRoot: base,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
    });
    expect(catalog.active.get('dup')?.pack.root).toBe(join(base, 'a/dup'));
    expect(catalog.diagnostics.map((d) => d.code)).toEqual(['PACK_NAME_COLLISION']);
  });

  it('keeps invalid packs out of the competition', () => {
    const base = tmpDir();
    writePack(join(base, 'ws'), 'glossary', baseFront('glossary', { status: 'published' }));
    writePack(join(base, 'user'), 'glossary', baseFront('glossary'));
    const { catalog } = loadCatalog({
      cwd: base,
      workspaceRoot: join(base, 'ws'),
      userRoot: join(base, 'user'),
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
    });
    expect(catalog.active.get('glossary')?.pack.scope).toBe('user');
    expect(catalog.diagnostics.map((d) => d.code)).toEqual(['PACK_QUARANTINED']);
  });

  it('rejects bad --pack and --disable values as bad input', () => {
    const o = fourScopes();
    expect(() => loadCatalog({ ...o, packs: ['nope'] })).toThrow(
      expect.objectContaining({ code: 'PACK_NOT_FOUND', exitCode: 2 }),
    );
    expect(() => loadCatalog({ ...o, packs: ['./nowhere'] })).toThrow(
      expect.objectContaining({ code: 'PACK_PATH_NOT_PACK', exitCode: 2 }),
    );
    expect(() => parseDisableRule('x@galaxy')).toThrow(
      expect.objectContaining({ code: 'PACK_BAD_DISABLE', exitCode: 2 }),
    );
    expect(parseDisableRule('x@org')).toEqual({ name: 'x', scope: 'org' });
  });
});

describe('recovered frontmatter', () => {
  it('loads a pack whose description has an unquoted ": " and says so with file and line (scenario 15)', () => {
    const base = tmpDir();
    writePack(
      base,
      'sales-faq',
      'name: sales-faq\ndescription: Sales answers. Use when: pricing comes up\ntype: domain-reference\nstatus: ready',
    );
    const { catalog } = loadCatalog({
      cwd: base,
      workspaceRoot: base,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
    });
    expect(catalog.active.get('sales-faq')?.pack.manifest?.description).toBe(
      'Sales answers. Use when: pricing comes up',
    );
    expect(catalog.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'PACK_YAML_UNQUOTED_COLON',
        message: expect.stringContaining('sales-faq/KNOWLEDGE.md:3: description:'),
      }),
    ]);
  });
});

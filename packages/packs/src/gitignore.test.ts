import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { discoverPacks, ignoredBy, parseGitignore, resolveContext } from '@maestro/packs';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { baseFront, write, writePack } from './fixtures.test-util.js';

const rules = (text: string, base = '') => [parseGitignore(text, '/x/.gitignore', base)];
const ignored = (text: string, path: string, isDir = true, base = '') =>
  ignoredBy(rules(text, base), path, isDir) !== null;

describe('gitignore patterns', () => {
  it('matches names at any depth unless anchored, and directory-only patterns only directories', () => {
    expect(ignored('drafts', 'team/drafts')).toBe(true);
    expect(ignored('/drafts', 'team/drafts')).toBe(false);
    expect(ignored('/drafts', 'drafts')).toBe(true);
    expect(ignored('team/drafts', 'team/drafts')).toBe(true);
    expect(ignored('team/drafts', 'x/team/drafts')).toBe(false);
    expect(ignored('private/', 'private', true)).toBe(true);
    expect(ignored('private/', 'private', false)).toBe(false);
  });

  it('supports *, ?, classes, ** and escapes', () => {
    expect(ignored('tmp-*', 'a/tmp-1')).toBe(true);
    expect(ignored('tmp-*', 'a/tmp/x')).toBe(false);
    expect(ignored('v?', 'v1')).toBe(true);
    expect(ignored('v[0-9]', 'v7')).toBe(true);
    expect(ignored('v[!0-9]', 'v7')).toBe(false);
    expect(ignored('**/cache', 'a/b/cache')).toBe(true);
    expect(ignored('a/**/z', 'a/z')).toBe(true);
    expect(ignored('a/**/z', 'a/b/c/z')).toBe(true);
    expect(ignored('a/**', 'a/b')).toBe(true);
    expect(ignored('\\#notes', '#notes')).toBe(true);
    expect(ignored('# comment\n\n', 'comment')).toBe(false);
    expect(ignored('my-pack.v2', 'my-pack.v2')).toBe(true);
    expect(ignored('my-pack.v2', 'my-packXv2')).toBe(false);
  });

  it('lets the last matching rule win, negation included, across layers', () => {
    expect(ignored('team-*\n!team-keep', 'team-keep')).toBe(false);
    expect(ignored('team-*\n!team-keep', 'team-drop')).toBe(true);
    const layers = [
      parseGitignore('*.tmp\n', '/r/.gitignore', ''),
      parseGitignore('!keep.tmp\n', '/r/a/.gitignore', 'a'),
    ];
    expect(ignoredBy(layers, 'a/keep.tmp', false)).toBeNull();
    expect(ignoredBy(layers, 'b/keep.tmp', false)).toMatchObject({ file: '/r/.gitignore', line: 1, pattern: '*.tmp' });
  });

  it('parses BOM, CRLF and trailing spaces', () => {
    expect(ignored('\uFEFFdrafts  \r\nold\r\n', 'old')).toBe(true);
    expect(ignored('\uFEFFdrafts  \r\nold\r\n', 'drafts')).toBe(true);
  });
});

describe('discovery honours .gitignore', () => {
  it('skips ignored packs inside the scope with an info diagnostic naming the rule', () => {
    const ws = tmpDir();
    writePack(ws, 'kept', baseFront('kept'));
    writePack(ws, 'private-notes', baseFront('private-notes'));
    writePack(ws, 'team/scratch-1', baseFront('scratch-1'));
    writePack(ws, 'team/real', baseFront('real'));
    write(join(ws, '.gitignore'), '# local only\nprivate-*/\n');
    write(join(ws, 'team/.gitignore'), 'scratch-*\n');
    const found = discoverPacks([{ scope: 'workspace', dir: ws }]);
    expect(found.packs.map((p) => p.name).sort()).toEqual(['kept', 'real']);
    const notes = found.diagnostics.filter((d) => d.code === 'PACK_GITIGNORED');
    expect(notes.map((d) => d.message)).toEqual([
      expect.stringContaining(`.gitignore:2 (private-*/)`),
      expect.stringContaining(`team/.gitignore:1 (scratch-*)`),
    ]);
    expect(notes.every((d) => d.severity === 'info')).toBe(true);
    const all = discoverPacks([{ scope: 'workspace', dir: ws }], undefined, { gitignore: false });
    expect(all.packs).toHaveLength(4);
  });

  it('explains an explicit name that a .gitignore hid, and still takes an explicit path', () => {
    const ws = tmpDir();
    const dir = writePack(ws, 'private-notes', baseFront('private-notes', { description: 'Private notes.' }));
    write(join(ws, '.gitignore'), 'private-*/\n');
    const opts = {
      cwd: ws,
      workspaceRoot: ws,
      userRoot: null,
      orgRoots: [],
      builtinRoot: null,
      workspaceTrusted: true,
    };
    expect(() => resolveContext({ ...opts, query: 'notes', budget: 500, packs: ['private-notes'] })).toThrow(
      expect.objectContaining({ code: 'PACK_NOT_FOUND', hint: expect.stringContaining('.gitignore:1 (private-*/)') }),
    );
    expect(resolveContext({ ...opts, query: 'notes', budget: 500, packs: [dir] }).output.packs[0].name).toBe(
      'private-notes',
    );
  });

  it('applies the enclosing repository rules below a workspace root, never to the root itself', () => {
    const repo = tmpDir();
    mkdirSync(join(repo, '.git'));
    write(join(repo, '.gitignore'), '.agents/\nvendored/\n');
    const ws = join(repo, '.agents/knowledge');
    writePack(ws, 'local', baseFront('local'));
    writePack(ws, 'vendored/sdk', baseFront('sdk'));
    const found = discoverPacks([{ scope: 'workspace', dir: ws }]);
    expect(found.packs.map((p) => p.name)).toEqual(['local']);
    // The same tree as a user scope: rules above the root are not consulted.
    expect(discoverPacks([{ scope: 'user', dir: ws }]).packs).toHaveLength(2);
  });

  it('re-includes with a negation, and ignores an entry file that git ignores', () => {
    const ws = tmpDir();
    writePack(ws, 'drafts/a', baseFront('a'));
    writePack(ws, 'keep-me', baseFront('keep-me'));
    writePack(ws, 'hidden', baseFront('hidden'));
    write(join(ws, '.gitignore'), 'drafts\n*\n!*/\n!keep-me/**\nhidden/KNOWLEDGE.md\n');
    const found = discoverPacks([{ scope: 'workspace', dir: ws }]);
    expect(found.packs.map((p) => p.name)).toEqual(['keep-me']);
    expect(found.diagnostics.some((d) => d.message.includes('(its KNOWLEDGE.md)'))).toBe(true);
  });

  it('never reads a .gitignore that is a FIFO or a symlink, and never runs git', () => {
    const ws = tmpDir();
    writePack(ws, 'one', baseFront('one'));
    execFileSync('mkfifo', [join(ws, '.gitignore')]);
    const other = tmpDir();
    write(join(other, '.gitignore'), 'one\n');
    mkdirSync(join(ws, 'sub'));
    symlinkSync(join(other, '.gitignore'), join(ws, 'sub/.gitignore'));
    writePack(ws, 'sub/one', baseFront('two'));
    const started = Date.now();
    const found = discoverPacks([{ scope: 'workspace', dir: ws }]);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(found.packs.map((p) => p.name).sort()).toEqual(['one', 'two']);
  });
});

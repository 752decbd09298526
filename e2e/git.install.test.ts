import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GitSetupOutput } from '@maestro/git';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { git, maestro, mergeSides, ok, read, repo, write } from './git-helpers.js';

const DOC = '.workflow/knowhow/TIP-20260101-retries.md';
const doc = (status: string, body: string) =>
  `---\ntitle: Retries\ntype: tip\nstatus: ${status}\n---\n\n# Retries\n\n${body}\n\nSee also the runbook.\n\nKeep the backoff capped.\n`;

describe('maestro git install | uninstall | status', () => {
  it('writes the attributes lines and the local driver config once, keeps the user’s lines, and undoes exactly that', () => {
    const root = repo({}, false);
    const mine = '*.png binary\r\n*.sh text eol=lf\r\n';
    writeFileSync(join(root, '.gitattributes'), mine);
    const before = GitSetupOutput.parse(maestro(root, 'git', 'status', '--json').json());
    expect(before.installed).toBe(false);
    const first = GitSetupOutput.parse(maestro(root, 'git', 'install', '--json').json());
    expect(first).toMatchObject({ changed: true, installed: true, effective: 'maestro' });
    const attrs = readFileSync(join(root, '.gitattributes'), 'utf8');
    expect(attrs.startsWith(mine)).toBe(true);
    expect(attrs).toContain('.workflow/specs/*.md merge=maestro\r\n.workflow/knowhow/*.md merge=maestro\r\n');
    const second = GitSetupOutput.parse(maestro(root, 'git', 'install', '--json').json());
    expect(second.changed).toBe(false);
    expect(readFileSync(join(root, '.gitattributes'), 'utf8')).toBe(attrs);
    expect(ok(root, 'config', '--local', '--get', 'merge.maestro.driver')).toMatch(/merge-driver %O %A %B %L %P/);
    const off = GitSetupOutput.parse(maestro(root, 'git', 'uninstall', '--json').json());
    expect(off).toMatchObject({ changed: true, installed: false, driver: null });
    expect(readFileSync(join(root, '.gitattributes'), 'utf8')).toBe(mine);
    expect(git(root, 'config', '--local', '--get-regexp', '^merge\\.maestro').code).toBe(1);
    expect(GitSetupOutput.parse(maestro(root, 'git', 'uninstall', '--json').json()).changed).toBe(false);
  });

  it('a .gitattributes it created is removed again; outside a git repository it is bad input (exit 2)', () => {
    const root = repo({}, false);
    expect(maestro(root, 'git', 'install').code).toBe(0);
    expect(maestro(root, 'git', 'uninstall').code).toBe(0);
    expect(existsSync(join(root, '.gitattributes'))).toBe(false);
    const plain = tmpProject();
    expect(maestro(plain, 'init').code).toBe(0);
    const r = maestro(plain, 'git', 'install', '--json');
    expect(r.code).toBe(2);
    expect(r.json<{ error: { code: string; hint: string } }>().error).toMatchObject({
      code: 'NOT_A_GIT_REPOSITORY',
      hint: expect.stringContaining('git init'),
    });
    expect(existsSync(join(plain, '.gitattributes'))).toBe(false);
  });
});

describe('a project below the repository root', () => {
  it('prefixes the attribute patterns with the project path, so they apply', () => {
    const top = tmpProject();
    ok(top, 'init', '-q', '-b', 'main');
    const root = join(top, 'services', 'api');
    expect(maestro(root, 'init').code).toBe(0);
    const r = GitSetupOutput.parse(maestro(root, 'git', 'install', '--json').json());
    expect(r.attributes.slice(1).map((a) => a.line)).toEqual([
      'services/api/.workflow/specs/*.md merge=maestro',
      'services/api/.workflow/knowhow/*.md merge=maestro',
    ]);
    expect(r).toMatchObject({ installed: true, effective: 'maestro', attributes_file: join(top, '.gitattributes') });
  });
});

describe('knowhow documents under a real git merge', () => {
  it('changes to different parts of one document merge; overlapping ones leave markers around the document', () => {
    const root = repo({ [DOC]: doc('active', 'Retry idempotent calls three times.') });
    const r = mergeSides(
      root,
      (x) => write(x, doc('deprecated', 'Retry idempotent calls three times.'), DOC),
      (x) => write(x, doc('active', 'Retry idempotent calls up to three times.'), DOC),
    );
    expect(r.code, r.out).toBe(0);
    expect(read(root, DOC)).toBe(doc('deprecated', 'Retry idempotent calls up to three times.'));

    const root2 = repo({ [DOC]: doc('active', 'Retry idempotent calls three times.') });
    const c = mergeSides(
      root2,
      (x) => write(x, doc('active', 'Retry twice.'), DOC),
      (x) => write(x, doc('active', 'Retry five times.'), DOC),
    );
    expect(c.code).not.toBe(0);
    expect(c.out).toContain('conflict (both-edited) in TIP-20260101-retries.md');
    expect(read(root2, DOC)).toBe(
      `<<<<<<< ours\n${doc('active', 'Retry twice.')}=======\n${doc('active', 'Retry five times.')}>>>>>>> theirs\n`,
    );
  });
});

describe('bad input', () => {
  it('merge-driver with the wrong arguments, a non-UTF-8 .gitattributes, an empty driver command: exit 2, nothing written', () => {
    const root = repo({}, false);
    const args = maestro(root, 'merge-driver', 'a', 'b');
    expect(args.code).toBe(2);
    expect(args.stderr).toContain('merge-driver takes 4 or 5 arguments, got 2');
    const bad = Buffer.from([0x2a, 0x2e, 0x62, 0x69, 0x6e, 0x20, 0xff, 0xfe, 0x0a]);
    writeFileSync(join(root, '.gitattributes'), bad);
    const r = maestro(root, 'git', 'install');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.gitattributes is not valid UTF-8 text');
    expect(readFileSync(join(root, '.gitattributes'))).toEqual(bad);
    expect(git(root, 'config', '--local', '--get', 'merge.maestro.driver').code).toBe(1);
    const empty = maestro(root, 'git', 'install', '--driver-command', 'maestro merge-driver');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("must pass git's placeholders");
  });

  it('a side that is not UTF-8 falls back to git’s text merge, named on stderr', () => {
    const root = repo({}, false);
    const dir = join(root, 'm');
    ok(root, 'init', '-q', dir);
    const f = (n: string, bytes: Buffer) => {
      writeFileSync(join(dir, n), bytes);
      return join(dir, n);
    };
    const base = f('o', Buffer.from('a\nb\nc\n'));
    const ours = f('a', Buffer.from('a\nb\nc\nours\n'));
    const theirs = f('b', Buffer.from([0xff, 0x0a, 0x62, 0x0a, 0x63, 0x0a]));
    const r = maestro(root, 'merge-driver', base, ours, theirs, '7', '.workflow/specs/x.md');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("a side is not valid UTF-8; used git's text merge instead");
    expect(readFileSync(ours)).toEqual(Buffer.from([0xff, 0x0a, 0x62, 0x0a, 0x63, 0x0a, ...Buffer.from('ours\n')]));
  });
});

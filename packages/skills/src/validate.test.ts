import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateSkill } from '@maestro/skills';
import { tmpDir, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

function skill(name: string, skillMd: string, extra: Record<string, string> = {}): string {
  const dir = join(tmpDir('maestro-skill-'), name);
  writeTree(dir, { 'SKILL.md': skillMd, ...extra });
  return dir;
}

const md = (front: string, body = '# Steps\n\n1. Do it.\n') => `---\n${front}\n---\n${body}`;
const codes = (dir: string) => validateSkill(dir).issues.map((i) => i.code);

describe('validateSkill: the Agent Skills frontmatter rules', () => {
  it('accepts a well-formed skill and lists every file with its hash and kind', () => {
    const dir = skill(
      'pdf-forms',
      md('name: pdf-forms\ndescription: Fill in PDF forms. Use when a user sends a PDF form.\nlicense: MIT'),
      {
        'scripts/fill.py': 'print("never run")\n',
        'references/fields.md': '# Fields\n',
        'assets/logo.png': '\u0089PNG',
      },
    );
    const v = validateSkill(dir);
    expect(v.issues).toEqual([]);
    expect(v.ok).toBe(true);
    expect(v.properties).toMatchObject({ name: 'pdf-forms', license: 'MIT' });
    expect(v.files.map((f) => [f.path, f.kind])).toEqual([
      ['SKILL.md', 'instructions'],
      ['assets/logo.png', 'asset'],
      ['references/fields.md', 'reference'],
      ['scripts/fill.py', 'script'],
    ]);
    expect(v.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
  });

  it('accepts CRLF line endings and a BOM', () => {
    const dir = skill(
      'crlf-skill',
      '\ufeff---\r\nname: crlf-skill\r\ndescription: Works on Windows files.\r\n---\r\n# Body\r\n',
    );
    expect(validateSkill(dir).ok).toBe(true);
  });

  it('accepts a lowercase name in another script (NFKC-normalised), refuses uppercase', () => {
    expect(validateSkill(skill('数据-导出', md('name: 数据-导出\ndescription: 导出报表数据。'))).ok).toBe(true);
    expect(codes(skill('Deploy', md('name: Deploy\ndescription: Deploys.')))).toContain('SKILL_NAME_CASE');
  });

  it('names every name rule that is broken', () => {
    expect(codes(skill('a--b', md('name: a--b\ndescription: x')))).toContain('SKILL_NAME_HYPHEN');
    expect(codes(skill('-lead', md('name: -lead\ndescription: x')))).toContain('SKILL_NAME_HYPHEN');
    expect(codes(skill('under_score', md('name: under_score\ndescription: x')))).toContain('SKILL_NAME_CHARS');
    const long = 'a'.repeat(65);
    expect(codes(skill(long, md(`name: ${long}\ndescription: x`)))).toContain('SKILL_NAME_TOO_LONG');
    const mismatch = validateSkill(skill('folder-name', md('name: other-name\ndescription: x')));
    expect(mismatch.issues.find((i) => i.code === 'SKILL_NAME_MISMATCH')?.message).toBe(
      "Directory name 'folder-name' must match skill name 'other-name'",
    );
  });

  it('checks description, compatibility, metadata and allowed-tools', () => {
    expect(codes(skill('no-desc', md('name: no-desc')))).toContain('SKILL_DESCRIPTION_MISSING');
    expect(codes(skill('long-desc', md(`name: long-desc\ndescription: ${'d'.repeat(1025)}`)))).toContain(
      'SKILL_DESCRIPTION_TOO_LONG',
    );
    expect(codes(skill('compat', md(`name: compat\ndescription: x\ncompatibility: ${'c'.repeat(501)}`)))).toContain(
      'SKILL_COMPATIBILITY_TOO_LONG',
    );
    expect(codes(skill('meta', md('name: meta\ndescription: x\nmetadata:\n  owner:\n    team: a')))).toContain(
      'SKILL_FIELD_TYPE',
    );
    expect(codes(skill('meta-list', md('name: meta-list\ndescription: x\nmetadata: [a, b]')))).toContain(
      'SKILL_FIELD_TYPE',
    );
    const tools = validateSkill(skill('tools', md('name: tools\ndescription: x\nallowed-tools: Bash(git:*) Read')));
    expect(tools.properties?.allowedTools).toEqual(['Bash(git:*)', 'Read']);
  });

  it('warns on fields outside the format but still validates', () => {
    const v = validateSkill(skill('extra', md('name: extra\ndescription: x\nmodel: fast')));
    expect(v.ok).toBe(true);
    expect(v.issues).toMatchObject([{ severity: 'warning', code: 'SKILL_UNKNOWN_FIELD', field: 'model' }]);
  });
});

describe('validateSkill: YAML traps and broken files', () => {
  it('reports a YAML error with its line and column', () => {
    const v = validateSkill(skill('bad-yaml', md('name: bad-yaml\ndescription: x\nmetadata: {a: 1')));
    const err = v.issues.find((i) => i.code === 'SKILL_INVALID_YAML');
    expect(v.ok).toBe(false);
    expect(err?.line).toBe(4);
    expect(err?.column).toBeGreaterThan(0);
  });

  it('keeps version-like and date-like values as the strings the author wrote', () => {
    const v = validateSkill(
      skill('strings', md('name: strings\ndescription: x\nmetadata:\n  version: 1.10\n  updated: 2026-04-18')),
    );
    expect(v.properties?.metadata).toEqual({ version: '1.10', updated: '2026-04-18' });
  });

  it('recovers an unquoted colon in the description with a warning', () => {
    const v = validateSkill(skill('colon', md('name: colon\ndescription: Use when: a PDF arrives')));
    expect(v.ok).toBe(true);
    expect(v.properties?.description).toBe('Use when: a PDF arrives');
    expect(v.issues.map((i) => i.severity)).toEqual(['warning']);
  });

  it('refuses a missing SKILL.md, missing or unclosed frontmatter', () => {
    const empty = join(tmpDir(), 'empty');
    mkdirSync(empty);
    expect(codes(empty)).toEqual(['SKILL_MISSING']);
    expect(codes(skill('no-front', '# Just a body\n'))).toEqual(['SKILL_NO_FRONTMATTER']);
    expect(codes(skill('unclosed', '---\nname: unclosed\ndescription: x\n'))).toEqual(['SKILL_FRONTMATTER_UNCLOSED']);
  });

  it('refuses a SKILL.md over 1 MiB without reading it whole', () => {
    const dir = skill('huge', md('name: huge\ndescription: x', 'x'.repeat(6 * 1024 * 1024)));
    expect(codes(dir)).toContain('SKILL_MD_TOO_LARGE');
  });

  it('hashes a 6 MB resource file and lists it', () => {
    const dir = skill('big-asset', md('name: big-asset\ndescription: x'));
    writeFileSync(join(dir, 'data.bin'), Buffer.alloc(6 * 1024 * 1024, 7));
    const v = validateSkill(dir);
    expect(v.ok).toBe(true);
    expect(v.files.find((f) => f.path === 'data.bin')?.size).toBe(6 * 1024 * 1024);
  });
});

describe('validateSkill: resources stay inside the skill folder', () => {
  it('refuses links that leave the folder or are absolute, warns on missing ones', () => {
    const body =
      '# Steps\n\nSee [a](../other/secret.md), [b](/etc/passwd), [c](references/missing.md), [d](https://x.dev/a).\n';
    const v = validateSkill(skill('links', md('name: links\ndescription: x', body)));
    expect(v.issues.map((i) => [i.code, i.line])).toEqual([
      ['SKILL_PATH_ESCAPE', 7],
      ['SKILL_PATH_ABSOLUTE', 7],
      ['SKILL_RESOURCE_MISSING', 7],
    ]);
  });

  it('refuses a symlink out of the folder and cuts a symlink loop', () => {
    const dir = skill('links-out', md('name: links-out\ndescription: x'));
    const outside = join(tmpDir(), 'secret.txt');
    writeFileSync(outside, 'secret');
    symlinkSync(outside, join(dir, 'secret.txt'));
    mkdirSync(join(dir, 'sub'));
    symlinkSync('..', join(dir, 'sub', 'up'));
    symlinkSync('loop-b', join(dir, 'loop-a'));
    symlinkSync('loop-a', join(dir, 'loop-b'));
    const v = validateSkill(dir);
    expect(v.ok).toBe(false);
    expect(v.issues.map((i) => [i.code, i.file]).sort()).toEqual([
      ['SKILL_BROKEN_SYMLINK', 'loop-a'],
      ['SKILL_BROKEN_SYMLINK', 'loop-b'],
      ['SKILL_PATH_ESCAPE', 'secret.txt'],
      ['SKILL_SYMLINK_LOOP', 'sub/up'],
    ]);
    expect(v.files.map((f) => f.path)).toEqual(['SKILL.md']);
  });

  it('refuses a FIFO without opening it for a blocking read', () => {
    const dir = skill('fifo', md('name: fifo\ndescription: x'));
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const v = validateSkill(dir);
    expect(v.issues.map((i) => [i.code, i.file])).toEqual([['SKILL_NOT_REGULAR_FILE', 'pipe']]);
  });

  it('follows a symlink that stays inside the folder', () => {
    const dir = skill('inner-link', md('name: inner-link\ndescription: x'), { 'references/a.md': 'A\n' });
    symlinkSync('references/a.md', join(dir, 'alias.md'));
    expect(validateSkill(dir).files.map((f) => f.path)).toEqual(['SKILL.md', 'alias.md', 'references/a.md']);
  });
});

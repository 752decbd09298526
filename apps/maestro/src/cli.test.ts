import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { type CliIO, findProjectRoot, runCli } from './cli.js';

function io(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIO = {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    cwd,
    env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    readStdin: async () => '',
  };
  return { cli, out: () => out.join(''), err: () => err.join('') };
}

describe('routing', () => {
  it('prints top-level help and version', async () => {
    const t = io(tmpDir());
    expect(await runCli(['--help'], t.cli)).toBe(0);
    expect(t.out()).toContain('Usage: maestro <command>');
    expect(t.out()).toContain('init');
    const v = io(tmpDir());
    expect(await runCli(['--version'], v.cli)).toBe(0);
    expect(v.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('suggests the closest command for a typo (exit 2)', async () => {
    const t = io(tmpDir());
    expect(await runCli(['inti'], t.cli)).toBe(2);
    expect(t.err()).toContain('unknown command "maestro inti"');
    expect(t.err()).toContain('did you mean `maestro init`');
  });

  it('shows command help with options and an example', async () => {
    const t = io(tmpDir());
    expect(await runCli(['init', '--help'], t.cli)).toBe(0);
    expect(t.out()).toContain('Usage: maestro init');
    expect(t.out()).toContain('--workflow-root');
    expect(t.out()).toContain('Examples:');
  });

  it('rejects unknown options with exit 2 and a JSON error document', async () => {
    const t = io(tmpDir());
    expect(await runCli(['init', '--nope', '--json'], t.cli)).toBe(2);
    const doc = JSON.parse(t.out());
    expect(doc.schema_version).toBe('maestro-error/1.0');
    expect(doc.error).toMatchObject({ code: 'USAGE', exit_code: 2 });
    expect(t.err()).toContain("Unknown option '--nope'");
  });

  it('accepts global flags before the command', async () => {
    const dir = tmpDir();
    const t = io(tmpDir());
    expect(await runCli(['--workflow-root', dir, '--json', 'init'], t.cli)).toBe(0);
    expect(JSON.parse(t.out()).root).toBe(dir);
    expect(existsSync(join(dir, '.workflow/specs/learnings.md'))).toBe(true);
  });
});

describe('findProjectRoot', () => {
  it('walks up to the directory holding .workflow/', () => {
    const dir = tmpDir();
    mkdirSync(join(dir, '.workflow'));
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    expect(findProjectRoot(join(dir, 'a/b'))).toBe(dir);
    const bare = tmpDir();
    expect(findProjectRoot(bare)).toBe(bare);
  });
});

describe('suggestions', () => {
  it('sees through trailing arguments and near misses in multi-word commands', async () => {
    for (const [typed, expected] of [
      [['serach', 'retry', 'policy'], 'search'],
      [['spec', 'ad', 'x'], 'spec add'],
      [['knowlege', 'reveiw', 's1'], 'knowledge review'],
    ] as const) {
      const t = io(tmpDir());
      expect(await runCli([...typed], t.cli)).toBe(2);
      expect(t.err()).toContain(`did you mean \`maestro ${expected}\``);
    }
  });
});

describe('progress on a terminal', () => {
  it('erases the progress line before the result is printed', async () => {
    const dir = tmpDir();
    const init = io(dir);
    expect(await runCli(['init'], init.cli)).toBe(0);
    const screen: string[] = [];
    const cli: CliIO = {
      ...io(dir).cli,
      stdout: (t) => screen.push(t),
      stderr: (t) => screen.push(t),
      stderrIsTTY: true,
    };
    expect(await runCli(['knowledge', 'audit'], cli)).toBe(0);
    const text = screen.join('');
    const progress = text.indexOf('auditing the knowledge corpus');
    expect(progress).toBeGreaterThan(-1);
    const result = text.indexOf('Knowledge audit (all)');
    expect(text.slice(progress, result)).toContain('\r\u001b[2K');
  });
});

describe('a bare verb', () => {
  it('suggests every command that ends in it', async () => {
    const promote = io(tmpDir());
    expect(await runCli(['promote', '20260101-auth', '--all'], promote.cli)).toBe(2);
    expect(promote.err()).toContain('did you mean `maestro knowledge promote` or `maestro memory promote`?');
    const add = io(tmpDir());
    expect(await runCli(['add', 'coding', 'T', 'c'], add.cli)).toBe(2);
    expect(add.err()).toContain('did you mean `maestro spec add`, `maestro knowhow add` or `maestro memory add`?');
  });
});

describe('maestro help <command>', () => {
  it('is the command help', async () => {
    const t = io(tmpDir());
    expect(await runCli(['help', 'spec', 'add'], t.cli)).toBe(0);
    expect(t.out()).toContain('Usage: maestro spec add');
  });
});

describe('a command group of two words', () => {
  it('lists its commands for --help, like a one-word noun', async () => {
    for (const group of [
      ['spec', 'conflict'],
      ['spec', 'link'],
      ['memory', 'rules'],
    ]) {
      const t = io(tmpDir());
      expect(await runCli([...group, '--help'], t.cli)).toBe(0);
      expect(t.out()).toContain(`Usage: maestro ${group.join(' ')} <command>`);
      expect(t.err()).toBe('');
    }
    const t = io(tmpDir());
    expect(await runCli(['spec', 'conflict'], t.cli)).toBe(2);
    expect(t.err()).toContain('spec conflict mark');
    expect(t.err()).toContain('spec conflict clear');
    const j = io(tmpDir());
    expect(await runCli(['memory', 'rules', '--json'], j.cli)).toBe(2);
    expect(JSON.parse(j.out()).error.message).toBe('"maestro memory rules" needs a command');
  });
});

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, runMaestroAsync, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

const SPEC =
  '<spec-entry category="coding" keywords="retry,backoff" date="2026-01-01" sid="S-20260101-rtry" title="Retry with backoff">\n\n' +
  '### Retry with backoff\n\nEvery fetch retries three times with exponential backoff; auth errors are not retried.\n\n</spec-entry>\n';

function project() {
  const root = tmpProject({ '.workflow/specs/coding-conventions.md': SPEC });
  const home = tmpDir('maestro-home-');
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_STATE_HOME: join(home, '.state') };
  const run = (args: string[], input?: string) => runMaestro(args, { cwd: root, env, input });
  const hook = (event: object, agent = 'claude') => run(['context', '--hook', agent], JSON.stringify(event));
  const log = () => {
    const p = join(root, '.workflow/.index/hooks.log');
    return existsSync(p) ? readFileSync(p, 'utf8') : '';
  };
  return { root, home, run, hook, log };
}

const prompt = (text: string) => ({ hook_event_name: 'UserPromptSubmit', prompt: text, session_id: 's', cwd: '/x' });

describe('maestro context --hook (the prompt hook)', () => {
  it('answers UserPromptSubmit with hookSpecificOutput.additionalContext, whatever the prompt looks like', () => {
    const p = project();
    for (const text of [
      '-how do we retry a fetch with backoff?',
      'fetch retry backoff --help',
      `retry backoff fetch ${'lorem '.repeat(30_000)}`,
    ]) {
      const r = p.hook(prompt(text));
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
      expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
      expect(out.hookSpecificOutput.additionalContext).toContain('<recalled-knowledge');
      expect(out.hookSpecificOutput.additionalContext).toContain('S-20260101-rtry');
      expect(out.hookSpecificOutput.additionalContext).not.toContain('Usage');
    }
  });

  it('without --hook, a dash-led prompt points to -- or --hook, never to a --content-file context lacks', () => {
    const p = project();
    const r = p.run(['context', '- why does retry spin?']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('maestro context --hook claude|codex');
    expect(r.stderr).not.toContain('--content-file');
    expect(p.run(['context', '--', '- why does the fetch retry with backoff spin?']).stdout).toContain(
      'S-20260101-rtry',
    );
  });

  it('says nothing for an unrelated prompt, and Codex gets the same shape', () => {
    const p = project();
    expect(p.hook(prompt('bake sourdough bread'))).toMatchObject({ code: 0, stdout: '' });
    const codex = p.hook(prompt('retry a fetch with backoff'), 'codex');
    expect(JSON.parse(codex.stdout).hookSpecificOutput.additionalContext).toContain('Retry with backoff');
  });

  it('SessionStart gets the status and contract; Stop a reminder for the user, never a stage', () => {
    const p = project();
    const start = JSON.parse(p.hook({ hook_event_name: 'SessionStart', source: 'startup' }).stdout);
    expect(start.hookSpecificOutput.additionalContext).toContain('Maestro: 1 knowledge entries');
    const stop = p.hook({ hook_event_name: 'Stop', stop_hook_active: false });
    expect(JSON.parse(stop.stdout)).toEqual({ systemMessage: expect.stringContaining('maestro knowledge stage') });
    expect(existsSync(join(p.root, '.workflow/sessions'))).toBe(false);
  });

  it('fails open: bad input, bad flags and a damaged corpus print nothing, exit 0 and log why', () => {
    const p = project();
    const cases: [string[], string][] = [
      [['context', '--hook', 'claude'], 'not json'],
      [['context', '--hook', 'claude'], '{"prompt":"x"}'],
      [['context', '--hook', 'gemini'], JSON.stringify(prompt('x'))],
      [['context', '--hook', 'claude', '--budget', 'lots'], JSON.stringify(prompt('x'))],
      [['context', '--hook', 'claude', '--no-such-flag'], JSON.stringify(prompt('x'))],
    ];
    for (const [args, input] of cases) {
      const r = p.run(args, input);
      expect(r, args.join(' ')).toMatchObject({ code: 0, stdout: '', stderr: '' });
    }
    const log = p.log();
    expect(log).toContain('INVALID_JSON');
    expect(log).toContain('HOOK_INPUT');
    expect(log).toContain('--hook must be claude or codex');
    expect(log).toContain('--budget');
    expect(log.trim().split('\n')).toHaveLength(cases.length);
    writeFileSync(join(p.root, '.workflow/specs/coding-conventions.md'), Buffer.from([0xff, 0xfe, 0x00, 0x41]));
    const damaged = p.hook(prompt('retry backoff'));
    expect(damaged).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('maestro hooks install / status / uninstall', () => {
  it('installs into the project settings, is idempotent, and uninstall restores the bytes', () => {
    const p = project();
    const settings = join(p.root, '.claude/settings.json');
    const original = '{\n  // mine\n  "permissions": { "allow": ["Bash(make)"] }\n}\n';
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    writeFileSync(settings, original);
    const first = p.run(['hooks', 'install', '--agent', 'claude', '--json']);
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({ command: 'install', changed: true, file: settings });
    expect(readFileSync(settings, 'utf8')).toContain('// mine');
    expect(p.run(['hooks', 'install', '--agent', 'claude', '--json']).json()).toMatchObject({ changed: false });
    const status = p
      .run(['hooks', 'status', '--json'])
      .json<{ hooks: { agent: string; scope: string; installed: string[] }[] }>();
    expect(status.hooks.find((h) => h.agent === 'claude' && h.scope === 'project')?.installed).toHaveLength(3);
    expect(p.run(['hooks', 'uninstall', '--agent', 'claude', '--json']).json()).toMatchObject({ how: 'restored' });
    expect(readFileSync(settings, 'utf8')).toBe(original);
  });

  it('concurrent installs by real processes leave one valid file with our hooks once and the user text kept', async () => {
    const p = project();
    mkdirSync(join(p.root, '.claude'), { recursive: true });
    const settings = join(p.root, '.claude/settings.json');
    writeFileSync(settings, '{\n  // team\n  "model": "opus"\n}\n');
    const env = { HOME: p.home, XDG_STATE_HOME: join(p.home, '.state') };
    const runs = await Promise.all(
      [1, 2, 3, 4].map(() => runMaestroAsync(['hooks', 'install', '--agent', 'claude'], { cwd: p.root, env })),
    );
    for (const r of runs) {
      expect([0, 3], r.stderr).toContain(r.code);
      if (r.code === 3) expect(r.stderr).toContain('rerun the same command');
    }
    const text = readFileSync(settings, 'utf8');
    expect(text).toContain('// team');
    expect(text.match(/context --hook claude/g)).toHaveLength(3);
    expect(p.run(['hooks', 'install', '--agent', 'claude', '--json']).json()).toMatchObject({ changed: false });
  });

  it('refuses a malformed settings file with file, line and fix, and never writes it', () => {
    const p = project();
    mkdirSync(join(p.root, '.codex'), { recursive: true });
    const file = join(p.root, '.codex/hooks.json');
    writeFileSync(file, '{\n  "hooks": {\n    "Stop": [\n  }\n');
    const r = p.run(['hooks', 'install', '--agent', 'codex']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}:4:3`);
    expect(r.stderr).toContain('nothing was written');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "hooks": {\n    "Stop": [\n  }\n');
    const status = p.run(['hooks', 'status', '--agent', 'codex', '--scope', 'project', '--json']);
    expect(status.code).toBe(0);
    expect(status.json<{ hooks: { error: string | null }[] }>().hooks[0].error).toMatch(
      /is not valid JSON.* at line 4, column 3/,
    );
    expect(p.run(['hooks', 'install']).code).toBe(2);
    expect(p.run(['hooks', 'install', '--agent', 'claude', '--scope', 'team']).code).toBe(2);
  });
});

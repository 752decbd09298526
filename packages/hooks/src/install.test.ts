import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpDir } from '@maestro/test-utils';
import { parse } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { type Agent, hookFile, type Scope } from './agents.js';
import { hooksStatus, installHooks, uninstallHooks } from './install.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../test/fixtures', name), 'utf8');

function setup(agent: Agent, content: string | null, scope: Scope = 'project') {
  const base = tmpDir('maestro-hooks-');
  const t = { agent, scope, root: join(base, 'proj'), home: join(base, 'home'), stateDir: join(base, 'state') };
  const file = hookFile(agent, scope, t.root, t.home);
  if (content !== null) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
  }
  return { t, file, read: () => readFileSync(file, 'utf8') };
}

type Settings = { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]> };
const commands = (text: string, event: string) =>
  ((parse(text) as Settings).hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));

describe('maestro hooks install / uninstall on real settings files', () => {
  it('adds our three hooks beside other users hooks, keeps every other byte, and is idempotent', async () => {
    const original = fixture('claude-other-hooks.json');
    const { t, read } = setup('claude', original);
    const r = await installHooks(t, 'maestro');
    expect(r).toMatchObject({ changed: true, events: ['SessionStart', 'UserPromptSubmit', 'Stop'], how: 'added' });
    const text = read();
    expect(commands(text, 'UserPromptSubmit')).toEqual([
      '$CLAUDE_PROJECT_DIR/.claude/hooks/secret-scan.sh',
      'maestro context --hook claude',
    ]);
    expect(commands(text, 'PostToolUse')).toEqual(['npx prettier --write "$CLAUDE_FILE_PATHS"']);
    const doc = parse(text) as Settings & { permissions: unknown; includeCoAuthoredBy: boolean };
    expect(doc.permissions).toEqual((parse(original) as { permissions: unknown }).permissions);
    expect(doc.includeCoAuthoredBy).toBe(false);
    expect(doc.hooks.Stop[0].hooks[0].timeout).toBe(5);
    // Everything before the hooks block is byte for byte what the user wrote.
    expect(text.slice(0, original.indexOf('"hooks"'))).toBe(original.slice(0, original.indexOf('"hooks"')));
    const again = await installHooks(t, 'maestro');
    expect(again).toMatchObject({ changed: false, events: [], how: 'unchanged' });
    expect(read()).toBe(text);
  });

  it('uninstall right after install restores the original bytes', async () => {
    const original = fixture('claude-other-hooks.json');
    const { t, read } = setup('claude', original);
    await installHooks(t, 'maestro');
    await installHooks(t, 'maestro');
    expect(await uninstallHooks(t)).toMatchObject({ changed: true, how: 'restored' });
    expect(read()).toBe(original);
  });

  it('uninstall after the user edited the file removes only our entries', async () => {
    const original = fixture('claude-other-hooks.json');
    const { t, file, read } = setup('claude', original);
    await installHooks(t, 'maestro');
    const edited = read().replace('"includeCoAuthoredBy": false', '"includeCoAuthoredBy": true');
    writeFileSync(file, edited);
    const r = await uninstallHooks(t);
    expect(r).toMatchObject({ changed: true, how: 'edited' });
    expect(r.events.sort()).toEqual(['SessionStart', 'Stop', 'UserPromptSubmit']);
    const text = read();
    expect(text).toContain('"includeCoAuthoredBy": true');
    expect(commands(text, 'UserPromptSubmit')).toEqual(['$CLAUDE_PROJECT_DIR/.claude/hooks/secret-scan.sh']);
    expect((parse(text) as Settings).hooks.SessionStart).toBeUndefined();
    expect(text).not.toContain('context --hook');
  });

  it('keeps comments and trailing commas of a JSONC settings file through install and uninstall', async () => {
    const original = fixture('claude-comments.json');
    const { t, file, read } = setup('claude', original);
    await installHooks(t, 'maestro');
    const text = read();
    for (const comment of [
      '// Team settings',
      '/* Permissions reviewed',
      '// fast local checks only',
      '// Formatting after',
    ])
      expect(text).toContain(comment);
    expect(commands(text, 'UserPromptSubmit')).toEqual(['maestro context --hook claude']);
    expect(commands(text, 'PostToolUse')).toEqual(['pnpm biome format --write']);
    writeFileSync(file, `${text}\n`); // touched since install: our entries go, the comments stay
    await uninstallHooks(t);
    const after = read();
    expect(after).toContain('// fast local checks only');
    expect(after).not.toContain('context --hook');
    expect(commands(after, 'PostToolUse')).toEqual(['pnpm biome format --write']);
  });

  it('keeps a byte-order mark and CRLF line ends as they were', async () => {
    const original = '\uFEFF{\r\n  "model": "opus"\r\n}\r\n';
    const { t, file, read } = setup('claude', original);
    await installHooks(t, 'maestro');
    const text = read();
    expect(text.startsWith('\uFEFF{\r\n  "model": "opus"')).toBe(true);
    expect(text.replaceAll('\r\n', '')).not.toContain('\n');
    expect(commands(text.slice(1), 'Stop')).toEqual(['maestro context --hook claude']);
    writeFileSync(file, text.replace('opus', 'sonnet'));
    await uninstallHooks(t);
    expect(read()).toBe(original.replace('opus', 'sonnet'));
  });

  it('refuses a malformed file with its line and column and never writes it', async () => {
    const original = fixture('claude-malformed.json');
    const { t, read } = setup('claude', original);
    await expect(installHooks(t, 'maestro')).rejects.toMatchObject({
      code: 'HOOK_FILE_MALFORMED',
      exitCode: 2,
      location: { line: 4, column: 5 },
    });
    await expect(uninstallHooks(t)).rejects.toMatchObject({ code: 'HOOK_FILE_MALFORMED' });
    expect(read()).toBe(original);
    expect(existsSync(t.stateDir)).toBe(false);
  });

  it('refuses a hooks entry of the wrong shape instead of replacing it', async () => {
    const original = '{ "hooks": { "UserPromptSubmit": { "command": "mine" } } }\n';
    const { t, read } = setup('claude', original);
    await expect(installHooks(t, 'maestro')).rejects.toMatchObject({
      code: 'HOOK_FILE_MALFORMED',
      message: expect.stringContaining('hooks.UserPromptSubmit must be an array'),
    });
    expect(read()).toBe(original);
  });

  it('creates a missing Codex hooks file, and uninstall deletes it again', async () => {
    const { t, file } = setup('codex', null, 'user');
    expect(file).toBe(join(t.home, '.codex', 'hooks.json'));
    await installHooks(t, 'maestro');
    expect(commands(readFileSync(file, 'utf8'), 'Stop')).toEqual(['maestro context --hook codex']);
    expect(hooksStatus(t)).toMatchObject({ exists: true, installed: ['SessionStart', 'UserPromptSubmit', 'Stop'] });
    expect(await uninstallHooks(t)).toMatchObject({ how: 'restored' });
    expect(existsSync(file)).toBe(false);
  });

  it('adds to a Codex file with other hooks, and status tells ours from theirs', async () => {
    const { t, read } = setup('codex', fixture('codex-other-hooks.json'));
    expect(hooksStatus(t)).toMatchObject({ installed: [], others: { SessionStart: 1, Stop: 1 } });
    await installHooks(t, 'npx maestro');
    const text = read();
    expect(commands(text, 'SessionStart')).toEqual([
      'python3 .codex/hooks/session_banner.py',
      'npx maestro context --hook codex',
    ]);
    expect(hooksStatus(t)).toMatchObject({ installed: ['SessionStart', 'Stop', 'UserPromptSubmit'], missing: [] });
    // A Claude install never counts the Codex command as its own, and the other way round.
    expect(hooksStatus({ ...t, agent: 'claude' }).file).not.toBe(hooksStatus(t).file);
  });

  it('a second install after the user removed one of ours adds it back and no longer restores old bytes', async () => {
    const original = fixture('codex-other-hooks.json');
    const { t, file, read } = setup('codex', original);
    await installHooks(t, 'maestro');
    const parsed = parse(read()) as Settings;
    parsed.hooks.Stop = parsed.hooks.Stop.filter((g) => !g.hooks[0].command.includes('context --hook'));
    writeFileSync(file, `${JSON.stringify(parsed, null, 2)}\n`);
    expect(await installHooks(t, 'maestro')).toMatchObject({ events: ['Stop'] });
    const r = await uninstallHooks(t);
    expect(r.how).toBe('edited');
    expect(commands(read(), 'Stop')).toEqual(['/usr/bin/python3 .codex/hooks/notify_done.py']);
  });
});

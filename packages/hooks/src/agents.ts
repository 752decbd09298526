import { join } from 'node:path';

export type Agent = 'claude' | 'codex';
export type Scope = 'project' | 'user';
export const AGENTS: readonly Agent[] = ['claude', 'codex'];
export const SCOPES: readonly Scope[] = ['project', 'user'];

/** The events Maestro hooks into, with explicit timeouts in seconds (both agents default to 600). */
export const HOOK_EVENTS = [
  { event: 'SessionStart', timeout: 10 },
  { event: 'UserPromptSubmit', timeout: 10 },
  { event: 'Stop', timeout: 5 },
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number]['event'];

/**
 * The agent's own hook file. Claude Code: `.claude/settings.json` in the project, or
 * `~/.claude/settings.json` (https://docs.claude.com/en/docs/claude-code/hooks). Codex:
 * `.codex/hooks.json` in the project, or `~/.codex/hooks.json` (https://developers.openai.com/codex/hooks).
 * Both hold `{ "hooks": { "<Event>": [ { "hooks": [ { "type": "command", "command", "timeout" } ] } ] } }`.
 */
export function hookFile(agent: Agent, scope: Scope, root: string, home: string): string {
  const base = scope === 'project' ? root : home;
  return agent === 'claude' ? join(base, '.claude', 'settings.json') : join(base, '.codex', 'hooks.json');
}

/** The command a hook runs: `<maestro> context --hook <agent>`; the agent's JSON event comes on stdin. */
export const hookCommand = (agent: Agent, maestro: string) => `${maestro} context --hook ${agent}`;

/** True for a command Maestro installed for this agent (whatever the maestro executable was called). */
export function isOurCommand(agent: Agent, command: unknown): boolean {
  return typeof command === 'string' && command.trimEnd().endsWith(` context --hook ${agent}`);
}

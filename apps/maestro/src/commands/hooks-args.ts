import { homedir } from 'node:os';
import { inputError } from '@maestro/core';
import type { Agent, HooksTarget, Scope } from '@maestro/hooks';
import type { CommandContext, OptionSpec, ParsedArgs } from '../kit.js';
import { str } from './pack-args.js';

export const HOOKS_OPTIONS: OptionSpec = {
  agent: { type: 'string' },
  scope: { type: 'string' },
};

export const HOOKS_HELP: Record<string, string> = {
  agent: 'claude (Claude Code: .claude/settings.json) or codex (Codex: .codex/hooks.json)',
  scope: 'project (the project root, default) or user (your home directory)',
};

function pick<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback?: T): T {
  const v = str(args, name) ?? fallback;
  if (v === undefined) {
    throw inputError('USAGE', `--${name} is required (${allowed.join(' or ')})`, {
      hint: `for example --${name} ${allowed[0]}`,
    });
  }
  if (!allowed.includes(v as T)) {
    throw inputError('USAGE', `--${name} must be ${allowed.join(' or ')} (got ${JSON.stringify(v)})`, {
      hint: `for example --${name} ${allowed[0]}`,
    });
  }
  return v as T;
}

export async function hooksTarget(ctx: CommandContext, args: ParsedArgs, agent?: Agent): Promise<HooksTarget> {
  const { hooksStateDir } = await import('@maestro/hooks');
  const home = ctx.env.HOME || homedir();
  return {
    agent: agent ?? pick<Agent>(args, 'agent', ['claude', 'codex']),
    scope: pick<Scope>(args, 'scope', ['project', 'user'], 'project'),
    root: ctx.root,
    home,
    stateDir: hooksStateDir(ctx.env, home),
  };
}

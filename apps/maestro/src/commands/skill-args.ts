import { homedir } from 'node:os';
import { join } from 'node:path';
import { inputError } from '@maestro/core';
import type { SkillRoots } from '@maestro/skills';
import type { CommandContext, OptionSpec, ParsedArgs } from '../kit.js';
import { optionalString } from './ledger-args.js';

/** `--user-root` for the skill commands that discover skills (workspace first, then user). */
export const ROOT_OPTIONS: OptionSpec = { 'user-root': { type: 'string' } };
export const ROOT_HELP: Record<string, string> = {
  'user-root': 'the user skills directory (default: ~/.agents/skills)',
};

export function skillRoots(ctx: CommandContext, args: ParsedArgs): SkillRoots {
  const home = ctx.env.HOME || homedir();
  return {
    workspace: join(ctx.root, '.agents', 'skills'),
    user: optionalString(args, 'user-root') ?? join(home, '.agents', 'skills'),
  };
}

/** Who performs a release, rollback or toggle (recorded in the history). */
export function actor(ctx: CommandContext): string {
  return ctx.env.MAESTRO_ACTOR || ctx.env.USER || ctx.env.LOGNAME || 'unknown';
}

/** A version number option (`--to 2`, `--expect 3`): a positive whole number, exit 2 otherwise. */
export function versionOption(args: ParsedArgs, name: string, usage: string): number {
  const raw = optionalString(args, name);
  if (raw === undefined) throw inputError('USAGE', `--${name} is required`, { hint: `usage: ${usage}` });
  const v = raw.replace(/^v/i, '');
  if (!/^\d+$/.test(v) || Number(v) < 1) {
    throw inputError('USAGE', `--${name} "${raw}" is not a version number`, {
      hint: 'versions are 1, 2, 3… (`maestro skill status <name>`)',
    });
  }
  return Number(v);
}

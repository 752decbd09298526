import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { inputError } from '@maestro/core';
import type { PackScopeOptions } from '@maestro/packs';
import type { CommandContext, OptionSpec, ParsedArgs } from '../kit.js';

/** Scope flags every `pack` command and `maestro context` accept. */
export const SCOPE_OPTIONS: OptionSpec = {
  'workspace-root': { type: 'string' },
  'user-root': { type: 'string' },
  'org-root': { type: 'string', multiple: true },
  'builtin-root': { type: 'string' },
  'trust-workspace': { type: 'boolean' },
  pack: { type: 'string', multiple: true },
  disable: { type: 'string', multiple: true },
  approve: { type: 'string', multiple: true },
  confirm: { type: 'string', multiple: true },
  'no-gitignore': { type: 'boolean' },
};

/** `--catalog` and `--no-guide`, for the commands that emit context (`pack resolve`, `context`). */
export const TIER_OPTIONS: OptionSpec = {
  catalog: { type: 'boolean' },
  'no-guide': { type: 'boolean' },
};

export const TIER_HELP: Record<string, string> = {
  catalog: 'put the <available_knowledge_packs> catalog block first (context keeps at least 70% of the budget)',
  'no-guide': 'leave out each pack’s guide (its KNOWLEDGE.md body), included by default when it fits',
};

export const SCOPE_HELP: Record<string, string> = {
  'workspace-root': 'the workspace .agents/knowledge directory (default: <project>/.agents/knowledge)',
  'user-root': 'the user knowledge directory (default: ~/.agents/knowledge)',
  'org-root': 'an organisation knowledge directory (repeatable; also org_roots in the user config)',
  'builtin-root': 'a built-in knowledge directory (maestro ships none)',
  'trust-workspace': 'trust the workspace packs (otherwise only if listed in the user config)',
  pack: 'select a pack explicitly by name or path (repeatable; paths contain / or start with .)',
  disable: 'never use <name> or <name>@<scope> (repeatable)',
  approve: 'approve an untrusted workspace pack by name (repeatable; non-interactive answer)',
  confirm: 'confirm a draft or disputed pack by name (repeatable; non-interactive answer)',
  'no-gitignore': 'scan directories that .gitignore files exclude (honoured by default)',
};

export function strings(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
}

export function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** `--budget n`: a positive whole number of tokens (exit 2 otherwise). */
export function budgetOption(args: ParsedArgs, fallback: number): number {
  const raw = str(args, 'budget');
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1) {
    throw inputError('USAGE', `--budget must be a positive whole number of tokens (got ${JSON.stringify(raw)})`, {
      hint: 'for example --budget 1500',
    });
  }
  return Number(raw);
}

/**
 * Builds the scope options from flags, defaults and the user config
 * (`$XDG_CONFIG_HOME/maestro/packs.json` or `~/.config/maestro/packs.json`).
 */
export async function scopeOptions(ctx: CommandContext, args: ParsedArgs): Promise<PackScopeOptions> {
  const { defaultConfigPath } = await import('@maestro/packs/light');
  const home = ctx.env.HOME || homedir();
  const configPath = defaultConfigPath(ctx.env);
  // Without a config file the pack code is not loaded here (the prompt hook runs on every prompt).
  const packs = existsSync(configPath) ? await import('@maestro/packs') : null;
  const config = packs
    ? packs.loadPacksConfig(configPath, ctx.env)
    : { orgRoots: [], disabled: [], trustedWorkspaces: [] };
  const at = (p: string | undefined) => (p === undefined ? undefined : resolve(ctx.cwd, p));
  const workspaceRoot = at(str(args, 'workspace-root')) ?? join(ctx.root, '.agents', 'knowledge');
  return {
    cwd: ctx.cwd,
    home,
    workspaceRoot,
    userRoot: at(str(args, 'user-root')) ?? join(home, '.agents', 'knowledge'),
    orgRoots: [...strings(args, 'org-root').map((p) => resolve(ctx.cwd, p)), ...config.orgRoots],
    builtinRoot: at(str(args, 'builtin-root')) ?? null,
    workspaceTrusted:
      args.values['trust-workspace'] === true ||
      (packs !== null && packs.isWorkspaceTrusted(workspaceRoot, config.trustedWorkspaces)),
    approve: strings(args, 'approve'),
    packs: strings(args, 'pack'),
    disable: [...strings(args, 'disable'), ...config.disabled],
    gitignore: args.values['no-gitignore'] !== true,
  };
}

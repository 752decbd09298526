import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { budgetOption, SCOPE_HELP, SCOPE_OPTIONS, scopeOptions, strings } from './pack-args.js';

const usage = 'maestro pack guide <name|path> [--budget tokens] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'The guide tier: a pack’s KNOWLEDGE.md body and resource listing, wrapped as data (the activation tool)',
  options: { budget: { type: 'string' }, ...SCOPE_OPTIONS },
  optionHelp: {
    budget: 'hard token budget for the whole block (default 2000); usage and boundary sections are kept first',
    ...SCOPE_HELP,
  },
  examples: [
    'maestro pack guide acme-widget',
    'maestro pack guide ./.agents/knowledge/acme-widget --budget 800 --json',
  ],
  async run(ctx, args) {
    if (args.positionals.length !== 1) {
      throw inputError(
        'USAGE',
        args.positionals.length === 0 ? 'missing <name|path>' : `unexpected argument "${args.positionals[1]}"`,
        { hint: `usage: ${usage}` },
      );
    }
    const { DEFAULT_BUDGET, packGuide } = await import('@maestro/packs');
    const out = packGuide({
      ...(await scopeOptions(ctx, args)),
      pack: args.positionals[0],
      budget: budgetOption(args, DEFAULT_BUDGET),
      confirm: strings(args, 'confirm'),
    });
    return { data: out, text: out.context.trimEnd(), warnings: out.warnings };
  },
};

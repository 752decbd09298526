import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { budgetOption, SCOPE_HELP, SCOPE_OPTIONS, scopeOptions } from './pack-args.js';

const usage = 'maestro pack catalog [--budget tokens] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'The catalog tier: an <available_knowledge_packs> block of activatable packs for a model (metadata only)',
  options: { budget: { type: 'string' }, ...SCOPE_OPTIONS },
  optionHelp: {
    budget: 'hard token budget for the block (default 2000); packs that do not fit are named in its last line',
    ...SCOPE_HELP,
  },
  examples: ['maestro pack catalog', 'maestro pack catalog --budget 600 --json'],
  async run(ctx, args) {
    if (args.positionals.length > 0)
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    const { DEFAULT_BUDGET, packCatalog } = await import('@maestro/packs');
    const out = packCatalog({ ...(await scopeOptions(ctx, args)), budget: budgetOption(args, DEFAULT_BUDGET) });
    const warnings = out.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message);
    if (out.omitted.length > 0)
      warnings.push(`${out.omitted.length} pack(s) left out to stay within the budget: ${out.omitted.join(', ')}`);
    return { data: out, text: out.context.trimEnd(), warnings };
  },
};

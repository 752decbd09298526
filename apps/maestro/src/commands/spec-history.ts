import { loadCorpus, lookupCorpus, specHistory } from '@maestro/spec/read';
import type { CommandModule } from '../kit.js';
import { historyText, positionals } from './spec-cli.js';

const usage = 'maestro spec history <sid>';

export const command: CommandModule = {
  usage,
  summary: 'Show the supersession chain through a spec entry',
  options: {},
  optionHelp: {},
  examples: ['maestro spec history S-20260101-ab12'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['sid'], 1, usage);
    const warnings: string[] = [];
    const h = specHistory(lookupCorpus(ctx.layout, [id], { links: true }) ?? loadCorpus(ctx.layout), id, warnings);
    return { data: h, text: historyText(h, 'maestro spec health'), warnings };
  },
};

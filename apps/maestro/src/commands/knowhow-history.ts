import { knowhowHistory, loadCorpus } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { historyText, positionals } from './spec-cli.js';

const usage = 'maestro knowhow history <id>';

export const command: CommandModule = {
  usage,
  summary: 'Show the supersession chain through a knowhow document',
  options: {},
  optionHelp: {},
  examples: ['maestro knowhow history knowhow-tip-20260501-retry-with-jitter --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const warnings: string[] = [];
    const h = knowhowHistory(loadCorpus(ctx.layout), id, warnings);
    return { data: h, text: historyText(h, 'maestro knowhow list'), warnings };
  },
};

import { loadCorpus, lookupCorpus, requireEntry } from '@maestro/spec/read';
import type { CommandModule } from '../kit.js';
import { entryText, positionals } from './spec-cli.js';

const usage = 'maestro spec show <id>';

export const command: CommandModule = {
  usage,
  summary: 'Show one spec entry by sid (or derived D-… id)',
  options: {},
  optionHelp: {},
  examples: ['maestro spec show S-20260501-ab12', 'maestro spec show S-20260501-ab12 --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const warnings: string[] = [];
    const corpus = lookupCorpus(ctx.layout, [id]) ?? loadCorpus(ctx.layout);
    const entry = requireEntry(corpus, id, 'spec', warnings);
    return { data: { entry }, text: entryText(entry), warnings };
  },
};

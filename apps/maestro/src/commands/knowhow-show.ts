import { loadCorpus, lookupCorpus, requireEntry } from '@maestro/spec/read';
import type { CommandModule } from '../kit.js';
import { entryText, positionals } from './spec-cli.js';

const usage = 'maestro knowhow show <id>';

export const command: CommandModule = {
  usage,
  summary: 'Show a knowhow document by id, file stem or explicit id',
  options: {},
  optionHelp: {},
  examples: [
    'maestro knowhow show knowhow-tip-20260501-retry-with-jitter',
    'maestro knowhow show TIP-20260501-retry-with-jitter',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const warnings: string[] = [];
    const entry = requireEntry(lookupCorpus(ctx.layout, [id]) ?? loadCorpus(ctx.layout), id, 'knowhow', warnings);
    return { data: { entry }, text: entryText(entry), warnings };
  },
};

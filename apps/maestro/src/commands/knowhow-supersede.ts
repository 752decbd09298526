import { supersedeKnowhow } from '@maestro/spec';
import { aliasWarnings, type CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, requiredString, writeOptions } from './spec-cli.js';

const usage = 'maestro knowhow supersede <old-id> --by <new-id>';

export const command: CommandModule = {
  usage,
  summary: 'Mark a knowhow document as superseded by a newer one (both sides are written)',
  options: { by: { type: 'string' } },
  optionHelp: { by: 'the id of the replacement (required)' },
  examples: ['maestro knowhow supersede knowhow-tip-20260101-retry --by knowhow-tip-20260501-retry-with-jitter'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [old] = positionals(args, ['old-id'], 1, usage);
    const by = requiredString(args, 'by', usage);
    const r = await supersedeKnowhow(ctx.layout, old, by, ctx.runtime, writeOptions(ctx));
    return {
      data: r,
      text: r.changed
        ? `${green('✓')} Superseded: ${r.old} → ${r.new}`
        : `Replayed: ${r.old} → ${r.new} (nothing changed)`,
      warnings: aliasWarnings([old, r.old], [by, r.new]),
    };
  },
};

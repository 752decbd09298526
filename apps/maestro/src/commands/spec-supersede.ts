import { supersedeEntry } from '@maestro/spec';
import { aliasWarnings, type CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, requiredString, writeOptions } from './spec-cli.js';

const usage = 'maestro spec supersede <old-sid> --by <new-sid>';

export const command: CommandModule = {
  usage,
  summary: 'Mark an entry as superseded by a newer one (both sides are written)',
  options: { by: { type: 'string' } },
  optionHelp: { by: 'the sid of the replacement (required)' },
  examples: ['maestro spec supersede S-20260101-ab12 --by S-20260501-cd34'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [old] = positionals(args, ['old-sid'], 1, usage);
    const by = requiredString(args, 'by', usage);
    const r = await supersedeEntry(ctx.layout, old, by, ctx.runtime, writeOptions(ctx));
    const text = r.changed
      ? `${green('✓')} Superseded ${r.old} → ${r.new}. Old entry marked deprecated (excluded from search and load).`
      : `Already superseded: ${r.old} → ${r.new} (nothing changed)`;
    return { data: r, text, warnings: aliasWarnings([old, r.old], [by, r.new]) };
  },
};

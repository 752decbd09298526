import { backfillSids } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, writeOptions } from './spec-cli.js';

const usage = 'maestro spec backfill-sid';

export const command: CommandModule = {
  usage,
  summary: 'Give every <spec-entry> without a sid a new unique sid (safe to rerun)',
  options: {},
  optionHelp: {},
  examples: ['maestro spec backfill-sid', 'maestro spec backfill-sid --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    positionals(args, [], 0, usage);
    const r = await backfillSids(ctx.layout, ctx.runtime, writeOptions(ctx));
    const lines =
      r.count === 0
        ? ['All entries already have a sid.']
        : [
            `${green('✓')} Assigned sid to ${r.count} entr${r.count === 1 ? 'y' : 'ies'}.`,
            ...r.assigned.map((a) => `  ${a.sid}  .workflow/${a.file}:${a.line}`),
          ];
    if (r.legacySkipped)
      lines.push(
        `${r.legacySkipped} legacy "### [category] [date]" entr${r.legacySkipped === 1 ? 'y has' : 'ies have'} no tag to hold a sid; convert them to <spec-entry> blocks.`,
      );
    return { data: r, text: lines.join('\n') };
  },
};

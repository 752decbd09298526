import { markConflict } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, requiredString, writeOptions } from './spec-cli.js';

const usage = 'maestro spec conflict mark <id> --note <text>';

export const command: CommandModule = {
  usage,
  summary: 'Mark a spec entry as contested (confidence, CMK- marker, note, date)',
  options: { note: { type: 'string' } },
  optionHelp: { note: 'why the entry is contested (required)' },
  examples: ['maestro spec conflict mark S-20260101-ab12 --note "contradicts S-20260301-cd34 on retries"'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const note = requiredString(args, 'note', usage);
    const r = await markConflict(ctx.layout, id, note, ctx.runtime, writeOptions(ctx));
    const text = r.changed
      ? `${green('✓')} Marked ${r.id} as contested (${r.marker})`
      : `${r.id} is already contested with this note (nothing changed)`;
    return { data: r, text };
  },
};

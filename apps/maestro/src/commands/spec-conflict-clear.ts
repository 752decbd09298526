import { clearConflict } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, writeOptions } from './spec-cli.js';

const usage = 'maestro spec conflict clear <id>';

export const command: CommandModule = {
  usage,
  summary: 'Remove the contested marker, note and date from a spec entry',
  options: {},
  optionHelp: {},
  examples: ['maestro spec conflict clear S-20260101-ab12'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const r = await clearConflict(ctx.layout, id, ctx.runtime, writeOptions(ctx));
    return {
      data: r,
      text: r.changed
        ? `${green('✓')} Cleared the conflict on ${r.id}`
        : `${r.id} has no conflict marker (nothing changed)`,
    };
  },
};

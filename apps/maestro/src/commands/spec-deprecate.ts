import { deprecateEntry } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { positionals, stringOption, writeOptions } from './spec-cli.js';

const usage = 'maestro spec deprecate <id> [--reason r]';

export const command: CommandModule = {
  usage,
  summary: 'Deprecate a spec entry (kept in the file, excluded from search and load)',
  options: { reason: { type: 'string' } },
  optionHelp: { reason: 'why; stored as deprecated-reason="..."' },
  examples: ['maestro spec deprecate S-20260101-ab12 --reason "replaced by the new auth flow"'],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id] = positionals(args, ['id'], 1, usage);
    const r = await deprecateEntry(
      ctx.layout,
      id,
      stringOption(args, 'reason') ?? null,
      ctx.runtime,
      writeOptions(ctx),
    );
    const text = r.changed
      ? `${green('✓')} Deprecated ${r.id} in .workflow/${r.file}`
      : `${r.id} is already deprecated (nothing changed)`;
    return { data: r, text };
  },
};

import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';

const usage = 'maestro memory delete <id...> [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Forget memories for good: removed with their history, no copy left in the store',
  options: { ...AGENT_OPTION },
  optionHelp: { ...AGENT_HELP },
  examples: ['maestro memory delete M-0123456789', 'maestro memory delete M-0123456789 M-abcdefghij --json'],
  async run(ctx, args) {
    const { deleteMemories } = await import('@maestro/memory');
    const r = await deleteMemories(memoryTarget(ctx, args), args.positionals);
    return { data: r, text: `${green('✓')} Deleted ${r.deleted.join(', ')}` };
  },
};

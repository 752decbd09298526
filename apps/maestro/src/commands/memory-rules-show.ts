import type { CommandModule } from '../kit.js';
import { atMostPositionals } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';
import { rulesText } from './memory-rules-text.js';

const usage = 'maestro memory rules show [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Show what this agent remembers and what it never stores',
  options: { ...AGENT_OPTION },
  optionHelp: { ...AGENT_HELP },
  examples: ['maestro memory rules show', 'maestro memory rules show --json'],
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const { showRules } = await import('@maestro/memory');
    const r = showRules(memoryTarget(ctx, args));
    return { data: r, text: rulesText(r) };
  },
};

import type { CommandModule } from '../kit.js';
import { onePositional } from './ledger-args.js';
import { ROOT_HELP, ROOT_OPTIONS, skillRoots } from './skill-args.js';

const usage = 'maestro skill load <name> [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Print a skill’s instructions as a <skill_content> block, resources listed (never a knowledge wrapper)',
  options: { ...ROOT_OPTIONS },
  optionHelp: { ...ROOT_HELP },
  examples: ['maestro skill load deploy-preview'],
  async run(ctx, args) {
    const name = onePositional(args, 'name', usage);
    const { loadSkill } = await import('@maestro/skills');
    const loaded = loadSkill(ctx.layout, skillRoots(ctx, args), name);
    return { data: loaded, text: loaded.rendered };
  },
};

import { gitSetupStatus } from '@maestro/git';
import type { CommandModule } from '../kit.js';
import { setupData, setupText } from './git-text.js';

export const command: CommandModule = {
  usage: 'maestro git status',
  summary: 'Show whether the Maestro merge driver is set up in this repository',
  options: {},
  optionHelp: {},
  examples: ['maestro git status', 'maestro git status --json'],
  needsWorkflow: true,
  async run(ctx) {
    const r = gitSetupStatus(ctx.root);
    return { data: setupData('status', r), text: setupText('status', r) };
  },
};

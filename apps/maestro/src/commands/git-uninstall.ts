import { uninstallGitMerge } from '@maestro/git';
import type { CommandModule } from '../kit.js';
import { setupData, setupText } from './git-text.js';

export const command: CommandModule = {
  usage: 'maestro git uninstall',
  summary: 'Remove exactly the .gitattributes lines and git config that `maestro git install` wrote',
  options: {},
  optionHelp: {},
  examples: ['maestro git uninstall'],
  needsWorkflow: true,
  async run(ctx) {
    const r = await uninstallGitMerge(ctx.root);
    return { data: setupData('uninstall', r), text: setupText('uninstall', r) };
  },
};

import { inputError } from '@maestro/core';
import { installGitMerge } from '@maestro/git';
import type { CommandModule } from '../kit.js';
import { defaultDriverCommand, setupData, setupText } from './git-text.js';

export const command: CommandModule = {
  usage: 'maestro git install [--driver-command "<cmd> %O %A %B %L %P"]',
  summary: 'Use the Maestro merge driver for specs and knowhow in this repository (idempotent)',
  options: { 'driver-command': { type: 'string' } },
  optionHelp: {
    'driver-command': 'the command git runs (default: this maestro binary by absolute path, with %O %A %B %L %P)',
  },
  examples: ['maestro git install', 'maestro git install --driver-command "maestro merge-driver %O %A %B %L %P"'],
  needsWorkflow: true,
  async run(ctx, args) {
    const given = args.values['driver-command'] as string | undefined;
    if (given !== undefined && !/%A/.test(given)) {
      throw inputError('USAGE', `--driver-command must pass git's placeholders (got "${given}")`, {
        hint: 'e.g. --driver-command "maestro merge-driver %O %A %B %L %P"',
      });
    }
    const cmd = given ?? defaultDriverCommand();
    const r = await installGitMerge(ctx.root, cmd);
    return { data: setupData('install', r), text: setupText('install', r) };
  },
};

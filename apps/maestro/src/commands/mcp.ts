import { inputError } from '@maestro/core';
import { version } from '../cli.js';
import type { CommandModule } from '../kit.js';
import { SCOPE_HELP, SCOPE_OPTIONS, scopeOptions } from './pack-args.js';
import { skillRoots } from './skill-args.js';

export const command: CommandModule = {
  usage: 'maestro mcp [--workflow-root dir] [pack scope options]',
  summary: 'Serve Maestro knowledge tools to an agent over stdio (MCP); stdout is the protocol channel',
  options: { ...SCOPE_OPTIONS },
  optionHelp: { ...SCOPE_HELP },
  examples: ['maestro mcp', 'claude mcp add maestro -- maestro mcp --workflow-root /path/to/project'],
  async run(ctx, args) {
    if (args.positionals.length > 0 || ctx.json) {
      throw inputError('USAGE', 'maestro mcp takes no arguments and no --json (it speaks MCP on stdout)', {
        hint: 'register it with your agent, e.g. `claude mcp add maestro -- maestro mcp`',
      });
    }
    const [{ serveStdio }, scopes] = await Promise.all([import('@maestro/mcp'), scopeOptions(ctx, args)]);
    await serveStdio({ layout: ctx.layout, runtime: ctx.runtime, scopes, skills: skillRoots(ctx, args) }, version());
    return { data: null, text: '' };
  },
};

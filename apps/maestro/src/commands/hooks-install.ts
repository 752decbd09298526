import type { CommandModule } from '../kit.js';
import { HOOKS_HELP, HOOKS_OPTIONS, hooksTarget } from './hooks-args.js';
import { str } from './pack-args.js';

export const command: CommandModule = {
  usage: 'maestro hooks install --agent claude|codex [--scope project|user] [--maestro <command>] [--json]',
  summary: "Install Maestro's session, prompt and stop hooks into Claude Code's or Codex's hook file",
  options: { ...HOOKS_OPTIONS, maestro: { type: 'string' } },
  optionHelp: {
    ...HOOKS_HELP,
    maestro: 'how the agent starts maestro (default: maestro, found on PATH), e.g. "npx maestro"',
  },
  examples: ['maestro hooks install --agent claude', 'maestro hooks install --agent codex --scope user'],
  async run(ctx, args) {
    const { installHooks } = await import('@maestro/hooks');
    const r = await installHooks(await hooksTarget(ctx, args), str(args, 'maestro') ?? 'maestro');
    const text = r.changed
      ? `installed ${r.events.join(', ')} in ${r.file} (other hooks and comments kept; undo: maestro hooks uninstall --agent ${r.agent}${r.scope === 'user' ? ' --scope user' : ''})`
      : `already installed in ${r.file}; nothing changed`;
    return { data: { command: 'install', ...r }, text };
  },
};

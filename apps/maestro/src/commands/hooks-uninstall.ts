import type { CommandModule } from '../kit.js';
import { HOOKS_HELP, HOOKS_OPTIONS, hooksTarget } from './hooks-args.js';

const HOW: Record<string, string> = {
  restored: 'restored the file as it was before install',
  edited: 'removed only our hooks; everything else kept',
  unchanged: 'no Maestro hook found; nothing changed',
  absent: 'the file does not exist; nothing changed',
};

export const command: CommandModule = {
  usage: 'maestro hooks uninstall --agent claude|codex [--scope project|user] [--json]',
  summary: "Remove Maestro's hooks (original bytes back if the file is untouched since install)",
  options: HOOKS_OPTIONS,
  optionHelp: HOOKS_HELP,
  examples: ['maestro hooks uninstall --agent claude'],
  async run(ctx, args) {
    const { uninstallHooks } = await import('@maestro/hooks');
    const r = await uninstallHooks(await hooksTarget(ctx, args));
    return { data: { command: 'uninstall', ...r }, text: `${r.file}: ${HOW[r.how]}` };
  },
};

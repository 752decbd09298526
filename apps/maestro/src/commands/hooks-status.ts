import type { Agent } from '@maestro/hooks';
import type { CommandModule } from '../kit.js';
import { HOOKS_HELP, HOOKS_OPTIONS, hooksTarget } from './hooks-args.js';
import { str } from './pack-args.js';

export const command: CommandModule = {
  usage: 'maestro hooks status [--agent claude|codex] [--scope project|user] [--json]',
  summary: 'Show which Maestro hooks are installed where, for each agent and scope',
  options: HOOKS_OPTIONS,
  optionHelp: { ...HOOKS_HELP, agent: 'only this agent (default: both)', scope: 'only this scope (default: both)' },
  examples: ['maestro hooks status', 'maestro hooks status --agent codex --json'],
  async run(ctx, args) {
    const { hooksStatus } = await import('@maestro/hooks');
    const agents: Agent[] = str(args, 'agent') ? [(await hooksTarget(ctx, args)).agent] : ['claude', 'codex'];
    const scopes = str(args, 'scope')
      ? [(await hooksTarget(ctx, args, 'claude')).scope]
      : (['project', 'user'] as const);
    const hooks = [];
    for (const agent of agents) {
      for (const scope of scopes) {
        const t = await hooksTarget(ctx, { ...args, values: { ...args.values, scope } }, agent);
        try {
          hooks.push({ ...hooksStatus(t), error: null });
        } catch (err) {
          const at = (err as { location?: { file: string; line?: number; column?: number } }).location;
          const where = at?.line ? ` at line ${at.line}${at.column ? `, column ${at.column}` : ''}` : '';
          hooks.push({
            agent,
            scope,
            file: at?.file ?? '',
            exists: true,
            installed: [],
            missing: [],
            others: {},
            error: `${(err as Error).message}${where}`,
          });
        }
      }
    }
    const lines = hooks.map((h) => {
      if (h.error) return `${h.agent} ${h.scope}: ${h.error}`;
      if (!h.exists) return `${h.agent} ${h.scope}: not installed (${h.file} does not exist)`;
      const others = Object.entries(h.others).map(([e, n]) => `${e} ${n}`);
      const state =
        h.installed.length === 0
          ? 'not installed'
          : h.missing.length
            ? `partly installed (missing ${h.missing.join(', ')})`
            : 'installed';
      return `${h.agent} ${h.scope}: ${state} in ${h.file}${others.length ? `; other hooks kept: ${others.join(', ')}` : ''}`;
    });
    return { data: { hooks }, text: lines.join('\n') };
  },
};

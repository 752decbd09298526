import type { CommandModule } from '../kit.js';
import { onePositional, optionalString } from './ledger-args.js';
import { actor } from './skill-args.js';

/** `skill disable` and `skill enable` share one shape; the history keeps every toggle. */
export function toggleCommand(disabled: boolean): CommandModule {
  const verb = disabled ? 'disable' : 'enable';
  const usage = `maestro skill ${verb} <name> [--reason r] [--json]`;
  return {
    usage,
    summary: disabled
      ? 'Hide a skill from agents (history and versions kept)'
      : 'List a disabled skill to agents again',
    options: { reason: { type: 'string' } },
    optionHelp: { reason: 'why (kept in the history)' },
    examples: [`maestro skill ${verb} deploy-preview --reason "…"`],
    needsWorkflow: true,
    async run(ctx, args) {
      const name = onePositional(args, 'name', usage);
      const { setSkillDisabled } = await import('@maestro/skills');
      const reason = optionalString(args, 'reason');
      const r = await setSkillDisabled(
        ctx.layout,
        { name, disabled, by: actor(ctx), ...(reason ? { reason } : {}) },
        ctx.runtime,
      );
      return {
        data: r,
        text: r.changed
          ? `${name} is ${disabled ? 'disabled' : 'enabled'}.`
          : `${name} was already ${disabled ? 'disabled' : 'enabled'}; nothing changed.`,
      };
    },
  };
}

export const command = toggleCommand(true);

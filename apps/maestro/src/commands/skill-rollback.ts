import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { onePositional, optionalString } from './ledger-args.js';
import { actor, versionOption } from './skill-args.js';

const usage = 'maestro skill rollback <name> --to V --expect CURRENT [--reason r] [--force] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Make an older version current again, only if --expect is still current (exit 1 otherwise)',
  options: {
    to: { type: 'string' },
    expect: { type: 'string' },
    reason: { type: 'string' },
    force: { type: 'boolean' },
  },
  optionHelp: {
    to: 'the version to make current',
    expect: 'the version you believe is current; refused if another change landed since',
    reason: 'why (kept in the history)',
    force: 'replace a working copy edited since the last release (backed up first)',
  },
  examples: ['maestro skill rollback deploy-preview --to 2 --expect 3 --reason "v3 breaks preview URLs"'],
  needsWorkflow: true,
  async run(ctx, args) {
    const name = onePositional(args, 'name', usage);
    const to = versionOption(args, 'to', usage);
    const expect = versionOption(args, 'expect', usage);
    const { rollbackSkill } = await import('@maestro/skills');
    const reason = optionalString(args, 'reason');
    const r = await rollbackSkill(
      ctx.layout,
      { name, to, expect, by: actor(ctx), force: args.values.force === true, ...(reason ? { reason } : {}) },
      ctx.runtime,
    );
    const text = r.changed
      ? [
          `${green('Rolled back')} ${name}: v${r.from} → v${r.to}`,
          ...(r.backup ? [dim(`  replaced files backed up to ${r.backup}`)] : []),
        ].join('\n')
      : `${name} is already at v${r.to}; nothing changed.`;
    return { data: r, text };
  },
};

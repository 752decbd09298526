import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { atMostPositionals, requiredOption } from './ledger-args.js';
import { actor } from './skill-args.js';

const usage = 'maestro skill release <name> <candidate> --reason "…" [--allow-near-duplicate] [--force] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Release an evaluated candidate as the next version (a person’s act; locked, journaled, replay-safe)',
  options: { reason: { type: 'string' }, 'allow-near-duplicate': { type: 'boolean' }, force: { type: 'boolean' } },
  optionHelp: {
    reason: 'why this version is released (required; kept in the history)',
    'allow-near-duplicate': 'release a candidate whose description nearly duplicates another skill',
    force: 'replace a working copy edited since the last release (backed up to .workflow/.trash/ first)',
  },
  examples: ['maestro skill release deploy-preview SKC-0123456789abcdef --reason "evaluated on 12 previews"'],
  needsWorkflow: true,
  async run(ctx, args) {
    atMostPositionals(args, 2, usage);
    const [name, candidate] = args.positionals;
    if (!name || !candidate) throw inputError('USAGE', 'missing <name> or <candidate>', { hint: `usage: ${usage}` });
    const reason = requiredOption(args, 'reason', usage);
    const { releaseSkill } = await import('@maestro/skills');
    const r = await releaseSkill(
      ctx.layout,
      {
        name,
        candidate,
        reason,
        by: actor(ctx),
        allowNearDuplicate: args.values['allow-near-duplicate'] === true,
        force: args.values.force === true,
      },
      ctx.runtime,
    );
    const text = r.replayed
      ? `Replayed: ${candidate} is already version ${r.version} of ${name}; nothing written.`
      : [
          `${green('Released')} ${name} v${r.version}${r.previous === null ? '' : ` (was v${r.previous})`} from ${candidate}`,
          ...(r.backup ? [dim(`  replaced working-copy files backed up to ${r.backup}`)] : []),
          ...(r.recovered ? [dim('  an interrupted earlier commit was finished first')] : []),
        ].join('\n');
    return { data: r, text };
  },
};

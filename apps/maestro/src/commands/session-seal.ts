import { sealSession } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { onePositional, problemLine } from './ledger-args.js';

const usage = 'maestro session seal <session-id>';

export const command: CommandModule = {
  usage,
  summary: 'Seal a session once every run is sealed; reports the knowledge backlog, changes no candidate',
  options: {},
  optionHelp: {},
  examples: ['maestro session seal 20260101-auth', 'maestro session seal 20260101-auth --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    const id = onePositional(args, 'session-id', usage);
    const r = await sealSession(ctx.layout, id, ctx.runtime);
    const k = r.knowledge;
    const lines = [
      r.already_sealed
        ? `Session ${r.session_id} was already sealed (${r.sealed_at}); nothing changed`
        : `${green('✓')} Sealed session ${r.session_id} with ${r.run_count} run(s)`,
      `Knowledge backlog: ${k.pending_candidates} pending · ${k.corroborated_candidates} corroborated · ${k.review_required_candidates} review-required · ${k.unreconciled_candidates} unreconciled · ${k.promoting_candidates} promoting · ${k.promoted_candidates} promoted · ${k.rejected_candidates} rejected`,
    ];
    if (k.pending_candidates) lines.push(dim(`next: ${k.review_command}`));
    return { data: r, text: lines.join('\n'), warnings: r.problems.map(problemLine) };
  },
};

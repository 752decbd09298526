import type { CommandModule } from '../kit.js';
import { dim, yellow } from '../style.js';
import { onePositional } from './ledger-args.js';

const usage = 'maestro skill status <name> [--json]';

export const command: CommandModule = {
  usage,
  summary: 'A skill’s current version, versions, candidates with their evaluations, and working-copy drift',
  options: {},
  optionHelp: {},
  examples: ['maestro skill status deploy-preview'],
  needsWorkflow: true,
  async run(ctx, args) {
    const name = onePositional(args, 'name', usage);
    const { skillStatus } = await import('@maestro/skills');
    const s = skillStatus(ctx.layout, name);
    const lines = [
      `${name}: ${s.current === null ? 'no released version' : `v${s.current}`}${s.disabled ? ' [DISABLED]' : ''}`,
      ...s.versions.map(
        (v) =>
          `  v${v.version}${v.version === s.current ? ' ● current' : ''} ${dim(`${v.released_at} by ${v.released_by} from ${v.session_id}/${v.run_id}: ${v.reason}`)}`,
      ),
      ...s.candidates.map(
        (c) =>
          `  candidate ${c.candidate_id} ${c.verdict}${c.released_as === null ? '' : ` → v${c.released_as}`} ${dim(c.evaluation ? `evaluation ${c.evaluation.passed ? 'passed' : 'FAILED'} ${c.evaluation.pass_count}/${c.evaluation.pass_count + c.evaluation.fail_count}` : 'not evaluated')}`,
      ),
    ];
    if (s.working_copy.drift.length)
      lines.push(yellow(`  working copy differs from v${s.current}: ${s.working_copy.drift.join(', ')}`));
    if (s.pending_commit)
      lines.push(yellow('  an interrupted release/rollback is pending; the next skill write finishes it'));
    return { data: s, text: lines.join('\n') };
  },
};

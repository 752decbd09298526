import { showSession } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { bold, dim } from '../style.js';
import { onePositional, problemLine } from './ledger-args.js';

const usage = 'maestro session show <session-id>';

export const command: CommandModule = {
  usage,
  summary: 'Show a session: runs, staged candidates (observed/corroborated), recorded inputs, backlog',
  options: {},
  optionHelp: {},
  examples: ['maestro session show 20260101-auth', 'maestro session show 20260101-auth --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    const id = onePositional(args, 'session-id', usage);
    const r = showSession(ctx.layout, id);
    const lines = [
      `${bold(`Session ${r.session.session_id}`)}  ${r.session.status}${r.session.title ? `  "${r.session.title}"` : ''}`,
      `Runs (${r.runs.length}):`,
      ...r.runs.map((run) => `  ${run.run_id}  ${run.status}${run.summary ? `  ${dim(run.summary)}` : ''}`),
      `Candidates (${r.summary.candidates.length}):`,
      ...r.summary.candidates.map(
        (c) =>
          `  ${c.candidate_id}  ${c.stage.padEnd(12)} ${c.status.padEnd(9)} ${c.target}/${c.action}  ${c.title}  ${dim(`×${c.occurrences} in ${c.run_ids.join(', ')}`)}`,
      ),
      `Inputs (${r.summary.inputs.length}):`,
      ...r.summary.inputs.map(
        (i) => `  ${i.knowledge_id}  ${i.signal}/${i.source}  ×${i.count}  ${dim(i.run_ids.join(', '))}`,
      ),
      `Backlog: ${r.knowledge.pending_candidates} pending (${r.knowledge.corroborated_candidates} corroborated, ${r.knowledge.review_required_candidates} review-required, ${r.knowledge.unreconciled_candidates} unreconciled)`,
      dim(`next: ${r.knowledge.review_command}`),
    ];
    return { data: r, text: lines.join('\n'), warnings: r.problems.map(problemLine) };
  },
};

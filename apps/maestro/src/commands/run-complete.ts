import { completeRun } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { dim, green, yellow } from '../style.js';
import { onePositional, optionalString, requiredOption } from './ledger-args.js';

const usage = 'maestro run complete <run-id> --session <session-id> [--summary <text>] [--seal]';

export const command: CommandModule = {
  usage,
  summary: "Complete a run: stage report.md's accepted decisions and locked constraints as candidates",
  options: { session: { type: 'string' }, summary: { type: 'string' }, seal: { type: 'boolean' } },
  optionHelp: {
    session: 'the session (required)',
    summary: 'one line about what the run did',
    seal: 'also seal the run (sealed runs are immutable and can be promoted from)',
  },
  examples: ['maestro run complete 20260101-001-plan --session 20260101-auth --summary "planned" --seal'],
  needsWorkflow: true,
  async run(ctx, args) {
    const runId = onePositional(args, 'run-id', usage);
    const sessionId = requiredOption(args, 'session', `maestro run complete ${runId} --session <session-id>`);
    const r = await completeRun(
      ctx.layout,
      { sessionId, runId, summary: optionalString(args, 'summary'), seal: args.values.seal === true },
      ctx.runtime,
    );
    const lines = [
      `${green('✓')} Run ${runId} ${r.status}; staged ${r.knowledge.staged_count} candidate(s) from ${r.report.found ? r.report.file : 'no report.md'}`,
      ...r.knowledge.staged_candidate_ids.map((id) => `  ${id}`),
      ...r.skipped.map((s) => yellow(`  skipped ${s.item_id} (${s.candidate_id}): ${s.reason}`)),
      dim('specs and knowhow were not changed; candidates wait for review and explicit promotion'),
      dim(`next: ${r.knowledge.review_command}`),
    ];
    if (r.status !== 'sealed') lines.push(dim(`seal: maestro run seal ${runId} --session ${sessionId}`));
    return { data: r, text: lines.join('\n') };
  },
};

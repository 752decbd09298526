import { sessionOverview } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { atMostPositionals, problemLine } from './ledger-args.js';

const usage = 'maestro session list';

export const command: CommandModule = {
  usage,
  summary: 'List sessions with their status and runs; damaged ones are reported and skipped',
  options: {},
  optionHelp: {},
  examples: ['maestro session list', 'maestro session list --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const result = sessionOverview(ctx.layout);
    const lines = result.sessions.length
      ? result.sessions.map(
          (s) =>
            `${s.session_id}  ${s.status.padEnd(7)}  ${s.run_count} run(s)${s.unsealed_runs ? `, ${s.unsealed_runs} unsealed` : ''}${s.title ? `  ${dim(s.title)}` : ''}`,
        )
      : result.problems.length
        ? [`No readable sessions: ${result.problems.length} damaged file(s), named in the warnings on stderr.`]
        : ['No sessions yet. Start one with `maestro session create --title "..."`.'];
    return { data: result, text: lines.join('\n'), warnings: result.problems.map(problemLine) };
  },
};

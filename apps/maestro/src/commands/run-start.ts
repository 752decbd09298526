import { startRun } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { atMostPositionals, optionalString, requiredOption } from './ledger-args.js';

const usage = 'maestro run start --session <session-id> [--id YYYYMMDD-NNN-command] [--command <name>]';

export const command: CommandModule = {
  usage,
  summary: 'Start a run in a session; knowledge is staged and recorded while it runs',
  options: { session: { type: 'string' }, id: { type: 'string' }, command: { type: 'string' } },
  optionHelp: {
    session: 'the session (required)',
    id: 'run id YYYYMMDD-NNN-command (default: today, the next number, the command)',
    command: 'what the run executes, e.g. plan or execute (default: run)',
  },
  examples: ['maestro run start --session 20260101-auth --command plan'],
  needsWorkflow: true,
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const sessionId = requiredOption(args, 'session', 'maestro run start --session 20260101-auth');
    const run = await startRun(
      ctx.layout,
      { sessionId, id: optionalString(args, 'id'), command: optionalString(args, 'command') },
      ctx.runtime,
    );
    const text = [
      `${green('✓')} Started run ${run.run_id} in session ${sessionId}`,
      dim(
        `stage what you learn: maestro knowledge stage spec "<title>" "<rule>" --session ${sessionId} --run ${run.run_id}`,
      ),
      dim(`finish: maestro run complete ${run.run_id} --session ${sessionId} --seal`),
    ].join('\n');
    return { data: run, text };
  },
};

import { sealRun } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { onePositional, requiredOption } from './ledger-args.js';

const usage = 'maestro run seal <run-id> --session <session-id>';

export const command: CommandModule = {
  usage,
  summary: 'Seal a completed run; a sealed run is immutable',
  options: { session: { type: 'string' } },
  optionHelp: { session: 'the session (required)' },
  examples: ['maestro run seal 20260101-001-plan --session 20260101-auth'],
  needsWorkflow: true,
  async run(ctx, args) {
    const runId = onePositional(args, 'run-id', usage);
    const sessionId = requiredOption(args, 'session', `maestro run seal ${runId} --session <session-id>`);
    const r = await sealRun(ctx.layout, sessionId, runId, ctx.runtime);
    const text = r.already_sealed
      ? `Run ${runId} was already sealed (${r.sealed_at}); nothing changed`
      : `${green('✓')} Sealed run ${runId}`;
    return { data: r, text };
  },
};

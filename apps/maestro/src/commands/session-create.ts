import { createSession } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { atMostPositionals, optionalString } from './ledger-args.js';

const usage = 'maestro session create [--id YYYYMMDD-slug] [--title <text>]';

export const command: CommandModule = {
  usage,
  summary: 'Start a session: the container for the runs of one piece of work',
  options: { id: { type: 'string' }, title: { type: 'string' } },
  optionHelp: {
    id: 'session id YYYYMMDD-slug (default: today plus a slug of the title)',
    title: 'what the session is about',
  },
  examples: ['maestro session create --title "Auth refactor"', 'maestro session create --id 20260101-auth --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const session = await createSession(
      ctx.layout,
      { id: optionalString(args, 'id'), title: optionalString(args, 'title') },
      ctx.runtime,
    );
    const text = [
      `${green('✓')} Created session ${session.session_id}${session.title ? ` "${session.title}"` : ''}`,
      dim(`next: maestro run start --session ${session.session_id} --command plan`),
    ].join('\n');
    return { data: session, text };
  },
};

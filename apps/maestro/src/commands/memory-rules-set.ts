import { splitList } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { allValues, atMostPositionals, optionalString } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';
import { rulesText } from './memory-rules-text.js';

const usage =
  'maestro memory rules set [--remember kinds] [--never <regex> ... [--reason text]] [--drop <rule id> ...] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Set what to remember and what never to remember (patterns refused at write time)',
  options: {
    ...AGENT_OPTION,
    remember: { type: 'string' },
    never: { type: 'string', multiple: true },
    reason: { type: 'string' },
    drop: { type: 'string', multiple: true },
  },
  optionHelp: {
    ...AGENT_HELP,
    remember: 'the kinds to store, comma-separated (task_state, decision, preference, experience)',
    never: 'a regular expression (case-insensitive) whose matches are refused; repeatable',
    reason: 'why, shown when a write is refused (for the --never patterns of this call)',
    drop: 'remove a rule by id (built-in secret rules always apply)',
  },
  examples: [
    'maestro memory rules set --never "customer-[0-9]{6}" --reason "no customer ids in memory"',
    'maestro memory rules set --remember decision,preference',
  ],
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const { setRules } = await import('@maestro/memory');
    const remember = optionalString(args, 'remember');
    const r = await setRules(memoryTarget(ctx, args), {
      remember: remember === undefined ? undefined : splitList(remember),
      never: allValues(args, 'never'),
      reason: optionalString(args, 'reason'),
      drop: splitList(allValues(args, 'drop')),
    });
    return { data: r, text: rulesText(r) };
  },
};

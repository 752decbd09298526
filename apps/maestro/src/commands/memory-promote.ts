import { inputError } from '@maestro/core';
import { parseTarget } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { optionalString, requiredOption } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';

const usage =
  'maestro memory promote <id...> --session S [--run R] [--target spec|knowhow] [--category c] [--contest <rule id> | --supersede <rule id>] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Stage memories as knowledge candidates for review (source_kind memory); never writes specs',
  options: {
    ...AGENT_OPTION,
    session: { type: 'string' },
    run: { type: 'string' },
    target: { type: 'string' },
    category: { type: 'string' },
    contest: { type: 'string' },
    supersede: { type: 'string' },
  },
  optionHelp: {
    ...AGENT_HELP,
    session: 'the session whose ledger receives the candidates (required)',
    run: 'a running run to stage on (default: start a run "memory-promote")',
    target: 'spec (default) or knowhow',
    category: 'spec category, e.g. arch',
    contest: 'stage a correction contesting this shared rule (the rule is untouched until a person decides)',
    supersede: 'stage a replacement superseding this shared rule',
  },
  examples: [
    'maestro memory promote M-0123456789 --session 20260101-billing',
    'maestro memory promote M-0123456789 --session 20260101-billing --contest S-20260101-ab12',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const session = requiredOption(args, 'session', 'maestro memory promote M-0123456789 --session 20260101-billing');
    const contest = optionalString(args, 'contest');
    const supersede = optionalString(args, 'supersede');
    if (contest !== undefined && supersede !== undefined) {
      throw inputError('USAGE', 'pass --contest or --supersede, not both', { hint: `usage: ${usage}` });
    }
    const target = optionalString(args, 'target');
    const { promoteMemories } = await import('@maestro/memory');
    const r = await promoteMemories(memoryTarget(ctx, args), {
      ids: args.positionals,
      session,
      run: optionalString(args, 'run'),
      target: target === undefined ? undefined : parseTarget(target),
      category: optionalString(args, 'category') ?? null,
      against:
        contest !== undefined
          ? { id: contest, action: 'contest' }
          : supersede !== undefined
            ? { id: supersede, action: 'supersede' }
            : undefined,
    });
    const lines = [
      `${green('✓')} Staged ${r.staged.length} candidate(s) on ${r.session_id}/${r.run_id}${r.run_started ? ' (new run)' : ''}`,
    ];
    for (const s of r.staged)
      lines.push(
        `  ${s.memory_id} → ${s.candidate_id} ${s.action}${s.against ? ` ${s.against}` : ''}${s.reused ? ' (already staged)' : ''}`,
      );
    lines.push(`next: ${r.next}`);
    return { data: r, text: lines.join('\n') };
  },
};

import { appendAll } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { atMostPositionals, optionalString } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget, recordLine, storeLine } from './memory-args.js';

const usage =
  'maestro memory list [--kind k] [--session S] [--path P] [--min-confidence c] [--contains text] [--suggest] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'List this agent’s memories; --suggest names the ones worth proposing to the team',
  options: {
    ...AGENT_OPTION,
    kind: { type: 'string' },
    session: { type: 'string' },
    path: { type: 'string' },
    'min-confidence': { type: 'string' },
    contains: { type: 'string' },
    suggest: { type: 'boolean' },
  },
  optionHelp: {
    ...AGENT_HELP,
    kind: 'only this kind',
    session: 'only memories scoped to this session',
    path: 'only memories whose path starts with this',
    'min-confidence': 'only memories at or above this confidence (0–1)',
    contains: 'only memories whose text contains this (case-insensitive)',
    suggest: 'also list memories recalled in 3+ sessions, never contradicted, not yet promoted (nothing is promoted)',
  },
  examples: ['maestro memory list', 'maestro memory list --kind decision --json', 'maestro memory list --suggest'],
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const { listMemories, parseKind, parseUnit } = await import('@maestro/memory');
    const kind = optionalString(args, 'kind');
    const min = optionalString(args, 'min-confidence');
    const r = listMemories(memoryTarget(ctx, args), {
      kind: kind === undefined ? undefined : parseKind(kind),
      session: optionalString(args, 'session'),
      path: optionalString(args, 'path'),
      minConfidence: min === undefined ? undefined : parseUnit(min, '--min-confidence'),
      contains: optionalString(args, 'contains'),
      suggest: args.values.suggest === true,
    });
    const lines = [`${r.records.length} of ${r.total} memor${r.total === 1 ? 'y' : 'ies'} for ${r.store.agent}`];
    appendAll(lines, r.records.map(recordLine));
    if (r.suggestions) {
      lines.push(
        '',
        r.suggestions.length ? 'Worth proposing to the team (a person decides):' : dim('No memory to suggest yet.'),
      );
      for (const s of r.suggestions) lines.push(`  ${s.id} recalled in ${s.sessions} sessions → ${s.command}`);
    }
    lines.push(storeLine(r.store));
    return { data: r, text: lines.join('\n') };
  },
};

import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { optionalString } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';

const usage = 'maestro memory recall "<prompt>" [--threshold 0.4] [--limit n] [--session S] [--no-record] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Recall this agent’s memories relevant to a prompt (relevance 0–1, default threshold 0.4)',
  options: {
    ...AGENT_OPTION,
    threshold: { type: 'string' },
    limit: { type: 'string' },
    session: { type: 'string' },
    'no-record': { type: 'boolean' },
  },
  optionHelp: {
    ...AGENT_HELP,
    threshold: 'minimum relevance 0–1 (default 0.4): idf-weighted shared terms over the smaller side',
    limit: 'at most this many memories (default 10)',
    session: 'the session recalling (counts towards `memory list --suggest`)',
    'no-record': 'do not update recall counts and times',
  },
  examples: [
    'maestro memory recall "which billing plan did we pick?"',
    'maestro memory recall "$PROMPT" --threshold 0.6 --json',
  ],
  async run(ctx, args) {
    const prompt = args.positionals.join(' ').trim();
    if (!prompt) throw inputError('USAGE', 'missing "<prompt>"', { hint: `usage: ${usage}` });
    const { parseUnit, recallMemories } = await import('@maestro/memory');
    const threshold = optionalString(args, 'threshold');
    const limitArg = optionalString(args, 'limit');
    const limit = limitArg === undefined ? undefined : Number(limitArg);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw inputError('INVALID_NUMBER', `--limit must be a whole number of at least 1 (got "${limitArg}")`, {
        hint: 'e.g. --limit 5',
      });
    }
    const r = await recallMemories(memoryTarget(ctx, args), prompt, {
      threshold: threshold === undefined ? undefined : parseUnit(threshold, '--threshold'),
      limit,
      session: optionalString(args, 'session'),
      record: args.values['no-record'] !== true,
    });
    const lines = r.hits.map(
      (h) => `${h.relevance.toFixed(2)}  ${h.id}  ${h.kind.padEnd(10)} ${h.text.replace(/\s+/g, ' ')}`,
    );
    if (lines.length === 0) lines.push(dim(`no memory of ${r.store.agent} reaches relevance ${r.threshold}`));
    return { data: r, text: lines.join('\n') };
  },
};

import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { onePositional, optionalString } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget, recordLine } from './memory-args.js';

const usage = 'maestro memory update <id> [--text "<text>"] [--kind k] [--confidence c] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Change a memory (the previous text stays in its history)',
  options: { ...AGENT_OPTION, text: { type: 'string' }, kind: { type: 'string' }, confidence: { type: 'string' } },
  optionHelp: {
    ...AGENT_HELP,
    text: 'the new text (checked against the memory rules)',
    kind: 'task_state, decision, preference or experience',
    confidence: 'confidence 0–1',
  },
  examples: ['maestro memory update M-0123456789 --text "The user chose plan C for billing"'],
  async run(ctx, args) {
    const id = onePositional(args, 'id', usage);
    const { parseKind, parseUnit, updateMemory } = await import('@maestro/memory');
    const kind = optionalString(args, 'kind');
    const confidence = optionalString(args, 'confidence');
    const r = await updateMemory(memoryTarget(ctx, args), id, {
      text: optionalString(args, 'text'),
      kind: kind === undefined ? undefined : parseKind(kind),
      confidence: confidence === undefined ? undefined : parseUnit(confidence, '--confidence'),
    });
    const head = r.changed.length ? `${green('✓')} Updated ${r.changed.join(', ')}` : 'Nothing changed';
    return { data: r, text: `${head}\n${recordLine(r.record)}` };
  },
};

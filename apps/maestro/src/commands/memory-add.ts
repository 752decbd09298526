import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { atMostPositionals, optionalString } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget, recordLine, storeLine } from './memory-args.js';

const usage =
  'maestro memory add "<text>" [--kind task_state|decision|preference|experience] [--session S] [--run R] [--path P] [--prompt text] [--corrects <knowledge id>] [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Remember a fact privately for this agent and project (checked against the memory rules)',
  options: {
    ...AGENT_OPTION,
    kind: { type: 'string' },
    session: { type: 'string' },
    run: { type: 'string' },
    path: { type: 'string' },
    prompt: { type: 'string' },
    confidence: { type: 'string' },
    corrects: { type: 'string' },
  },
  optionHelp: {
    ...AGENT_HELP,
    kind: 'task_state, decision, preference or experience (default experience)',
    session: 'the session the fact held in',
    run: 'the run the fact held in',
    path: 'the path the fact is about',
    prompt: 'the prompt the fact came from (a hook passes it)',
    confidence: 'initial confidence 0–1 (default 0.8)',
    corrects: 'the id of a shared rule this memory corrects (promote it later with --contest/--supersede)',
  },
  examples: [
    'maestro memory add "The user chose plan B for the billing migration" --kind decision --session 20260101-billing',
    'maestro memory add "Prefers small PRs with one commit each" --kind preference --agent claude-code',
  ],
  async run(ctx, args) {
    atMostPositionals(args, 1, usage);
    const text = args.positionals[0];
    if (text === undefined) throw inputError('USAGE', 'missing "<text>"', { hint: `usage: ${usage}` });
    const { addMemory, parseKind, parseUnit } = await import('@maestro/memory');
    const kind = optionalString(args, 'kind');
    const confidence = optionalString(args, 'confidence');
    const r = await addMemory(memoryTarget(ctx, args), {
      text,
      kind: kind === undefined ? undefined : parseKind(kind),
      session: optionalString(args, 'session') ?? null,
      run: optionalString(args, 'run') ?? null,
      path: optionalString(args, 'path') ?? null,
      prompt: optionalString(args, 'prompt') ?? null,
      confidence: confidence === undefined ? undefined : parseUnit(confidence, '--confidence'),
      corrects: optionalString(args, 'corrects') ?? null,
    });
    return {
      data: r,
      text: `${green('✓')} Remembered for ${r.store.agent}\n${recordLine(r.record)}\n${storeLine(r.store)}`,
    };
  },
};

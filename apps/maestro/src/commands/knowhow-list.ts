import { inputError, maxOf } from '@maestro/core';
import { KNOWHOW_TYPES, listKnowhow, loadCorpus } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { entrySummary, issueWarnings, positionals, stringOption } from './spec-cli.js';

const usage = 'maestro knowhow list [--type t]';

export const command: CommandModule = {
  usage,
  summary: 'List knowhow documents',
  options: { type: { type: 'string' } },
  optionHelp: { type: 'only this type (tip, recipe, reference, decision, document, ...)' },
  examples: ['maestro knowhow list', 'maestro knowhow list --type tip --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    positionals(args, [], 0, usage);
    const corpus = loadCorpus(ctx.layout);
    const type = stringOption(args, 'type') ?? null;
    const entries = listKnowhow(corpus, type);
    // A type outside the nine is still listed when documents carry it (maestro-flow projects do).
    if (type !== null && entries.length === 0 && !(type in KNOWHOW_TYPES)) {
      throw inputError('UNKNOWN_TYPE', `unknown knowhow type "${type}"`, {
        hint: `use one of: ${Object.keys(KNOWHOW_TYPES).join(', ')}`,
      });
    }
    const issues = corpus.issues.filter((i) => i.file.startsWith('.workflow/knowhow/'));
    const width = maxOf(
      entries.map((e) => e.id.length),
      8,
    );
    const lines = entries.map(
      (e) =>
        `${e.id.padEnd(width)}  ${`[${e.type ?? '-'}]`.padEnd(12)} ${e.title}${e.status === 'deprecated' ? dim(' (deprecated)') : ''}`,
    );
    lines.push(dim(`${entries.length} document(s)`));
    return {
      data: { entries: entries.map(entrySummary), count: entries.length, issues },
      text: lines.join('\n'),
      warnings: issueWarnings(issues),
    };
  },
};

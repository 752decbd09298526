import { inputError } from '@maestro/core';
import { listSpecs, loadCorpus, SPEC_CATEGORIES } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { entrySummary, issueWarnings, positionals, stringOption } from './spec-cli.js';

const usage = 'maestro spec list [--category c] [--include-deprecated]';

export const command: CommandModule = {
  usage,
  summary: 'List spec entries (parse problems are shown on stderr as warnings)',
  options: { category: { type: 'string' }, 'include-deprecated': { type: 'boolean' } },
  optionHelp: {
    category: 'only this category (coding, arch, debug, test, review, learning, ui, or any written value)',
    'include-deprecated': 'also list deprecated entries',
  },
  examples: ['maestro spec list', 'maestro spec list --category arch --include-deprecated --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    positionals(args, [], 0, usage);
    const corpus = loadCorpus(ctx.layout);
    const category = stringOption(args, 'category') ?? null;
    const entries = listSpecs(corpus, { category, includeDeprecated: args.values['include-deprecated'] === true });
    // A category outside the seven is still listed when entries carry it (maestro-flow projects do).
    if (category !== null && entries.length === 0 && !(SPEC_CATEGORIES as readonly string[]).includes(category)) {
      throw inputError('UNKNOWN_CATEGORY', `unknown category "${category}": no entry carries it`, {
        hint: `use one of: ${SPEC_CATEGORIES.join(', ')} (or a category your entries use; see \`maestro spec list\`)`,
      });
    }
    const data = { entries: entries.map(entrySummary), count: entries.length, issues: corpus.issues };
    const warnings = issueWarnings(corpus.issues);
    if (ctx.json) return { data, text: '', warnings };
    // reduce, not Math.max(...): a spread of 100k+ arguments can overflow the stack.
    const width = entries.reduce((w, e) => Math.max(w, e.id.length), 8);
    const lines = entries.map(
      (e) =>
        `${e.id.padEnd(width)}  ${`[${e.category ?? '-'}]`.padEnd(11)} ${e.title}${e.status === 'deprecated' ? dim(' (deprecated)') : ''}${e.confidence === 'contested' ? ' [CONTESTED]' : ''}`,
    );
    lines.push(
      dim(
        `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}${corpus.issues.length ? `, ${corpus.issues.length} parse issue(s) on stderr` : ''}`,
      ),
    );
    return { data, text: lines.join('\n'), warnings };
  },
};

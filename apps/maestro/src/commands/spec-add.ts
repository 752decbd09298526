import { inputError } from '@maestro/core';
import { addSpecEntry, SPEC_CATEGORIES } from '@maestro/spec/edit';
import { distance } from '../help.js';
import type { CommandModule } from '../kit.js';
import { dim, green, yellow } from '../style.js';
import { listOption, positionals, readContent, stringOption, writeOptions } from './spec-cli.js';

const usage =
  'maestro spec add <category> <title> [content] [--content-file F|-] [--keywords a,b] [--description d] [--source s]';

export const command: CommandModule = {
  usage,
  summary: 'Add a rule or note to the spec file of a category',
  options: {
    'content-file': { type: 'string' },
    keywords: { type: 'string' },
    description: { type: 'string' },
    source: { type: 'string' },
  },
  optionHelp: {
    'content-file': 'read the content from a file, or - for stdin',
    keywords: 'comma-separated keywords (default: the category)',
    description: 'one-line summary used by search',
    source: 'provenance, e.g. main@1a2b3c4 or a file path',
  },
  examples: [
    'maestro spec add coding "Use UTC timestamps" "Store and compare times in UTC; convert only for display."',
    'maestro spec add arch "Payments go through the ledger service" --content-file docs/payments.md --keywords payments,ledger',
    'git log -1 --format=%B | maestro spec add learning "Release checklist" --content-file -',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const [category, title] = positionals(args, ['category', 'title', 'content'], 2, usage);
    if (!(SPEC_CATEGORIES as readonly string[]).includes(category)) {
      const near = closestCategory(category);
      throw inputError('UNKNOWN_CATEGORY', `unknown category "${category}"`, {
        hint: `${near ? `did you mean "${near}"? ` : ''}use one of: ${SPEC_CATEGORIES.join(', ')}`,
      });
    }
    const content = await readContent(ctx, args, 2);
    const result = await addSpecEntry(
      ctx.layout,
      {
        category,
        title,
        content,
        keywords: listOption(args, 'keywords'),
        description: stringOption(args, 'description') ?? null,
        source: stringOption(args, 'source') ?? null,
      },
      ctx.runtime,
      writeOptions(ctx),
    );
    if (result.duplicate) {
      return {
        data: result,
        text: `${yellow('⚠')} Skipped duplicate: "${result.title}" already exists in .workflow/${result.file} as ${result.sid} (nothing written)`,
      };
    }
    const lines = [
      `${green('✓')} Added ${result.sid} to .workflow/${result.file} [${result.category}] "${result.title}"`,
    ];
    if (result.redirected) {
      lines.push(
        `  content over 2048 characters stored as .workflow/${result.knowhowRef}; the entry holds a summary and ref`,
      );
    }
    lines.push(dim(`next: maestro spec show ${result.sid}`));
    return { data: result, text: lines.join('\n') };
  },
};

/** The category a typo or a common long form most likely meant ("architecture" → arch). */
function closestCategory(typed: string): string | null {
  const t = typed.toLowerCase();
  const prefix = SPEC_CATEGORIES.find((c) => t.startsWith(c) || c.startsWith(t));
  if (prefix && t.length >= 3) return prefix;
  let best: { c: string; d: number } | null = null;
  for (const c of SPEC_CATEGORIES) {
    const d = distance(t, c);
    if (!best || d < best.d) best = { c, d };
  }
  return best && best.d <= 2 ? best.c : null;
}

import { inputError } from '@maestro/core';
import { addKnowhow, KNOWHOW_TYPES } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { listOption, positionals, readContent, stringOption, writeOptions } from './spec-cli.js';

const usage =
  'maestro knowhow add <type> <title> [content] [--content-file F|-] [--keywords a,b] [--category c] [--description d] [--id explicit-id]';

export const command: CommandModule = {
  usage,
  summary: 'Add a knowhow document (tip, recipe, reference, decision, ...)',
  options: {
    'content-file': { type: 'string' },
    keywords: { type: 'string' },
    category: { type: 'string' },
    description: { type: 'string' },
    id: { type: 'string' },
  },
  optionHelp: {
    'content-file': 'read the body from a file, or - for stdin',
    keywords: 'comma-separated keywords',
    category: 'the spec category it belongs to, e.g. coding',
    description: 'one-line summary',
    id: 'explicit id <prefix>-YYYYMMDD-<slug> (e.g. tip-20260501-retry-jitter); rerunning the same add is a no-op',
  },
  examples: [
    'maestro knowhow add tip "Retry with jitter" "Add random jitter to exponential backoff to avoid thundering herds."',
    'maestro knowhow add recipe "Release the CLI" --content-file docs/release.md --keywords release,ci',
    'maestro knowhow add decision "Use SQLite for the index" --content-file - --id dcs-20260501-sqlite-index < adr.md',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const [type, title] = positionals(args, ['type', 'title', 'content'], 2, usage);
    if (!(type in KNOWHOW_TYPES)) {
      throw inputError('UNKNOWN_KNOWHOW_TYPE', `unknown knowhow type "${type}"`, {
        hint: `use one of: ${Object.keys(KNOWHOW_TYPES).join(', ')}`,
      });
    }
    const content = await readContent(ctx, args, 2);
    const r = await addKnowhow(
      ctx.layout,
      {
        type,
        title,
        content,
        keywords: listOption(args, 'keywords'),
        category: stringOption(args, 'category') ?? null,
        description: stringOption(args, 'description') ?? null,
        explicitId: stringOption(args, 'id') ?? null,
      },
      ctx.runtime,
      writeOptions(ctx),
    );
    const head = r.replayed
      ? `Replayed: ${r.id} (identical document already there; nothing written)`
      : `${green('✓')} Created: ${r.id}`;
    return {
      data: r,
      text: [head, `  Type: ${r.type}`, `  File: .workflow/${r.file}`, dim(`next: maestro knowhow show ${r.id}`)].join(
        '\n',
      ),
    };
  },
};

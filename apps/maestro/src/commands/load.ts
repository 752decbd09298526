import { inputError } from '@maestro/core';
import { loadKnowledge, splitList } from '@maestro/ledger/load';
import type { CommandModule } from '../kit.js';
import { bold, dim } from '../style.js';
import { allValues, optionalString } from './ledger-args.js';

const usage = 'maestro load --id <id>... [--session S --run R] [--include-deprecated]';

export const command: CommandModule = {
  usage,
  summary: 'Print knowledge entries by id; with a run, record them as consumed (the only way to)',
  options: {
    id: { type: 'string', multiple: true },
    session: { type: 'string' },
    run: { type: 'string' },
    'include-deprecated': { type: 'boolean' },
  },
  optionHelp: {
    id: 'a spec sid or knowhow id, or a maestro-flow id form (repeatable or comma-separated)',
    session: 'with --run: record the load on this session’s run',
    run: 'with --session: the running run that consumes the entries',
    'include-deprecated': 'allow loading deprecated (superseded) entries',
  },
  examples: [
    'maestro load --id S-20260101-ab12',
    'maestro load --id S-20260101-ab12,knowhow-tip-20260101-retry-fetch --session 20260101-auth --run 20260101-001-plan',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, {
        hint: `ids go after --id: \`maestro load --id ${args.positionals.join(',')}\``,
      });
    }
    const r = await loadKnowledge(
      ctx.layout,
      {
        ids: splitList(allValues(args, 'id')),
        session_id: optionalString(args, 'session'),
        run_id: optionalString(args, 'run'),
        include_deprecated: args.values['include-deprecated'] === true,
      },
      ctx.runtime,
    );
    const blocks = r.entries.map((e) =>
      [
        bold(`## ${e.title}`),
        dim(
          `${e.id} · ${e.store}${e.category ? `/${e.category}` : ''} · ${e.status} · ${e.file}${e.line ? `:${e.line}` : ''}`,
        ),
        '',
        e.content.trimEnd(),
      ].join('\n'),
    );
    if (r.recorded) {
      blocks.push(
        dim(`recorded ${r.recorded.count} consumed input(s) on ${r.recorded.session_id}/${r.recorded.run_id}`),
      );
    }
    return { data: r, text: blocks.join('\n\n'), warnings: r.resolved_aliases };
  },
};

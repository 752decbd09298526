import { appendAll, inputError } from '@maestro/core';
import { parseSignal, parseSource, recordKnowledge, splitList } from '@maestro/ledger';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { allValues, optionalString, requiredOption } from './ledger-args.js';

const usage =
  'maestro knowledge record <id...> --signal <consumed|cited|validated|contradicted> --session S --run R [--source load|search|injection|manual] [--evidence refs] [--allow-unknown]';

export const command: CommandModule = {
  usage,
  summary: 'Record that a running run used knowledge (explicit attribution; search alone records nothing)',
  options: {
    signal: { type: 'string' },
    session: { type: 'string' },
    run: { type: 'string' },
    source: { type: 'string' },
    evidence: { type: 'string', multiple: true },
    'allow-unknown': { type: 'boolean' },
  },
  optionHelp: {
    signal: 'consumed, cited, validated or contradicted (required)',
    session: 'the session (required)',
    run: 'the running run (required)',
    source: 'where the knowledge came from: load, search, injection or manual (default manual)',
    evidence: 'evidence refs, comma-separated or repeated, e.g. artifact:report.md#L10',
    'allow-unknown': 'record ids that are not in the corpus instead of refusing',
  },
  examples: [
    'maestro knowledge record S-20260101-ab12 knowhow-tip-20260101-retry-fetch --signal validated --source search --evidence artifact:test.log --session 20260101-auth --run 20260101-001-plan',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const ids = splitList(args.positionals);
    if (ids.length === 0) {
      throw inputError('USAGE', 'missing <id...>', { hint: `usage: ${usage}` });
    }
    const signal = parseSignal(requiredOption(args, 'signal', `maestro knowledge record ${ids[0]} --signal cited ...`));
    const source = optionalString(args, 'source');
    const session_id = requiredOption(
      args,
      'session',
      `maestro knowledge record ${ids[0]} --signal ${signal} --session S --run R`,
    );
    const run_id = requiredOption(
      args,
      'run',
      `maestro knowledge record ${ids[0]} --signal ${signal} --session S --run R`,
    );
    const r = await recordKnowledge(
      ctx.layout,
      {
        session_id,
        run_id,
        knowledge_ids: ids,
        signal,
        source: source === undefined ? undefined : parseSource(source),
        evidence: splitList(allValues(args, 'evidence')),
        allow_unknown: args.values['allow-unknown'] === true,
      },
      ctx.runtime,
    );
    const warnings = r.unknown_ids.length ? [`recorded unknown id(s) as given: ${r.unknown_ids.join(', ')}`] : [];
    appendAll(warnings, r.resolved_aliases);
    return {
      data: r,
      text: `${green('✓')} Recorded ${r.recorded} input(s) as ${r.signal} (source ${r.source}) on ${session_id}/${run_id}`,
      warnings,
    };
  },
};

import { resolve } from 'node:path';
import { appendAll, inputError } from '@maestro/core';
import { readUserFile } from '@maestro/fs';
import { parseAction, parseSignal, parseTarget, splitList, stageKnowledge } from '@maestro/ledger';
import type { CommandContext, CommandModule, ParsedArgs } from '../kit.js';
import { dim, green } from '../style.js';
import { allValues, atMostPositionals, optionalString, requiredOption } from './ledger-args.js';

const usage =
  'maestro knowledge stage <spec|knowhow> <title> [content] --session S --run R [--content-file F|-] [--action a] [--category c] [--evidence refs] [--signal s --signal-ids ids] [--allow-unknown]';

/** Content from the third positional or --content-file (a path, or `-` for stdin); exactly one. */
async function readContent(ctx: CommandContext, args: ParsedArgs): Promise<string> {
  const positional = args.positionals[2];
  const file = optionalString(args, 'content-file');
  if (positional !== undefined && file !== undefined) {
    throw inputError('USAGE', 'pass the content either as the third argument or with --content-file, not both', {
      hint: 'drop one of them',
    });
  }
  if (file === '-') return ctx.readStdin();
  if (file !== undefined) return readUserFile(resolve(ctx.cwd, file), '--content-file');
  return positional ?? '';
}

function signalOptions(args: ParsedArgs) {
  const signal = optionalString(args, 'signal');
  const ids = splitList(allValues(args, 'signal-ids'));
  if (signal !== undefined && ids.length === 0) {
    throw inputError('USAGE', '--signal needs --signal-ids', {
      hint: 'e.g. --signal validated --signal-ids S-20260101-ab12',
    });
  }
  if (signal === undefined && ids.length > 0) {
    throw inputError('USAGE', '--signal-ids needs --signal', {
      hint: 'e.g. --signal cited --signal-ids S-20260101-ab12',
    });
  }
  return signal === undefined ? {} : { signal: parseSignal(signal), signal_ids: ids };
}

export const command: CommandModule = {
  usage,
  summary: 'Stage a knowledge candidate on a running run (never writes specs or knowhow)',
  options: {
    session: { type: 'string' },
    run: { type: 'string' },
    'content-file': { type: 'string' },
    action: { type: 'string' },
    category: { type: 'string' },
    evidence: { type: 'string', multiple: true },
    signal: { type: 'string' },
    'signal-ids': { type: 'string', multiple: true },
    'allow-unknown': { type: 'boolean' },
  },
  optionHelp: {
    session: 'the session (required)',
    run: 'the running run to stage on (required)',
    'content-file': 'read the content from a file, or - for stdin',
    action: 'propose (default), reaffirm, supersede or contest',
    category: 'spec category, e.g. coding or arch',
    evidence: 'evidence refs, comma-separated or repeated (run:<id> is always added)',
    signal: 'also record the ids in --signal-ids as consumed, cited, validated or contradicted',
    'signal-ids': 'knowledge ids for --signal (comma-separated or repeated)',
    'allow-unknown': 'record --signal-ids that are not in the corpus instead of refusing',
  },
  examples: [
    'maestro knowledge stage spec "Use UTC timestamps" "Store and compare times in UTC." --session 20260101-auth --run 20260101-001-plan',
    'maestro knowledge stage knowhow "Retry flaky fetch" --content-file notes.md --session 20260101-auth --run 20260101-001-plan --signal validated --signal-ids S-20260101-ab12',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    atMostPositionals(args, 3, usage);
    const [targetArg, title] = args.positionals;
    if (targetArg === undefined) throw inputError('USAGE', 'missing <spec|knowhow>', { hint: `usage: ${usage}` });
    const target = parseTarget(targetArg);
    const session_id = requiredOption(
      args,
      'session',
      'maestro knowledge stage spec "Title" "Rule" --session S --run R',
    );
    const run_id = requiredOption(args, 'run', 'maestro knowledge stage spec "Title" "Rule" --session S --run R');
    const action = optionalString(args, 'action');
    const r = await stageKnowledge(
      ctx.layout,
      {
        session_id,
        run_id,
        target,
        title: title ?? '',
        content: await readContent(ctx, args),
        action: action === undefined ? undefined : parseAction(action),
        category: optionalString(args, 'category') ?? null,
        evidence: splitList(allValues(args, 'evidence')),
        allow_unknown: args.values['allow-unknown'] === true,
        ...signalOptions(args),
      },
      ctx.runtime,
    );
    const parts = [
      `${green('✓')} Staged ${r.candidate_id} on ${session_id}/${run_id}`,
      r.reused ? ` (identical content already staged: occurrences ${r.occurrences}; title kept "${r.title}")` : '',
      r.signal_recorded ? `; recorded ${r.signal_recorded} signal(s)` : '',
    ];
    const warnings = r.unknown_ids.length ? [`recorded unknown id(s) as given: ${r.unknown_ids.join(', ')}`] : [];
    appendAll(warnings, r.resolved_aliases);
    return {
      data: r,
      text: `${parts.join('')}\n${dim(`review after completion: maestro knowledge review ${session_id}`)}`,
      warnings,
    };
  },
};

import { inputError } from '@maestro/core';
import {
  CHOICES,
  type Choice,
  DISPOSITIONS,
  type Disposition,
  resolveCandidates,
  reviewSession,
  storeWarnings,
} from '@maestro/reconcile';
import type { CommandModule, ParsedArgs } from '../kit.js';
import { renderResolution, renderReview } from './knowledge-review-text.js';
import { allValues, onePositional, optionalString, problemLine } from './ledger-args.js';

const usage =
  'maestro knowledge review <session> [--refresh] | --resolve <cid>[,<cid>...] --as <choice> [--contest] [--target <id>] --reason <r> | --all-as <choice> --disposition <d> --reason <r>';

function choiceOf(value: string, flag: string): Choice {
  if ((CHOICES as readonly string[]).includes(value)) return value as Choice;
  throw inputError('USAGE', `${flag} must be one of ${CHOICES.join(', ')} (got "${value}")`, {
    hint: 'the review lists the sensible resolve commands per candidate: `maestro knowledge review <session>`',
  });
}

function dispositionOf(value: string | undefined): Disposition {
  if (value && (DISPOSITIONS as readonly string[]).includes(value)) return value as Disposition;
  const got = value === undefined ? '' : ` (got "${value}")`;
  throw inputError('USAGE', `--all-as needs --disposition <${DISPOSITIONS.join('|')}>${got}`, {
    hint: 'e.g. --all-as unique --disposition related --reason "reviewed: independent rules"',
  });
}

/** The resolve request the flags describe, or null for a plain review. */
function resolveRequest(args: ParsedArgs) {
  const ids = allValues(args, 'resolve')
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  const as = optionalString(args, 'as');
  const allAs = optionalString(args, 'all-as');
  const reason = optionalString(args, 'reason');
  if (!ids.length && args.values.resolve !== undefined) {
    throw inputError('USAGE', '--resolve needs candidate ids', {
      hint: 'e.g. --resolve KDC-0123456789abcdef; `maestro knowledge review <session>` lists them',
    });
  }
  if (!ids.length && allAs === undefined) {
    for (const flag of ['as', 'target', 'reason', 'disposition', 'contest']) {
      if (args.values[flag] !== undefined) {
        throw inputError('USAGE', `--${flag} only goes with --resolve or --all-as`, { hint: `usage: ${usage}` });
      }
    }
    return null;
  }
  if (args.values.refresh) {
    throw inputError('USAGE', '--refresh and --resolve/--all-as do not mix: refresh, read the verdicts, then resolve', {
      hint: 'run `maestro knowledge review <session> --refresh` first',
    });
  }
  if (ids.length && allAs !== undefined) {
    throw inputError('USAGE', '--resolve and --all-as are exclusive', {
      hint: 'resolve named candidates with --resolve, or every candidate of one verdict with --all-as, one at a time',
    });
  }
  if (reason === undefined) {
    throw inputError('USAGE', `${ids.length ? '--resolve' : '--all-as'} requires --reason "<why>"`, {
      hint: `usage: ${usage}`,
    });
  }
  const contest = args.values.contest === true;
  if (ids.length) {
    if (as === undefined) throw inputError('USAGE', '--resolve requires --as <choice>', { hint: `usage: ${usage}` });
    const target = optionalString(args, 'target');
    return { candidateIds: ids, choice: choiceOf(as, '--as'), contest, target, reason };
  }
  if (args.values.target !== undefined) {
    throw inputError('USAGE', '--target does not go with --all-as: each candidate keeps its own canonical target', {
      hint: 'drop --target, or resolve that candidate alone with --resolve <cid> --target <id>',
    });
  }
  return {
    all: { disposition: dispositionOf(optionalString(args, 'disposition')) },
    choice: choiceOf(allAs as string, '--all-as'),
    contest,
    reason,
  };
}

export const command: CommandModule = {
  usage,
  summary: 'Review reconciliation verdicts of a session; resolve what needs judgement',
  options: {
    refresh: { type: 'boolean' },
    resolve: { type: 'string', multiple: true },
    as: { type: 'string' },
    target: { type: 'string' },
    reason: { type: 'string' },
    'all-as': { type: 'string' },
    disposition: { type: 'string' },
    contest: { type: 'boolean' },
  },
  optionHelp: {
    refresh: 'reconcile every run whose receipt is missing or stale first (otherwise read-only)',
    resolve: 'candidate id(s) to resolve, comma-separated or repeated',
    as: 'duplicate | related | conflict (the existing rule stands) | supersede | unique',
    contest: 'with --as conflict: leave the question open and mark the rule contested with the candidate and reason',
    target: 'the entry the decision is about (default: the canonical match; not with unique)',
    reason: 'why (required, recorded in the receipt)',
    'all-as': 'resolve every pending candidate with --disposition <d> this way',
    disposition: 'with --all-as: which verdict to resolve in bulk',
  },
  examples: [
    'maestro knowledge review 20260101-auth',
    'maestro knowledge review 20260101-auth --refresh --json',
    'maestro knowledge review 20260101-auth --resolve KDC-0123456789abcdef --as duplicate --reason "same rule as S-20260101-ab12"',
    'maestro knowledge review 20260101-auth --resolve KDC-0123456789abcdef --as conflict --reason "pino is our standard"',
    'maestro knowledge review 20260101-auth --all-as unique --disposition related --reason "reviewed: independent rules"',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const sessionId = onePositional(args, 'session', usage);
    const request = resolveRequest(args);
    if (request) {
      const r = await resolveCandidates(ctx.layout, sessionId, request, ctx.runtime);
      return { data: r, text: renderResolution(r), warnings: r.warnings };
    }
    const refresh = args.values.refresh === true;
    if (refresh) ctx.progress(`reconciling ${sessionId} (missing and stale receipts)…`);
    const view = await reviewSession(ctx.layout, sessionId, { refresh }, ctx.runtime);
    const warnings = [...view.problems.map(problemLine), ...storeWarnings(ctx.layout)];
    return { data: view, text: renderReview(view), warnings };
  },
};

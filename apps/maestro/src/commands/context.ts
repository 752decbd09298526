import { existsSync, statSync } from 'node:fs';
import { inputError } from '@maestro/core';
import type { Expansion } from '@maestro/graph';
import type { ContextOutputData, ContextSpecInput } from '@maestro/packs';
import type { Corpus } from '@maestro/spec';
import type { CommandContext, CommandModule } from '../kit.js';
import { appendNeighbours, EXPAND_HELP, EXPAND_OPTION, expandTop } from './graph-expand.js';
import {
  budgetOption,
  SCOPE_HELP,
  SCOPE_OPTIONS,
  scopeOptions,
  str,
  strings,
  TIER_HELP,
  TIER_OPTIONS,
} from './pack-args.js';
import { resolveWarnings, resolveWithAnswers } from './pack-resolve.js';

const usage =
  'maestro context <prompt> [--budget n] [--catalog] [--no-guide] [--expand] [--session S --run R] [--json]';
/** Search hits considered per prompt; the budget decides how many are included. */
const SPEC_CANDIDATES = 8;

/**
 * Relevant active specs through search (deprecated never), read from one corpus load shared with
 * the search index refresh. Search records no exposure here: only what is finally included is
 * counted, by the caller. A directory without `.workflow/` simply has no specs.
 */
async function relevantSpecs(
  ctx: CommandContext,
  prompt: string,
  expand = false,
): Promise<{ specs: ContextSpecInput[]; warnings: string[]; expanded?: Expansion }> {
  if (!existsSync(ctx.layout.workflow)) return { specs: [], warnings: [] };
  if (!statSync(ctx.layout.workflow).isDirectory()) {
    // A hook must not fail the prompt: serve the packs and say why project knowledge is missing.
    return { specs: [], warnings: [`${ctx.layout.workflow} is a file, not the .workflow/ directory; no specs served`] };
  }
  const [{ search }, { loadCorpus }] = await Promise.all([import('@maestro/search'), import('@maestro/spec')]);
  let corpus: Corpus | null = null;
  const load = (layout: typeof ctx.layout) => {
    corpus ??= loadCorpus(layout);
    return corpus;
  };
  const result = await search(
    ctx.layout,
    prompt,
    // Quotes in an agent's prompt are prose, not exact-phrase filters.
    { limit: SPEC_CANDIDATES, recordExposure: false, phrases: false, loadCorpus: load },
    ctx.runtime,
  );
  const byId = result.results.length > 0 ? load(ctx.layout).byId : new Map();
  const specs = result.results.flatMap((hit) => {
    const e = byId.get(hit.id);
    return e && e.status === 'active'
      ? [
          {
            id: e.id,
            title: e.title,
            category: e.category ?? (e.store === 'knowhow' ? 'knowhow' : null),
            text: e.content,
          },
        ]
      : [];
  });
  if (!expand) return { specs, warnings: result.warnings };
  // Graph neighbours of the top hits follow the hits, labelled; the budget decides what fits.
  const expanded = await expandTop(
    ctx.layout,
    specs.map((s) => s.id),
    false,
  );
  appendNeighbours(specs, expanded, byId);
  return { specs, warnings: [...result.warnings, ...expanded.warnings], expanded };
}

export const command: CommandModule = {
  usage,
  summary: 'Context for an agent prompt: relevant specs and matching packs, wrapped as data (exposure only)',
  options: {
    budget: { type: 'string' },
    session: { type: 'string' },
    run: { type: 'string' },
    ...EXPAND_OPTION,
    ...TIER_OPTIONS,
    ...SCOPE_OPTIONS,
  },
  optionHelp: {
    budget: 'hard token budget for everything printed, wrappers included (default 2000)',
    session: 'with --run: the session the agent works in (attribution only; nothing is recorded on it)',
    run: 'with --session: the running run (context never records consumption; use `maestro load` for that)',
    ...EXPAND_HELP,
    ...TIER_HELP,
    ...SCOPE_HELP,
  },
  examples: [
    'maestro context "How do we store timestamps?"',
    'maestro context "$PROMPT" --budget 1200 --session 20260101-auth --run 20260101-001-plan --json',
  ],
  async run(ctx, args) {
    const prompt = args.positionals.join(' ').trim();
    if (!prompt) throw inputError('USAGE', 'missing <prompt>', { hint: `usage: ${usage}` });
    const session = str(args, 'session');
    const run = str(args, 'run');
    if ((session === undefined) !== (run === undefined)) {
      throw inputError('USAGE', 'pass --session and --run together, or neither', { hint: `usage: ${usage}` });
    }
    if (session !== undefined && run !== undefined) {
      const { readRun } = await import('@maestro/ledger');
      readRun(ctx.layout, session, run); // unknown session or run: exit 2 naming it
    }
    const { DEFAULT_BUDGET } = await import('@maestro/packs');
    const { specs, warnings, expanded } = await relevantSpecs(ctx, prompt, args.values.expand === true);
    const scopes = await scopeOptions(ctx, args);
    const resolution = await resolveWithAnswers(
      ctx,
      {
        ...scopes,
        query: prompt,
        budget: budgetOption(args, DEFAULT_BUDGET),
        confirm: strings(args, 'confirm'),
        specs,
        catalog: args.values.catalog === true,
        guide: args.values['no-guide'] !== true,
      },
      false,
    );
    const included = resolution.output.specs.map((s) => s.id);
    let exposureRecorded = false;
    if (included.length > 0) {
      const { recordExposure } = await import('@maestro/search');
      const failed = await recordExposure(ctx.layout, included);
      if (failed) warnings.push(failed);
      exposureRecorded = failed === null;
    }
    const data: ContextOutputData = {
      ...resolution.output,
      session_id: session ?? null,
      run_id: run ?? null,
      exposure_recorded: exposureRecorded,
      ...(expanded ? { expanded } : {}),
    };
    return { data, text: data.context, warnings: [...warnings, ...resolveWarnings(data)] };
  },
};

import { inputError } from '@maestro/core';
import type { RankedHit } from '@maestro/search';
// The schema-free entry point: a cold `maestro search` should not pay for loading zod.
import { type SearchOptions, type SearchResult, search } from '@maestro/search/search';
import type { CommandModule, ParsedArgs } from '../kit.js';
import { bold, cyan, dim, yellow } from '../style.js';
import { EXPAND_HELP, EXPAND_OPTION, expandTop, expansionText } from './graph-expand.js';

const usage =
  'maestro search <query...> [--type spec|knowhow] [--category c] [--tag k]... [--status s] [--include-deprecated] [--limit n] [--offset n] [--mode balanced|relevance] [--read-only] [--expand]';

/** The query as typed, in quotes that do not clash with a quoted phrase inside it. */
function quoted(query: string): string {
  return query.includes('"') ? `'${query}'` : `"${query}"`;
}

function intOption(args: ParsedArgs, name: string): number | undefined {
  const raw = args.values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) {
    throw inputError('SEARCH_BAD_OPTION', `--${name} must be a whole number (got ${JSON.stringify(raw)})`, {
      hint: `for example --${name} 10`,
    });
  }
  return Number(raw);
}

function str(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

function highlight(hit: RankedHit): string {
  let out = '';
  let at = 0;
  for (const [s, e] of hit.highlights) {
    out += hit.snippet.slice(at, s) + yellow(hit.snippet.slice(s, e));
    at = e;
  }
  return out + hit.snippet.slice(at);
}

function render(r: SearchResult): string {
  if (r.results.length === 0) {
    const lines = [
      `No results for ${quoted(r.query)}${r.total > 0 ? ` at offset ${r.offset} (${r.total} in all)` : ''}.`,
    ];
    if (r.total === 0) {
      lines.push(dim('hint: try fewer or other words, drop a facet, or add --include-deprecated'));
    }
    return lines.join('\n');
  }
  const first = r.offset + 1;
  const last = r.offset + r.results.length;
  const range =
    first === 1 && last === r.total
      ? `${r.total} result${r.total === 1 ? '' : 's'}`
      : `results ${first}–${last} of ${r.total}`;
  const lines = [`Search ${quoted(r.query)}: ${range} (${r.mode})`, ''];
  for (const h of r.results) {
    const labels = [h.store, h.category, h.status === 'deprecated' ? 'deprecated' : null].filter(Boolean).join('/');
    lines.push(`${String(h.rank).padStart(3)}. ${bold(h.title)}  ${dim(labels)}`);
    lines.push(`     ${cyan(h.id)}  score ${h.score.toFixed(3)}  ${h.selection_reason}`);
    if (h.snippet) lines.push(`     ${highlight(h)}`);
  }
  if (last < r.total)
    lines.push('', dim(`more: add --offset ${last} for the next ${Math.min(r.limit, r.total - last)}`));
  // `load` refuses a deprecated entry unless asked: the hint asks when the top hit is one.
  const top = r.results[0];
  lines.push(dim(`load one: maestro load --id ${top.id}${top.status === 'deprecated' ? ' --include-deprecated' : ''}`));
  return lines.join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'Search specs and knowhow (BM25F, CJK-aware, diversified); exposure only, never consumption',
  options: {
    type: { type: 'string' },
    category: { type: 'string' },
    tag: { type: 'string', multiple: true },
    status: { type: 'string' },
    'include-deprecated': { type: 'boolean' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    mode: { type: 'string' },
    'read-only': { type: 'boolean' },
    ...EXPAND_OPTION,
  },
  optionHelp: {
    type: 'only spec or only knowhow entries',
    category: 'only entries of this category (e.g. coding, arch, debug)',
    tag: 'only entries carrying this keyword (repeatable: all must match)',
    status: 'only active or only deprecated entries',
    'include-deprecated': 'also return deprecated (superseded) entries',
    limit: 'results per page, 1–500 (default 10)',
    offset: 'results to skip, for the next page (default 0)',
    mode: 'balanced (default: diversified page, one exploration slot) or relevance (pure score order)',
    'read-only': 'write nothing: neither the index nor exposure counters',
    ...EXPAND_HELP,
  },
  examples: [
    'maestro search retry backoff',
    'maestro search \'"exponential backoff"\' --type spec --limit 5',
    'maestro search 认证 --category coding --json',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const query = args.positionals.join(' ');
    const options: SearchOptions = {
      type: str(args, 'type') as SearchOptions['type'],
      category: str(args, 'category'),
      tags: (args.values.tag as string[] | undefined) ?? undefined,
      status: str(args, 'status') as SearchOptions['status'],
      includeDeprecated: args.values['include-deprecated'] === true,
      limit: intOption(args, 'limit'),
      offset: intOption(args, 'offset'),
      mode: str(args, 'mode') as SearchOptions['mode'],
      readOnly: args.values['read-only'] === true,
    };
    const result = await search(ctx.layout, query, options, ctx.runtime);
    if (args.values.expand !== true) return { data: result, text: render(result), warnings: result.warnings };
    const expanded = await expandTop(
      ctx.layout,
      result.results.map((h) => h.id),
      options.readOnly === true,
    );
    return {
      data: { ...result, expanded },
      text: `${render(result)}\n\n${expansionText(expanded)}`,
      warnings: [...result.warnings, ...expanded.warnings],
    };
  },
};

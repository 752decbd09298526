import { inputError } from '@maestro/core';
import type { PackResolveOutputData, ResolveContextOptions } from '@maestro/packs';
import { version } from '../cli.js';
import type { CommandContext, CommandModule } from '../kit.js';
import { dim } from '../style.js';
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

const usage =
  'maestro pack resolve --query <q> [--pack name|path]... [--budget tokens] [--catalog] [--no-guide] [--interactive] [--record] [--json]';

/** Human summary under the context: what was selected, what waits for an answer, what was left out. */
export function summary(out: PackResolveOutputData): string {
  const lines = [
    dim(`~${out.token_estimate} of ${out.budget} tokens; wrapper order: ${out.wrapper_order.join(', ') || '(none)'}`),
  ];
  if (out.catalog)
    lines.push(
      dim(
        `  catalog: ${out.catalog.listed.length} pack(s) listed${out.catalog.omitted.length ? `, ${out.catalog.omitted.length} left out (budget)` : ''}`,
      ),
    );
  for (const p of out.packs) {
    const parts = [...p.guide, ...p.selected_files];
    lines.push(dim(`  ${p.name} (${p.activation}, ${p.status}): ${parts.join(', ') || 'nothing fitted'}`));
  }
  for (const p of out.pending) lines.push(dim(`  ${p.name}: not used (${p.reason}); answer with ${p.hint}`));
  for (const p of out.skipped) lines.push(dim(`  ${p.name}: skipped, ${p.message}`));
  if (out.missing.length > 0)
    lines.push(dim(`  not covered: ${out.missing.join(', ')} (ask the user or mark unknown)`));
  if (out.record) lines.push(dim(`  recorded ${out.record}`));
  return lines.join('\n');
}

/**
 * `--interactive`: each pending pack becomes a question on stderr; answers (y/n, one per line, in
 * order) are read from stdin, so the same flow works on a terminal and in a script.
 */
async function ask(
  ctx: CommandContext,
  out: PackResolveOutputData,
  o: ResolveContextOptions,
): Promise<ResolveContextOptions> {
  const gated = (status: string) => status === 'draft' || status === 'disputed';
  for (const [i, p] of out.pending.entries()) {
    const why =
      p.reason === 'needs-approval'
        ? `comes from an untrusted workspace${gated(p.status) ? ` and has status ${p.status}` : ''}`
        : `has status ${p.status}`;
    ctx.warn(
      `question ${i + 1}: pack ${p.name} (${p.location}) ${why}; use it? answer y or n (one line per question on stdin)`,
    );
  }
  const answers = (await ctx.readStdin()).split(/\r?\n/).map((a) => a.trim().toLowerCase());
  const yes = out.pending.filter((_, i) => answers[i] === 'y' || answers[i] === 'yes');
  // One yes answers everything the question named: approval, and confirmation of a draft/disputed status.
  return {
    ...o,
    approve: [...(o.approve ?? []), ...yes.filter((p) => p.reason === 'needs-approval').map((p) => p.name)],
    confirm: [...(o.confirm ?? []), ...yes.filter((p) => gated(p.status)).map((p) => p.name)],
  };
}

export async function resolveWithAnswers(ctx: CommandContext, o: ResolveContextOptions, interactive: boolean) {
  const { resolveContext } = await import('@maestro/packs');
  const resolution = resolveContext(o);
  if (!interactive || resolution.output.pending.length === 0) return resolution;
  return resolveContext(await ask(ctx, resolution.output, o));
}

export function resolveWarnings(out: PackResolveOutputData): string[] {
  return [
    ...out.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.message),
    ...out.pending.map((p) => `pack ${p.name} matched but is not used (${p.reason}): pass ${p.hint}`),
  ];
}

export const command: CommandModule = {
  usage,
  summary: 'Select the smallest useful context from matching packs, wrapped as data, within a token budget',
  options: {
    query: { type: 'string', short: 'q' },
    budget: { type: 'string' },
    interactive: { type: 'boolean' },
    record: { type: 'boolean' },
    ...TIER_OPTIONS,
    ...SCOPE_OPTIONS,
  },
  optionHelp: {
    query: 'the request to find context for',
    budget: 'hard token budget for everything emitted, wrappers included (default 2000)',
    interactive: 'ask about draft, disputed and untrusted packs (answers y/n read from stdin)',
    record: 'write a context-resolution record to the pack’s or the workspace’s runs/',
    ...TIER_HELP,
    ...SCOPE_HELP,
  },
  examples: [
    'maestro pack resolve --query "Does Acme Widget work offline?" --budget 1500',
    'maestro pack resolve -q "pricing" --pack acme-widget --confirm acme-widget --record --json',
  ],
  async run(ctx, args) {
    const query = str(args, 'query')?.trim();
    if (!query) throw inputError('USAGE', '--query is required', { hint: `usage: ${usage}` });
    if (args.positionals.length > 0)
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, {
        hint: 'pass the request with --query "..."',
      });
    const { DEFAULT_BUDGET, writeContextRecord } = await import('@maestro/packs');
    const scopes = await scopeOptions(ctx, args);
    const o: ResolveContextOptions = {
      ...scopes,
      query,
      budget: budgetOption(args, DEFAULT_BUDGET),
      confirm: strings(args, 'confirm'),
      catalog: args.values.catalog === true,
      guide: args.values['no-guide'] !== true,
    };
    const resolution = await resolveWithAnswers(ctx, o, args.values.interactive === true);
    const out = resolution.output;
    if (args.values.record === true) {
      out.record = await writeContextRecord(resolution, {
        workspaceRoot: scopes.workspaceRoot as string,
        runtime: ctx.runtime,
        version: version(),
      });
    }
    const warnings = resolveWarnings(out);
    if (args.values.record === true && out.record === null)
      warnings.push('no pack was activated, so no context-resolution record was written');
    return { data: out, text: `${out.context}${out.context ? '\n' : ''}${summary(out)}`, warnings };
  },
};

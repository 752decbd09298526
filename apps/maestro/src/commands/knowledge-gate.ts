import { inputError } from '@maestro/core';
import { type GateResult, knowledgeGate } from '@maestro/gate';
import type { CommandModule } from '../kit.js';
import { green, red } from '../style.js';

const usage = 'maestro knowledge gate [--session S ... | --all] [--max-pending-review n]';

export const command: CommandModule = {
  usage,
  summary: 'Release gate: exit 0 only when receipts are fresh, reviews resolved, nothing half-applied, no P0',
  options: {
    session: { type: 'string', multiple: true },
    all: { type: 'boolean' },
    'max-pending-review': { type: 'string' },
  },
  optionHelp: {
    session: 'a session to check (repeatable; comma-separated lists work too)',
    all: 'check every session (the default when no --session is given)',
    'max-pending-review': 'how many unresolved review-required candidates to tolerate in total (default 0)',
  },
  examples: [
    'maestro knowledge gate --all',
    'maestro knowledge gate --session 20261129-auth-hardening --json',
    'maestro knowledge gate --all --max-pending-review 3',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const v = args.values;
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    }
    const sessions = ((v.session as string[] | undefined) ?? []).flatMap((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    );
    if (sessions.length && v.all) {
      throw inputError('USAGE', '--all and --session exclude each other', { hint: `usage: ${usage}` });
    }
    const raw = v['max-pending-review'] as string | undefined;
    const max = raw === undefined ? 0 : Number(raw);
    if (!Number.isInteger(max) || max < 0) {
      throw inputError('USAGE', `--max-pending-review must be a whole number ≥ 0 (got "${raw}")`, {
        hint: `usage: ${usage}`,
      });
    }
    ctx.progress('checking receipts, reviews, intents and the audit…');
    const result = await knowledgeGate(ctx.layout, { sessions, maxPendingReview: max, runtime: ctx.runtime });
    return { data: result, text: gateText(result), exitCode: result.ok ? 0 : 1 };
  },
};

function gateText(r: GateResult): string {
  const runs = r.sessions.reduce((n, s) => n + s.runs_checked, 0);
  const head = `${r.sessions.length} session(s), ${runs} run(s) with candidates, ${r.review_required_total} awaiting review (allowed ${r.max_pending_review}), audit P0 ${r.audit.p0} · P1 ${r.audit.p1} · P2 ${r.audit.p2}`;
  if (r.ok) return `${green('✓ gate passed')}: ${head}`;
  const lines = [`${red('✗ gate failed')}: ${head}`, '', `${r.reasons.length} reason(s):`];
  for (const x of r.reasons) {
    lines.push(`  ${x.code}: ${x.message}`);
    if (x.command) lines.push(`    fix: ${x.command}`);
  }
  return lines.join('\n');
}

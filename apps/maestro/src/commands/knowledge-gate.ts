import { storeWarnings } from '@maestro/audit/summary';
import { inputError } from '@maestro/core';
import { type GateResult, knowledgeGate } from '@maestro/gate';
import type { CommandModule } from '../kit.js';
import { green, red } from '../style.js';
import { gateMarkdown } from './gate-markdown.js';

const usage =
  'maestro knowledge gate [--session S ... | --all | --changed-since <git ref>] [--max-pending-review n] [--format text|markdown]';

export const command: CommandModule = {
  usage,
  summary: 'Release gate: exit 0 only when receipts are fresh, reviews resolved, nothing half-applied, no P0',
  options: {
    session: { type: 'string', multiple: true },
    all: { type: 'boolean' },
    'max-pending-review': { type: 'string' },
    'changed-since': { type: 'string' },
    format: { type: 'string' },
  },
  optionHelp: {
    session: 'a session to check (repeatable; comma-separated lists work too)',
    all: 'check every session (the default when no --session is given)',
    'max-pending-review': 'how many unresolved review-required candidates to tolerate in total (default 0)',
    'changed-since':
      'gate only the sessions with files changed since this git ref (git diff <ref>...HEAD, plus uncommitted)',
    format: '`markdown` for a CI job summary or pull request comment (default: text); --json for the document',
  },
  examples: [
    'maestro knowledge gate --all',
    'maestro knowledge gate --session 20261129-auth-hardening --json',
    'maestro knowledge gate --all --max-pending-review 3',
    'maestro knowledge gate --changed-since origin/main --format markdown >> "$GITHUB_STEP_SUMMARY"',
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
    const since = v['changed-since'] as string | undefined;
    const scopes = [sessions.length > 0, v.all === true, since !== undefined].filter(Boolean).length;
    if (scopes > 1) {
      throw inputError('USAGE', '--all, --session and --changed-since exclude each other', { hint: `usage: ${usage}` });
    }
    if (since !== undefined && since.trim() === '') {
      throw inputError('USAGE', '--changed-since needs a git ref (e.g. origin/main)', { hint: `usage: ${usage}` });
    }
    const format = (v.format as string | undefined) ?? 'text';
    if (format !== 'text' && format !== 'markdown') {
      throw inputError('USAGE', `--format must be text or markdown (got "${format}")`, { hint: `usage: ${usage}` });
    }
    if (format === 'markdown' && ctx.json) {
      throw inputError('USAGE', '--format markdown and --json exclude each other', {
        hint: 'run the gate twice in CI: once with --json for the artifact, once with --format markdown for the summary',
      });
    }
    const raw = v['max-pending-review'] as string | undefined;
    const max = raw === undefined ? 0 : Number(raw);
    if (!Number.isInteger(max) || max < 0) {
      throw inputError('USAGE', `--max-pending-review must be a whole number ≥ 0 (got "${raw}")`, {
        hint: `usage: ${usage}`,
      });
    }
    ctx.progress('checking receipts, reviews, intents and the audit…');
    const result = await knowledgeGate(ctx.layout, {
      sessions,
      changedSince: since,
      maxPendingReview: max,
      runtime: ctx.runtime,
    });
    const text = format === 'markdown' ? gateMarkdown(result) : gateText(result);
    return { data: result, text, exitCode: result.ok ? 0 : 1, warnings: storeWarnings(ctx.layout) };
  },
};

function gateText(r: GateResult): string {
  const runs = r.sessions.reduce((n, s) => n + s.runs_checked, 0);
  const since = r.selection.mode === 'changed-since' ? ` changed since ${r.selection.ref}` : '';
  const head = `${r.sessions.length} session(s)${since}, ${runs} run(s) with candidates, ${r.review_required_total} awaiting review (allowed ${r.max_pending_review}), audit P0 ${r.audit.p0} · P1 ${r.audit.p1} · P2 ${r.audit.p2}`;
  if (r.ok) return `${green('✓ gate passed')}: ${head}`;
  const lines = [`${red('✗ gate failed')}: ${head}`, '', `${r.reasons.length} reason(s):`];
  for (const x of r.reasons) {
    lines.push(`  ${x.code}: ${x.message}`);
    if (x.command) lines.push(`    fix: ${x.command}`);
  }
  return lines.join('\n');
}

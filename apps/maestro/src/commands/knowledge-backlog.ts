import { inputError } from '@maestro/core';
import { type BacklogResult, knowledgeBacklog } from '@maestro/reconcile';
import type { CommandModule } from '../kit.js';
import { bold, dim, yellow } from '../style.js';
import { allValues, optionalString, problemLine } from './ledger-args.js';

const usage = 'maestro knowledge backlog [--expire-observed --older-than <N>d [--reason r]] [--restore <cid>[,...]]';

function days(value: string | undefined): number {
  const m = value?.trim().match(/^(\d+)d?$/);
  if (!m) {
    throw inputError('USAGE', `--older-than must be a number of days like 30d (got "${value ?? ''}")`, {
      hint: 'e.g. maestro knowledge backlog --expire-observed --older-than 30d',
    });
  }
  return Number(m[1]);
}

function render(r: BacklogResult): string {
  const c = r.counts;
  const lines = [
    `${bold('Knowledge backlog')}: ${c.pending} pending candidate(s) in ${c.sessions} session(s) · ${c.corroborated} corroborated · ${c.observed} observed · ${c.review_required} review required · ${c.unreconciled} not freshly reconciled`,
  ];
  for (const e of r.expired) lines.push(yellow(`expired ${e.session_id} ${e.candidate_id} (${e.reason})`));
  for (const e of r.restored) lines.push(`restored ${e.session_id} ${e.candidate_id} to pending`);
  if (r.expired.length) {
    lines.push(dim(`undo with: maestro knowledge backlog --restore ${r.expired.map((e) => e.candidate_id).join(',')}`));
  }
  for (const i of r.items) {
    const verdict = i.disposition ? `${i.disposition} · ${i.promotion_eligibility}` : 'no verdict';
    lines.push(
      `${i.session_id} ${i.candidate_id} [${verdict} · ${i.freshness}] ${i.stage} · ${i.age_days}d · "${i.title}"`,
      dim(`  → ${i.command}`),
    );
  }
  return lines.join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'Pending candidates across all sessions; expire stale observed-only ones (reversible)',
  options: {
    'expire-observed': { type: 'boolean' },
    'older-than': { type: 'string' },
    reason: { type: 'string' },
    restore: { type: 'string', multiple: true },
  },
  optionHelp: {
    'expire-observed': 'soft-reject pending candidates seen in one run only and older than --older-than',
    'older-than': 'age in days, e.g. 30d',
    reason: 'why they expire (recorded on each candidate)',
    restore: 'put expired candidates back to pending (ids, comma-separated or repeated)',
  },
  examples: [
    'maestro knowledge backlog',
    'maestro knowledge backlog --expire-observed --older-than 30d --json',
    'maestro knowledge backlog --restore KDC-0123456789abcdef',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    }
    const expire = args.values['expire-observed'] === true;
    const olderThan = optionalString(args, 'older-than');
    if (expire !== (olderThan !== undefined)) {
      throw inputError('USAGE', '--expire-observed and --older-than <N>d go together', { hint: `usage: ${usage}` });
    }
    const restore = allValues(args, 'restore')
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    if (args.values.restore !== undefined && !restore.length) {
      throw inputError('USAGE', '--restore needs candidate ids', {
        hint: 'e.g. --restore KDC-0123456789abcdef (the ids an --expire-observed run printed)',
      });
    }
    const r = await knowledgeBacklog(
      ctx.layout,
      {
        ...(expire ? { expireOlderThanDays: days(olderThan) } : {}),
        ...(optionalString(args, 'reason') ? { reason: optionalString(args, 'reason') } : {}),
        ...(restore.length ? { restore } : {}),
      },
      ctx.runtime,
    );
    const warnings = r.problems.map(problemLine);
    return { data: r, text: render(r), warnings };
  },
};

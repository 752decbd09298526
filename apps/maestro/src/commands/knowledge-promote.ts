import { type PromotionResult, promote, SKIP_REASONS } from '@maestro/promote';
import type { CommandModule } from '../kit.js';
import { dim, green, yellow } from '../style.js';
import { allValues, onePositional } from './ledger-args.js';

const usage = 'maestro knowledge promote <session> (--candidate <id>[,<id>...] ... | --all)';

function render(r: PromotionResult): string {
  const lines: string[] = [];
  if (r.recovered) {
    lines.push(dim(`completed an interrupted promotion first (${r.recovered.candidate_ids.length} candidate(s))`));
  }
  if (r.promoted.length) {
    lines.push(`${green('✓')} Promoted ${r.promoted.length} candidate(s) of ${r.session_id}`);
    for (const p of r.promoted) {
      const extra = [
        p.supersedes ? `supersedes ${p.supersedes}` : '',
        p.doc_file ? `full text in ${p.doc_file}` : '',
        p.replayed ? 'completed an earlier write' : '',
      ].filter(Boolean);
      const tail = extra.length ? dim(` (${extra.join('; ')})`) : '';
      lines.push(`  ${p.outcome.padEnd(10)} ${p.promoted_id} ← ${p.candidate_id} "${p.title}" in ${p.file}${tail}`);
    }
  } else lines.push(`Nothing new promoted in ${r.session_id}`);
  for (const a of r.already_promoted) lines.push(`  already    ${a.promoted_id ?? '?'} ← ${a.candidate_id}`);
  for (const reason of SKIP_REASONS) {
    for (const s of r.skipped[reason]) {
      lines.push(`${yellow('skipped')} ${s.candidate_id} "${s.title}" (${reason}): ${s.reason}`);
      lines.push(dim(`    → ${s.command}`));
    }
  }
  return lines.join('\n');
}

/** Warnings for stderr; many observed-only promotions are one line (--json keeps each). */
function warningLines(r: PromotionResult): string[] {
  const observed = r.warnings.filter((w) => w.code === 'observed_only');
  const rest = r.warnings.filter((w) => w.code !== 'observed_only').map((w) => w.message);
  if (observed.length <= 3) return [...observed.map((w) => w.message), ...rest];
  return [`${observed.length} candidates were staged by one run only; promoted without corroboration`, ...rest];
}

export const command: CommandModule = {
  usage,
  summary: 'Promote reconciled candidates into specs/knowhow (explicit, fenced, replay-safe)',
  options: { candidate: { type: 'string', multiple: true }, all: { type: 'boolean' } },
  optionHelp: {
    candidate: 'a candidate id to promote; repeat it or separate ids with commas',
    all: 'every pending eligible candidate; the rest are listed by reason',
  },
  examples: [
    'maestro knowledge promote 20260101-auth --candidate KDC-0123456789abcdef',
    'maestro knowledge promote 20260101-auth --candidate KDC-0123456789abcdef,KDC-fedcba9876543210',
    'maestro knowledge promote 20260101-auth --all --json',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const sessionId = onePositional(args, 'session', usage);
    const r = await promote(
      ctx.layout,
      { sessionId, candidates: allValues(args, 'candidate'), all: args.values.all === true },
      ctx.runtime,
    );
    return { data: r, text: render(r), warnings: warningLines(r) };
  },
};

import { type AuditReport, type AuditScope, auditKnowledge, type BackupList, listBackups } from '@maestro/audit';
import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { bold, dim, green, red, yellow } from '../style.js';

const usage =
  'maestro knowledge audit [--scope spec|knowhow|all] [--prune [--apply [--include-pending-targets]]] [--fail-on P0|P1|P2] | --backups';
/** Text output shows this many findings per subtype; --json has them all. */
const PER_SUBTYPE = 10;
const PRIORITIES = ['P0', 'P1', 'P2'] as const;

export const command: CommandModule = {
  usage,
  summary: 'Find corpus, ledger and usage problems; plan and apply a backed-up soft prune',
  options: {
    scope: { type: 'string' },
    prune: { type: 'boolean' },
    apply: { type: 'boolean' },
    'include-pending-targets': { type: 'boolean' },
    'fail-on': { type: 'string' },
    backups: { type: 'boolean' },
  },
  optionHelp: {
    scope: 'spec, knowhow or all (default); pipeline and usage checks always run',
    prune: 'also print the deterministic soft-prune plan (deprecate/supersede, both sides, never delete)',
    apply: 'apply the plan: back up to .workflow/.trash/, write atomically, log to .workflow/.knowledge-audit/',
    'include-pending-targets': 'also apply actions whose target a pending candidate with a fresh receipt matches',
    'fail-on': 'exit 1 when a finding of this priority or higher exists (for CI)',
    backups: 'list the backups of earlier applies (for `maestro knowledge restore`)',
  },
  examples: [
    'maestro knowledge audit',
    'maestro knowledge audit --scope spec --prune --json',
    'maestro knowledge audit --prune --apply',
    'maestro knowledge audit --fail-on P0',
    'maestro knowledge audit --backups',
  ],
  async run(ctx, args) {
    const v = args.values;
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    }
    const failOn = v['fail-on'] as string | undefined;
    if (failOn !== undefined && !PRIORITIES.includes(failOn as never)) {
      throw inputError('USAGE', `--fail-on must be one of P0, P1, P2 (got "${failOn}")`, { hint: `usage: ${usage}` });
    }
    if (v.backups) {
      if (v.prune || v.apply || v.scope || failOn) {
        throw inputError('USAGE', '--backups lists backups and takes no other audit option', {
          hint: `usage: ${usage}`,
        });
      }
      const list = listBackups(ctx.layout);
      return { data: list, text: backupsText(list) };
    }
    ctx.progress('auditing the knowledge corpus…');
    const { readExposure } = await import('@maestro/search');
    const report = await auditKnowledge(ctx.layout, {
      exposure: readExposure,
      scope: (v.scope as AuditScope | undefined) ?? 'all',
      prune: v.prune === true,
      apply: v.apply === true,
      includePendingTargets: v['include-pending-targets'] === true,
      runtime: ctx.runtime,
    });
    const worst = PRIORITIES.findIndex((p) => report.counts[p] > 0);
    const failed = failOn !== undefined && worst !== -1 && worst <= PRIORITIES.indexOf(failOn as never);
    return { data: report, text: reportText(report), exitCode: failed ? 1 : 0 };
  },
};

function reportText(r: AuditReport): string {
  const c = r.counts;
  const lines = [
    bold(`Knowledge audit (${r.scope}): ${r.findings.length} finding(s) · P0 ${c.P0} · P1 ${c.P1} · P2 ${c.P2}`),
  ];
  if (r.spec)
    lines.push(
      `Specs: ${r.spec.total} (${r.spec.active} active, ${r.spec.deprecated} deprecated, ${r.spec.without_sid} without sid)`,
    );
  if (r.knowhow)
    lines.push(
      `Knowhow: ${r.knowhow.total} (${r.knowhow.active} active, ${r.knowhow.deprecated} deprecated, ${r.knowhow.invalid} invalid)`,
    );
  const p = r.pipeline;
  lines.push(
    `Pipeline: ${p.sessions} session(s) · ${p.ledgers} ledger(s) · ${p.pending_corroborated} corroborated pending · ${p.pending_observed} observed pending · ${p.promoted} promoted · ${p.invalid_files} unreadable file(s)`,
  );
  for (const [name, u] of [
    ['Exposure', r.usage.exposure],
    ['Consumption', r.usage.consumption],
  ] as const) {
    lines.push(
      u.top10_share === null
        ? `${name}: ${u.available ? 'no events' : 'counters not available'}`
        : `${name}: top-10 ${(u.top10_share * 100).toFixed(1)}% · Gini ${u.gini?.toFixed(2)} over ${u.entries} active entries`,
    );
  }
  const shown = new Map<string, number>();
  for (const f of r.findings) {
    const n = (shown.get(f.subtype) ?? 0) + 1;
    shown.set(f.subtype, n);
    if (n > PER_SUBTYPE) continue;
    const tag = f.priority === 'P0' ? red(f.priority) : f.priority === 'P1' ? yellow(f.priority) : f.priority;
    lines.push(`  ${tag} ${f.store}/${f.subtype} ${f.target}: ${f.evidence}`);
    const where = f.file ? `${f.file}${f.line ? `:${f.line}` : ''}` : null;
    const extra = [where, f.command ? `next: ${f.command}` : null].filter(Boolean).join(' · ');
    if (extra) lines.push(dim(`       ${extra}`));
  }
  for (const [subtype, n] of shown) {
    if (n > PER_SUBTYPE) lines.push(dim(`  … and ${n - PER_SUBTYPE} more ${subtype} (see --json)`));
  }
  if (r.prune_plan) {
    lines.push(bold(`Prune plan: ${r.prune_plan.actions.length} soft action(s)`));
    for (const a of r.prune_plan.actions) {
      const pending = a.pending_targets.length
        ? yellow(
            ` [target of pending ${a.pending_targets.map((t) => `${t.candidate_id} (${t.session_id}/${t.run_id})`).join(', ')}]`,
          )
        : '';
      lines.push(`  ${a.id} ${a.action} ${a.target_id} → ${a.successor_id} (${a.reason})${pending}`);
    }
  }
  if (r.applied) {
    const a = r.applied;
    lines.push(
      a.count
        ? `${green('✓')} Applied: ${a.count} · backup: ${a.backup_dir} · undo: maestro knowledge restore ${a.backup_id}`
        : 'Applied: 0 · backup: not needed',
    );
    if (a.skipped_pending_targets.length) {
      lines.push(
        yellow(
          `Skipped ${a.skipped_pending_targets.length} action(s) whose target a pending candidate matches; review those candidates first, or rerun with --include-pending-targets`,
        ),
      );
    }
  } else if (r.prune_plan?.actions.length) lines.push(dim('next: maestro knowledge audit --prune --apply'));
  for (const n of r.notes) lines.push(dim(`note: ${n}`));
  return lines.join('\n');
}

function backupsText(list: BackupList): string {
  if (!list.backups.length) return 'No audit backups in .workflow/.trash/';
  const lines = [bold(`Audit backups: ${list.backups.length}`)];
  for (const b of list.backups) {
    lines.push(
      `  ${b.backup_id}  ${b.state}  ${b.actions} action(s)  ${b.files.length} file(s)${b.problem ? `  ${red(b.problem)}` : ''}`,
    );
  }
  lines.push(dim('undo an apply: maestro knowledge restore <backup-id>'));
  return lines.join('\n');
}

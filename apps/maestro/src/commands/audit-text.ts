import type { AuditReport, BackupList } from '@maestro/audit';
import { bold, dim, green, red, yellow } from '../style.js';

/** Text output shows this many findings per subtype; --json has them all. */
const PER_SUBTYPE = 10;

/** The human form of `maestro knowledge audit`: summary, findings (capped per subtype), plan, apply result. */
export function reportText(r: AuditReport): string {
  const lines = [...summaryLines(r), ...findingLines(r), ...planLines(r)];
  for (const n of r.notes) lines.push(dim(`note: ${n}`));
  return lines.join('\n');
}

function summaryLines(r: AuditReport): string[] {
  const c = r.counts;
  const p = r.pipeline;
  const lines = [
    bold(`Knowledge audit (${r.scope}): ${r.findings.length} finding(s) · P0 ${c.P0} · P1 ${c.P1} · P2 ${c.P2}`),
  ];
  if (r.spec) {
    const s = r.spec;
    lines.push(`Specs: ${s.total} (${s.active} active, ${s.deprecated} deprecated, ${s.without_sid} without sid)`);
  }
  if (r.knowhow) {
    const k = r.knowhow;
    lines.push(`Knowhow: ${k.total} (${k.active} active, ${k.deprecated} deprecated, ${k.invalid} invalid)`);
  }
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
  const ev = r.evidence;
  lines.push(
    `Evidence: ${ev.entries} entr${ev.entries === 1 ? 'y' : 'ies'} judged by runs · ${ev.supported} supported · ${ev.contradicted} contradicted · ${ev.below_threshold} below threshold`,
  );
  return lines;
}

function findingLines(r: AuditReport): string[] {
  const lines: string[] = [];
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
  return lines;
}

function planLines(r: AuditReport): string[] {
  const lines: string[] = [];
  if (r.prune_plan) {
    lines.push(bold(`Prune plan: ${r.prune_plan.actions.length} soft action(s)`));
    for (const a of r.prune_plan.actions) {
      const who = a.pending_targets.map((t) => `${t.candidate_id} (${t.session_id}/${t.run_id})`).join(', ');
      const pending = who ? yellow(` [target of pending ${who}]`) : '';
      lines.push(`  ${a.id} ${a.action} ${a.target_id} → ${a.successor_id} (${a.reason})${pending}`);
    }
  }
  const a = r.applied;
  if (!a) {
    if (r.prune_plan?.actions.length) lines.push(dim('next: maestro knowledge audit --prune --apply'));
    return lines;
  }
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
  return lines;
}

export function backupsText(list: BackupList): string {
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

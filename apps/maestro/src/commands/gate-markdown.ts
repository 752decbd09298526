import type { GateResult } from '@maestro/gate';

/** A table cell: pipes escaped, line breaks flattened, so a message cannot break the table. */
function cell(text: string | null): string {
  if (!text) return '';
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

const code = (text: string | null) => (text ? `\`${text.replace(/`/g, "'")}\`` : '');

function scope(r: GateResult): string {
  const s = r.selection;
  if (s.mode === 'changed-since') {
    const touched = s.changed_sessions?.length ?? 0;
    return `sessions changed since ${code(s.ref)} (${touched} touched, ${r.sessions.length} gated)`;
  }
  return s.mode === 'sessions' ? `${r.sessions.length} named session(s)` : `all ${r.sessions.length} session(s)`;
}

/**
 * The gate as GitHub-flavoured Markdown, for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a pull
 * request comment: verdict, scope, one row per session, then every reason with the command that clears it.
 */
export function gateMarkdown(r: GateResult): string {
  const runs = r.sessions.reduce((n, s) => n + s.runs_checked, 0);
  const lines = [
    `## ${r.ok ? '✅ Knowledge gate passed' : '❌ Knowledge gate failed'}`,
    '',
    `Checked ${scope(r)}: ${runs} run(s) with open candidates, ${r.review_required_total} awaiting review (allowed ${r.max_pending_review}), audit P0 ${r.audit.p0} · P1 ${r.audit.p1} · P2 ${r.audit.p2}.`,
  ];
  if (r.sessions.length) {
    lines.push('', '| Session | Runs checked | Fresh | Stale | Missing | Awaiting review | Promoting |');
    lines.push('|---|---:|---:|---:|---:|---:|---:|');
    for (const s of r.sessions) {
      lines.push(
        `| ${code(s.session_id)} | ${s.runs_checked} | ${s.fresh} | ${s.stale} | ${s.missing} | ${s.review_required} | ${s.promoting} |`,
      );
    }
  }
  if (r.reasons.length) {
    lines.push('', `### ${r.reasons.length} reason(s)`, '', '| Reason | Where | What | Fix |', '|---|---|---|---|');
    for (const x of r.reasons) {
      const where = [x.session_id, x.run_id, x.target].filter(Boolean).join(' / ');
      lines.push(`| ${code(x.code)} | ${cell(where)} | ${cell(x.message)} | ${code(x.command)} |`);
    }
  }
  lines.push('', `<sub>maestro knowledge gate · ${r.generated_at}</sub>`);
  return `${lines.join('\n')}\n`;
}

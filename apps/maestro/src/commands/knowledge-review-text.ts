import { appendAll } from '@maestro/core';
import type { ResolutionResult, ReviewCandidate, ReviewView } from '@maestro/reconcile';
import { bold, cyan, dim, green, red, yellow } from '../style.js';

const DROP_WHY: Record<string, string> = {
  'candidate-changed': 'the candidate text changed',
  'target-changed': 'the target entry changed',
  'target-missing': 'the target entry is gone or deprecated',
  'new-evidence': 'a new match appeared that the decision did not consider',
};

function badge(c: ReviewCandidate): string {
  const verdict = c.disposition ? `${c.disposition} · ${c.promotion_eligibility}` : 'no verdict';
  const color = c.freshness !== 'fresh' ? yellow : c.promotion_eligibility === 'review_required' ? red : green;
  return color(`[${verdict} · ${c.freshness}]`);
}

function candidateLines(c: ReviewCandidate): string[] {
  const where = c.run_ids.length > 1 ? `${c.stage} (${c.run_ids.length} runs)` : `${c.stage} (${c.run_ids[0] ?? '—'})`;
  const lines = [
    `${bold(c.candidate_id)} ${badge(c)} ${c.status} · ${where} · ${c.target}${c.category ? `:${c.category}` : ''}${c.action !== 'propose' ? ` · ${c.action}` : ''}`,
    `  "${c.title}"`,
    dim(`  ${c.content_snippet}`),
  ];
  if (c.evidence_refs.length) lines.push(dim(`  evidence: ${c.evidence_refs.join(', ')}`));
  if (c.canonical) {
    const t = c.canonical;
    const status =
      t.status === 'active' ? t.status : yellow(`${t.status}${t.superseded_by ? ` → ${t.superseded_by}` : ''}`);
    const at = t.file ? ` ${t.file}${t.line ? `:${t.line}` : ''}` : '';
    lines.push(`  target ${t.id} (${status})${t.title ? ` "${t.title}"` : ''}${dim(at)}`);
  }
  if (c.reaffirms) lines.push(cyan(`  reaffirms ${c.reaffirms}: promotion records a reaffirmation, no new entry`));
  if (c.resolution) {
    lines.push(dim(`  resolution: ${c.resolution.status} — ${c.resolution.reason}`));
  }
  for (const m of c.matches) {
    lines.push(`  ${m.relation.padEnd(19)} ${m.knowledge_id} "${m.title}" ${m.composite.toFixed(3)}`);
    for (const e of m.evidence.slice(0, 2)) lines.push(dim(`      ${e}`));
  }
  if (c.dropped_resolution) {
    const d = c.dropped_resolution;
    lines.push(
      yellow(
        `  an earlier resolution (${d.choice ?? '?'}${d.target_id ? ` of ${d.target_id}` : ''}: "${d.reason}") was dropped: ${DROP_WHY[d.dropped_because] ?? d.dropped_because}`,
      ),
    );
  }
  if (c.status === 'draft') lines.push(dim('  report draft: staged when the run completes, then resolvable'));
  if (c.next.refresh) lines.push(`  → ${c.next.refresh}`);
  for (const o of c.next.offers) lines.push(`  → ${o.command}`, dim(`      ${o.meaning}`));
  if (c.next.promote) lines.push(`  → ${c.next.promote}`);
  return lines;
}

export function renderReview(v: ReviewView): string {
  const c = v.counts;
  const parts = [
    `${c.review_required} review required`,
    `${c.eligible} eligible`,
    `${c.suppressed} suppressed`,
    c.stale ? yellow(`${c.stale} stale`) : '',
    c.missing ? yellow(`${c.missing} missing`) : '',
    c.promoted ? `${c.promoted} promoted` : '',
  ].filter(Boolean);
  const lines = [
    `${bold(`Knowledge review ${v.session_id}`)} (session ${v.session_status}) · ${c.candidates} candidate(s): ${parts.join(' · ')}`,
  ];
  const regenerated = v.runs.filter((r) => r.regenerated);
  if (regenerated.length) {
    const carried = regenerated.reduce((n, r) => n + r.carried_over, 0);
    const dropped = regenerated.reduce((n, r) => n + r.dropped, 0);
    lines.push(
      dim(
        `reconciled ${regenerated.length} run(s) (${v.matcher_revision}); ${carried} resolution(s) carried over, ${dropped} dropped`,
      ),
    );
    for (const r of regenerated.filter((x) => x.corrupt_copy)) {
      lines.push(yellow(`rewrote the damaged receipt of ${r.run_id}; the old bytes are in ${r.corrupt_copy}`));
    }
  }
  for (const r of v.runs) {
    if (!r.revalidated) continue;
    const { added, changed, removed } = r.revalidated;
    lines.push(
      dim(
        `receipt of ${r.run_id} still holds: the corpus changed since (entries: ${added} added, ${changed} changed, ${removed} removed) but no verdict did`,
      ),
    );
  }
  for (const r of v.runs.filter((x) => x.after === 'stale')) {
    const why = r.reasons.find((x) => x.startsWith('not revalidated: '));
    if (why) lines.push(yellow(`receipt of ${r.run_id} is stale: ${why.slice('not revalidated: '.length)}`));
  }
  const unreadable = v.problems.filter((p) => p.severity === 'error').length;
  if (unreadable) {
    lines.push(
      yellow(`${unreadable} file(s) of this session could not be read (named on stderr): their runs are not shown`),
    );
  }
  if (c.candidates === 0) lines.push(unreadable ? 'Nothing to review in the readable runs.' : 'Nothing to review.');
  for (const cand of v.candidates) appendAll(lines, ['', ...candidateLines(cand)]);
  return lines.join('\n');
}

export function renderResolution(r: ResolutionResult): string {
  if (r.resolved.length === 0) return `Nothing to resolve in ${r.session_id}.`;
  const as =
    r.choice === 'conflict'
      ? r.contest
        ? 'conflict, question left open'
        : 'conflict, existing rule stands'
      : r.choice;
  const lines = [`${green('✓')} Resolved ${r.resolved.length} candidate(s) of ${r.session_id} as ${as}`];
  for (const x of r.resolved) {
    const target = x.canonical_id ? ` → ${x.canonical_id}` : '';
    const mark = x.conflict_marked ? '; target marked contested' : '';
    lines.push(
      `  ${x.candidate_id}${target}: ${x.disposition} · ${x.promotion_eligibility} (ledger ${x.ledger_status}${mark})`,
    );
  }
  lines.push(dim(`next: maestro knowledge review ${r.session_id}`));
  return lines.join('\n');
}

import { maxOf } from '@maestro/core';
import { type BacklogItem, type BacklogResult, SEVERITY_ORDER } from '@maestro/reconcile';
import { type Html, h, seg } from '../html.js';
import { ageText, dispositionBadge, freshnessBadge } from './words.js';

interface SessionRow {
  id: string;
  items: BacklogItem[];
}

/** The backlog across sessions: totals, counts by severity and age, one row per session, every item. */
export function backlogView(r: BacklogResult): Html {
  const c = r.counts;
  const sessions = new Map<string, SessionRow>();
  for (const i of r.items) {
    const row = sessions.get(i.session_id) ?? { id: i.session_id, items: [] };
    row.items.push(i);
    sessions.set(i.session_id, row);
  }
  const problems = r.problems.length
    ? h`<section class="card warn"><h2>Could not read</h2><ul>${r.problems.map(
        (p) => h`<li><code>${p.file}${p.line ? `:${p.line}` : ''}</code> ${p.message}</li>`,
      )}</ul></section>`
    : '';
  return h`<h1>Knowledge backlog</h1>
<section class="stats">
${stat(c.pending, 'pending')}${stat(c.review_required, 'need review')}${stat(c.corroborated, 'corroborated')}${stat(
  c.observed,
  'observed once',
)}${stat(c.unreconciled, 'not freshly reconciled')}${stat(c.sessions, 'sessions in all')}
</section>
${problems}
<section class="card"><h2>By severity</h2>${severityCounts(r.items)}<h2>By age</h2>${ageCounts(r.items)}</section>
<section class="card"><h2>Sessions</h2>${sessions.size ? sessionTable([...sessions.values()]) : h`<p class="empty">Nothing pending: every staged candidate is promoted or rejected.</p>`}</section>
${r.items.length ? h`<section class="card"><h2>Pending candidates</h2>${itemTable(r.items)}</section>` : ''}`;
}

const stat = (n: number, label: string) => h`<div class="stat"><b>${n}</b><span>${label}</span></div>`;

function severityCounts(items: BacklogItem[]): Html {
  const cells = SEVERITY_ORDER.map((d) => ({ d, n: items.filter((i) => i.disposition === d).length })).filter(
    (x) => x.n > 0,
  );
  const none = items.filter((i) => !i.disposition).length;
  if (!cells.length && !none) return h`<p class="empty">—</p>`;
  return h`<ul class="chips">${cells.map((x) => h`<li>${dispositionBadge(x.d)} ${x.n}</li>`)}${
    none ? h`<li>${dispositionBadge(null)} ${none}</li>` : ''
  }</ul>`;
}

const AGE_BUCKETS: [string, (d: number) => boolean][] = [
  ['under a week', (d) => d < 7],
  ['1–4 weeks', (d) => d >= 7 && d < 30],
  ['30 days or more', (d) => d >= 30],
];

function ageCounts(items: BacklogItem[]): Html {
  return h`<ul class="chips">${AGE_BUCKETS.map(
    ([label, f]) => h`<li><span class="badge grey">${label}</span> ${items.filter((i) => f(i.age_days)).length}</li>`,
  )}</ul>`;
}

function sessionTable(rows: SessionRow[]): Html {
  return h`<div class="scroll"><table><thead><tr><th>Session</th><th>Pending</th><th>Worst verdict</th><th>Corroborated</th><th>Oldest</th><th>Receipts</th></tr></thead><tbody>${rows.map(
    (s) => {
      const worst = s.items.map((i) => i.disposition).find((d) => d !== null) ?? null;
      const stale = s.items.filter((i) => i.freshness !== 'fresh').length;
      const oldest = maxOf(s.items.map((i) => i.age_days));
      return h`<tr><td><a href="/session/${seg(s.id)}">${s.id}</a></td><td>${s.items.length}</td><td>${dispositionBadge(
        worst,
      )}</td><td>${s.items.filter((i) => i.stage === 'corroborated').length}</td><td>${ageText(oldest)}</td><td>${
        stale ? h`<span class="badge red">${stale} not fresh</span>` : h`<span class="badge green">fresh</span>`
      }</td></tr>`;
    },
  )}</tbody></table></div>`;
}

function itemTable(items: BacklogItem[]): Html {
  return h`<div class="scroll"><table><thead><tr><th>Candidate</th><th>Verdict</th><th>Stage</th><th>Age</th><th>Receipt</th><th>Session</th></tr></thead><tbody>${items.map(
    (i) =>
      h`<tr><td><a href="/session/${seg(i.session_id)}#${i.candidate_id}">${i.title}</a><br><code class="dim">${i.candidate_id}</code></td><td>${dispositionBadge(
        i.disposition,
      )}</td><td>${i.stage}</td><td>${ageText(
        i.age_days,
      )}</td><td>${freshnessBadge(i.freshness)}</td><td>${i.session_id}</td></tr>`,
  )}</tbody></table></div>`;
}

import {
  CHOICES,
  DISPOSITIONS,
  type ReviewCandidate,
  type ReviewMatch,
  type ReviewView,
  resolutionChoices,
} from '@maestro/reconcile';
import { type Html, h, langOf, seg } from '../html.js';
import { compare, type EntryText } from './compare.js';
import { csrfField } from './layout.js';
import { dispositionBadge, dispositionLabel, eligibilityBadge, freshnessBadge } from './words.js';

export interface SessionPageData {
  view: ReviewView;
  /** Full candidate text by candidate id (the review row holds a snippet only). */
  contents: ReadonlyMap<string, string>;
  /** Current text of every matched entry, by knowledge id. */
  entries: ReadonlyMap<string, EntryText>;
}

/** Stale or missing receipts block resolve and promote, as in the CLI; refresh is offered instead. */
export const blocked = (v: ReviewView) => v.counts.stale + v.counts.missing > 0;

export function sessionView(d: SessionPageData, csrf: string): Html {
  const v = d.view;
  const sid = seg(v.session_id);
  const stale = blocked(v);
  const promotable = v.candidates.some((c) => c.next.promote);
  return h`<h1>Session <code>${v.session_id}</code></h1>
<p class="dim">${v.session_status} · matcher ${v.matcher_revision} · ${v.counts.promoted} promoted so far</p>
<section class="stats">${stat(v.counts.candidates, 'open candidates')}${stat(v.counts.review_required, 'need review')}${stat(
    v.counts.eligible,
    'eligible',
  )}${stat(v.counts.stale + v.counts.missing, 'stale or missing receipts')}</section>
${stale ? h`<div class="flash error" role="alert"><p>${v.counts.stale + v.counts.missing} candidate(s) have no fresh receipt: the corpus, the candidates or the matcher changed since reconciliation. Resolve and promote are disabled until you refresh (like <code>maestro knowledge review ${v.session_id} --refresh</code>).</p></div>` : ''}
<section class="actions card">
${refreshForm(v.session_id, csrf, stale)}
${
  promotable && !stale
    ? h`<a class="button primary" href="/session/${sid}/promote">Promote eligible…</a>`
    : h`<span class="button disabled" aria-disabled="true">Promote eligible…</span>`
}
</section>
${problems(v)}
${batchForm(v, csrf, stale)}
${v.candidates.length ? v.candidates.map((c) => card(c, d, csrf)) : h`<p class="empty">No open candidates in this session.</p>`}`;
}

/** `knowledge review <s> --refresh` as a button; the main one when receipts are stale. */
export function refreshForm(sessionId: string, csrf: string, primary: boolean): Html {
  return h`<form method="post" action="/session/${seg(sessionId)}/refresh">${csrfField(csrf)}<button class="${primary ? 'primary' : ''}" type="submit">Refresh receipts</button></form>`;
}

const stat = (n: number, label: string) => h`<div class="stat"><b>${n}</b><span>${label}</span></div>`;

function problems(v: ReviewView): Html {
  if (!v.problems.length) return h``;
  return h`<section class="card warn"><h2>Could not read</h2><ul>${v.problems.map(
    (p) =>
      h`<li><code>${p.file}${p.line ? `:${p.line}` : ''}</code> ${p.message}${p.hint ? h` <span class="dim">${p.hint}</span>` : ''}</li>`,
  )}</ul></section>`;
}

function batchForm(v: ReviewView, csrf: string, stale: boolean): Html {
  const present = DISPOSITIONS.filter((d) => v.candidates.some((c) => c.disposition === d));
  return h`<form id="batch" class="card batch" method="post" action="/session/${seg(v.session_id)}/batch">
<h2>Resolve a batch</h2>${csrfField(csrf)}<input type="hidden" name="fp" value="${v.corpus_fingerprint}">
<fieldset${stale ? h` disabled` : ''}>
<label>Which <select name="which"><option value="selected">the candidates ticked below</option>${present.map(
    (d) => h`<option value="${d}">every pending ${dispositionLabel(d)} verdict</option>`,
  )}</select></label>
<label>As <select name="as">${CHOICES.map((c) => h`<option>${c}</option>`)}</select></label>
<label class="wide">Reason <textarea name="reason" rows="2" required placeholder="why (recorded in the receipt)"></textarea></label>
<button type="submit">Resolve batch</button>
</fieldset></form>`;
}

function card(c: ReviewCandidate, d: SessionPageData, csrf: string): Html {
  const content = d.contents.get(c.candidate_id) ?? c.content_snippet;
  const fresh = c.freshness === 'fresh';
  const decidable = fresh && c.next.resolve.length > 0;
  const tick = h`<input type="checkbox" form="batch" name="candidate" value="${c.candidate_id}" aria-label="select ${c.title}"${
    decidable ? '' : h` disabled`
  }>`;
  const matches = c.matches.length
    ? c.matches.map((m, i) => matchBlock(c, content, m, d.entries.get(m.knowledge_id) ?? null, i === 0))
    : compare({ title: c.title, content }, null, '');
  return h`<article class="card candidate" id="${c.candidate_id}">
<header>${tick}<h3${langOf(c.title)}>${c.title}</h3>${dispositionBadge(c.disposition)}${eligibilityBadge(c.promotion_eligibility)}${freshnessBadge(c.freshness)}</header>
<p class="meta"><code>${c.candidate_id}</code> · ${c.target}${c.category ? ` · ${c.category}` : ''} · ${c.action} · ${c.stage} (${c.run_ids.length} run${c.run_ids.length === 1 ? '' : 's'}: ${c.run_ids.join(', ')})${c.first_recorded_at ? ` · first staged ${c.first_recorded_at.slice(0, 10)}` : ''} · ${c.status}</p>
${explanation(c)}
${matches}
${c.evidence_refs.length ? h`<p class="meta">Evidence: ${c.evidence_refs.map((e) => h`<code>${e}</code> `)}</p>` : ''}
${resolveForm(c, d.view, csrf, decidable)}
</article>`;
}

function explanation(c: ReviewCandidate): Html {
  const parts: Html[] = [];
  if (c.resolution) {
    const who = c.resolution.status === 'confirmed' ? 'Resolved by a person' : 'Matcher verdict';
    const choice = c.resolution.choice ? ` as ${c.resolution.choice}` : '';
    parts.push(
      h`<p class="explain"><b>${who}${choice}:</b> ${c.resolution.reason} <span class="dim">(${c.resolution.resolved_at.slice(0, 10)})</span></p>`,
    );
  }
  if (c.dropped_resolution) {
    const r = c.dropped_resolution;
    parts.push(
      h`<p class="explain warn">An earlier decision (${r.choice ?? 'none'}: ${r.reason}) was dropped: ${r.dropped_because.replace('-', ' ')}.</p>`,
    );
  }
  if (c.canonical && c.canonical.status !== 'active') {
    parts.push(
      h`<p class="explain warn">The target ${c.canonical.id} is ${c.canonical.status}${c.canonical.superseded_by ? `, superseded by ${c.canonical.superseded_by}` : ''}.</p>`,
    );
  }
  return h`${parts}`;
}

function matchBlock(c: ReviewCandidate, content: string, m: ReviewMatch, e: EntryText | null, open: boolean): Html {
  const entry = e ?? {
    id: m.knowledge_id,
    title: m.title,
    content: '(no longer in the corpus)',
    status: 'missing',
    file: m.source_path,
    line: m.source_line,
  };
  const canonical = m.knowledge_id === c.canonical_id ? ' · canonical target' : '';
  const score = `${m.relation.replace('_', ' ')} · score ${m.composite.toFixed(2)}${canonical}`;
  return h`<details class="match"${open ? h` open` : ''}><summary>${m.title} <code>${m.knowledge_id}</code> <span class="dim">${score}</span></summary>
${compare({ title: c.title, content }, entry, m.knowledge_id)}
${m.evidence.length ? h`<ul class="evidence">${m.evidence.map((line) => h`<li>${line}</li>`)}</ul>` : ''}
</details>`;
}

function resolveForm(c: ReviewCandidate, v: ReviewView, csrf: string, decidable: boolean): Html {
  if (c.status === 'draft') {
    return h`<p class="dim">A report draft of a running run: it can be resolved once the run completes and stages it.</p>`;
  }
  if (c.freshness === 'fresh' && !decidable) {
    return h`<p class="dim">No decision needed${c.next.promote ? ': eligible for promotion' : ''}.</p>`;
  }
  const sensible = resolutionChoices(c.disposition);
  const rest = CHOICES.filter((x) => !sensible.includes(x));
  const why =
    c.freshness === 'fresh'
      ? ''
      : h`<p class="dim">Disabled: this candidate's receipt is ${c.freshness}. Refresh first.</p>`;
  return h`<form class="resolve" method="post" action="/session/${seg(v.session_id)}/resolve">${csrfField(csrf)}
<input type="hidden" name="candidate" value="${c.candidate_id}"><input type="hidden" name="fp" value="${v.corpus_fingerprint}">
<fieldset${decidable ? '' : h` disabled`}>
<label>Resolve as <select name="as">${sensible.map((x) => h`<option>${x}</option>`)}${rest.map((x) => h`<option>${x}</option>`)}</select></label>
<label>Target <input name="target" value="${c.canonical_id ?? ''}" placeholder="entry id (ignored for unique)"></label>
${c.disposition === 'potential_conflict' ? h`<label class="wide"><input type="checkbox" name="contest"> with conflict: keep the question open (mark the rule contested); unticked, the existing rule stands and the candidate is rejected</label>` : ''}
<label class="wide">Reason <textarea name="reason" rows="2" required placeholder="why (required, recorded in the receipt)"></textarea></label>
<button type="submit">Resolve</button>
</fieldset>${why}</form>`;
}

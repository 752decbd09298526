import type { HistoryResult, KnowledgeEntry } from '@maestro/spec';
import { type Html, h, langOf, seg } from '../html.js';
import { badge } from './layout.js';

/** Where a promoted entry came from: its `source="session:<session>:<candidate>"` and that ledger. */
export interface Origin {
  session_id: string;
  candidate_id: string;
  /** Null when the session is gone or unreadable. */
  runs: { run_id: string; command: string }[] | null;
  promoted_at: string | null;
  outcome: string | null;
  /** The person's confirmed resolution recorded in the run's receipt, if any. */
  decision: { choice: string | null; reason: string; resolved_at: string } | null;
}

export interface EntryPageData {
  entry: KnowledgeEntry;
  history: HistoryResult;
  origins: ReadonlyMap<string, Origin>;
}

export function entryView(d: EntryPageData): Html {
  const e = d.entry;
  const where = `${e.file}${e.line ? `:${e.line}` : ''}`;
  return h`<h1${langOf(e.title)}>${e.title}</h1>
<p class="meta"><code>${e.id}</code> · ${e.store}${e.category ? ` · ${e.category}` : ''} · ${where} ${
    e.status === 'active' ? badge('active', 'green') : badge('deprecated', 'grey')
  }${e.conflict ? badge('contested', 'red') : ''}</p>
<section class="card"><p class="text"${langOf(e.content)}>${e.content}</p></section>
<section class="card"><h2>History</h2>${d.history.cyclic ? h`<p class="flash error">This chain has a supersession cycle; <code>maestro spec health</code> lists it.</p>` : ''}
<ol class="chain">${d.history.chain.map((item) => {
    const origin = d.origins.get(item.id);
    return h`<li class="${item.id === e.id ? 'here' : ''}"><a href="/entry/${seg(item.id)}">${item.title}</a> <code>${item.id}</code> ${
      item.current ? badge('current', 'green') : item.status === 'deprecated' ? badge('deprecated', 'grey') : ''
    }<br><span class="dim">${item.file}${item.line ? `:${item.line}` : ''}${
      item.supersededBy ? ` · superseded by ${item.supersededBy}` : ''
    }</span>${origin ? originLine(origin) : h`<br><span class="dim">written by hand (no promotion source)</span>`}</li>`;
  })}</ol>
${d.history.broken.length ? h`<p class="dim">Broken links: ${d.history.broken.map((b) => `${b.from} → ${b.to} (${b.attribute}) `)}</p>` : ''}
</section>`;
}

function originLine(o: Origin): Html {
  const runs = o.runs
    ? o.runs.map((r, i) => h`${i ? ', ' : ''}<code>${r.run_id}</code> (${r.command})`)
    : h`<span class="dim">session not readable</span>`;
  const when = o.promoted_at ? ` on ${o.promoted_at.slice(0, 10)}` : '';
  const decision = o.decision
    ? h`<br><span class="origin">resolved by a person${o.decision.choice ? ` as ${o.decision.choice}` : ''} on ${o.decision.resolved_at.slice(0, 10)}: “${o.decision.reason}”</span>`
    : '';
  return h`<br><span class="origin">${o.outcome ?? 'promoted'}${when} from session <a href="/session/${seg(o.session_id)}">${o.session_id}</a>, candidate <code>${o.candidate_id}</code>, staged by ${runs}</span>${decision}`;
}

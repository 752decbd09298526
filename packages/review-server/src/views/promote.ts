import { type PromotionPreview, SKIP_REASONS } from '@maestro/promote';
import { type Html, h, seg } from '../html.js';
import { csrfField } from './layout.js';

/**
 * The confirmation before a promotion: every entry it creates or reaffirms, every candidate it
 * leaves, and the exact lines each file gains or loses. Confirming posts the explicit candidate
 * ids and a digest of these bytes; the server refuses when the plan changed in between.
 */
export function promoteView(sessionId: string, p: PromotionPreview, digest: string, csrf: string): Html {
  const ids = p.result.promoted.map((e) => e.candidate_id);
  const skipped = SKIP_REASONS.flatMap((reason) => p.result.skipped[reason].map((s) => ({ ...s, why: reason })));
  const confirm = ids.length
    ? h`<form method="post" action="/session/${seg(sessionId)}/promote" class="card actions">${csrfField(csrf)}
<input type="hidden" name="digest" value="${digest}">${ids.map((id) => h`<input type="hidden" name="candidate" value="${id}">`)}
<button class="primary" type="submit">Promote these ${ids.length}</button> <a href="/session/${seg(sessionId)}">Cancel</a></form>`
    : h`<p class="empty">Nothing is eligible to promote. <a href="/session/${seg(sessionId)}">Back to the session</a></p>`;
  return h`<h1>Promote from <code>${sessionId}</code></h1>
${p.interrupted ? h`<div class="flash error"><p>An interrupted promotion waits to be completed; promoting completes it first.</p></div>` : ''}
<section class="card"><h2>Will be written</h2>${
    ids.length
      ? h`<ul class="plain">${p.result.promoted.map(
          (e) =>
            h`<li><b>${e.title}</b> → <code>${e.promoted_id}</code> (${e.outcome}) in <code>${e.file}</code>${
              e.supersedes ? h`, supersedes <code>${e.supersedes}</code>` : ''
            }</li>`,
        )}</ul>`
      : h`<p class="empty">Nothing.</p>`
  }</section>
${skipped.length ? h`<section class="card"><h2>Left as they are</h2><ul class="plain">${skipped.map((s) => h`<li><b>${s.title}</b> (${s.why}): ${s.reason}</li>`)}</ul></section>` : ''}
${p.result.warnings.length ? h`<section class="card"><h2>Warnings</h2><ul class="plain">${p.result.warnings.map((w) => h`<li>${w.message}</li>`)}</ul></section>` : ''}
${confirm}
${p.writes.length ? h`<section class="card"><h2>Exact changes</h2>${p.writes.map((w) => fileChange(w))}</section>` : ''}`;
}

/** The lines between the unchanged head and tail of a file: removed ones, then added ones. */
function fileChange(w: { path: string; before: string | null; after: string }): Html {
  const a = (w.before ?? '').split('\n');
  const b = w.after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let ea = a.length;
  let eb = b.length;
  while (ea > start && eb > start && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  const removed = a.slice(start, ea).map((l) => h`<del>- ${l}</del>\n`);
  const added = b.slice(start, eb).map((l) => h`<ins>+ ${l}</ins>\n`);
  const label = w.before === null ? 'new file' : `from line ${start + 1}`;
  return h`<details open><summary><code>${w.path}</code> <span class="dim">${label}</span></summary><pre class="change">${removed}${added}</pre></details>`;
}

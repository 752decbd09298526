import type { AuditReport, BackupList } from '@maestro/audit';
import { type Html, h } from '../html.js';
import { badge, csrfField } from './layout.js';

/** The audit findings, the soft-prune plan (never applied from here) and the backups to restore. */
export function auditView(r: AuditReport, backups: BackupList, csrf: string): Html {
  const plan = r.prune_plan;
  return h`<h1>Audit</h1>
<section class="stats"><div class="stat"><b>${r.counts.P0}</b><span>P0</span></div><div class="stat"><b>${r.counts.P1}</b><span>P1</span></div><div class="stat"><b>${r.counts.P2}</b><span>P2</span></div></section>
<section class="card"><h2>Findings</h2>${
    r.findings.length
      ? h`<div class="scroll"><table><thead><tr><th>Priority</th><th>Finding</th><th>Target</th><th>Evidence</th><th>Next</th></tr></thead><tbody>${r.findings.map(
          (f) =>
            h`<tr><td>${badge(f.priority, f.priority === 'P0' ? 'red' : f.priority === 'P1' ? 'orange' : 'grey')}</td><td>${f.subtype}<br><code class="dim">${f.id}</code></td><td>${findingPlace(f)}</td><td>${f.evidence}</td><td>${f.command ? h`<code>${f.command}</code>` : f.recommended_action}</td></tr>`,
        )}</tbody></table></div>`
      : h`<p class="empty">No findings.</p>`
  }</section>
<section class="card"><h2>Prune plan</h2>${
    plan?.actions.length
      ? h`<p class="dim">Plan <code>${plan.plan_id.slice(0, 12)}</code>: apply it from the terminal with <code>maestro knowledge audit --prune --apply</code> (backed up first).</p><div class="scroll"><table><thead><tr><th>Action</th><th>Target</th><th>Successor</th><th>Why</th></tr></thead><tbody>${plan.actions.map(
          (a) =>
            h`<tr><td>${a.action}</td><td><a href="/entry/${encodeURIComponent(a.target_id)}">${a.target_id}</a><br><span class="dim">${a.target_file}</span></td><td><a href="/entry/${encodeURIComponent(a.successor_id)}">${a.successor_id}</a></td><td>${a.reason}${
              a.pending_targets.length
                ? h`<br>${badge(`${a.pending_targets.length} pending candidate(s) match`, 'orange')}`
                : ''
            }</td></tr>`,
        )}</tbody></table></div>`
      : h`<p class="empty">Nothing to prune.</p>`
  }</section>
<section class="card"><h2>Backups</h2>${
    backups.backups.length
      ? h`<div class="scroll"><table><thead><tr><th>Backup</th><th>State</th><th>Files</th><th></th></tr></thead><tbody>${backups.backups.map(
          (b) =>
            h`<tr><td><code>${b.backup_id}</code><br><span class="dim">${b.created_at ?? ''}</span></td><td>${b.state}${b.problem ? h`<br><span class="dim">${b.problem}</span>` : ''}</td><td>${b.files.map((f) => h`<code>${f}</code><br>`)}</td><td>${
              b.state === 'applied'
                ? h`<form method="post" action="/audit/restore">${csrfField(csrf)}<input type="hidden" name="backup" value="${b.backup_id}"><label class="inline"><input type="checkbox" name="force" value="1"> also files edited since</label> <button type="submit">Restore</button></form>`
                : ''
            }</td></tr>`,
        )}</tbody></table></div>`
      : h`<p class="empty">No backups yet.</p>`
  }</section>`;
}

/** The finding's target, and its file when that says more (the line of a finding about a file). */
function findingPlace(f: AuditReport['findings'][number]): Html {
  const line = f.line ? `:${f.line}` : '';
  if (f.file === f.target) return h`<code>${f.target}${line}</code>`;
  return h`<code>${f.target}</code>${f.file ? h`<br><span class="dim">${f.file}${line}</span>` : ''}`;
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
// The light entries: on an unchanged corpus the gate reads stored checks and a stored audit, so it
// never loads the matcher, the promoter, git or the corpus parser (loaded below when needed).
import { auditSummary, type InputDigests, readInputDigests, saveValue, storedValue } from '@maestro/audit/summary';
import { appendAll, type Issue, inputError, isMaestroError, type Runtime, sha256 } from '@maestro/core';
import { readIntent, type WorkflowLayout } from '@maestro/fs';
import { listSessions, readSession } from '@maestro/ledger/session';
import { PROMOTE_INTENT_FILE } from '@maestro/promote/intent';
import { MATCHER_REVISION } from '@maestro/reconcile/revision';
import { SPEC_INTENT_FILE } from '@maestro/spec/intent';
import type { GateReason, GateResult, GateSession } from './schemas.js';

export interface GateOptions {
  /** Sessions to check; empty or undefined means every session. */
  sessions?: readonly string[];
  /**
   * Only the sessions a branch touched since this git ref (`git diff <ref>...HEAD`, plus
   * uncommitted files); excludes `sessions`. An unknown ref is bad input (exit 2).
   */
  changedSince?: string;
  /** How many unresolved review-required candidates are tolerated (default 0). */
  maxPendingReview?: number;
  runtime: Runtime;
}

const reason = (r: Partial<GateReason> & Pick<GateReason, 'code' | 'message'>): GateReason => ({
  session_id: null,
  run_id: null,
  target: null,
  command: null,
  ...r,
});

/**
 * The release gate. Read-only: derived state (fingerprint cache, index) may be rebuilt, nothing
 * the user wrote changes. `ok` when every selected session's receipts are fresh, unresolved
 * review-required candidates are within the allowance, no promotion or spec commit is left
 * half-applied, and the audit has no P0 finding.
 */
export async function knowledgeGate(layout: WorkflowLayout, options: GateOptions): Promise<GateResult> {
  if (!existsSync(layout.workflow)) {
    throw inputError('NO_WORKFLOW', `no .workflow/ directory in ${layout.root}`, {
      hint: 'run the gate from the project root, or pass --workflow-root <dir>',
    });
  }
  const max = options.maxPendingReview ?? 0;
  // Taken before anything is read: a result stored under these digests never reflects later bytes.
  const digests = readInputDigests(layout);
  const reasons: GateReason[] = [];
  const { ids, selection } = await selectSessions(layout, options, reasons);
  const sessions: GateSession[] = [];
  for (const id of ids) sessions.push(await storedCheck(layout, id, options.runtime, reasons, digests));
  const reviewTotal = sessions.reduce((n, s) => n + s.review_required, 0);
  if (reviewTotal > max) {
    for (const s of sessions.filter((x) => x.review_required > 0)) {
      reasons.push(
        reason({
          code: 'review-required',
          session_id: s.session_id,
          message: `${s.review_required} candidate(s) in ${s.session_id} need a person's resolution (allowed in total: ${max}, found: ${reviewTotal})`,
          command: `maestro knowledge review ${s.session_id}`,
        }),
      );
    }
  }
  checkIntents(layout, reasons);
  // Reused from the store when no input of the audit changed (and no time rule moved).
  const audit = await auditSummary(layout, {
    scope: 'all',
    runtime: options.runtime,
    loadReceipts: async () => {
      const { readReceipt, receiptIsFresh } = await import('@maestro/reconcile');
      return { read: readReceipt, fresh: receiptIsFresh };
    },
    reuse: `reconcile/${MATCHER_REVISION}`,
    digests,
  });
  for (const f of audit.p0) {
    reasons.push(
      reason({
        code: 'audit-p0',
        target: f.target,
        message: `audit P0 ${f.store}/${f.subtype} ${f.target}: ${f.evidence}`,
        command: f.command ?? 'maestro knowledge audit',
      }),
    );
  }
  return {
    schema_version: 'knowledge-gate/1.0',
    ok: reasons.length === 0,
    generated_at: options.runtime.now().toISOString(),
    max_pending_review: max,
    selection,
    review_required_total: reviewTotal,
    sessions,
    audit: { p0: audit.counts.P0, p1: audit.counts.P1, p2: audit.counts.P2 },
    reasons,
  };
}

/** A problem as one message naming its file once (readers often put the file in the message already). */
function problemMessage(p: Issue): string {
  return p.message.includes(p.file) ? p.message : `${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`;
}

async function selectSessions(
  layout: WorkflowLayout,
  options: GateOptions,
  reasons: GateReason[],
): Promise<{ ids: string[]; selection: GateResult['selection'] }> {
  const wanted = options.sessions;
  if (wanted && wanted.length > 0) {
    for (const id of wanted) readSession(layout, id); // unknown or damaged: exit 2, named
    return { ids: [...new Set(wanted)], selection: { mode: 'sessions', ref: null, changed_sessions: null } };
  }
  const changed =
    options.changedSince === undefined
      ? null
      : (await import('@maestro/git')).changedSessions(layout.root, options.changedSince);
  const touched = changed ? new Set(changed.sessions) : null;
  const inScope = (file: string) =>
    !touched || [...touched].some((id) => file.replace(/\\/g, '/').includes(`.workflow/sessions/${id}/`));
  const { sessions, problems } = listSessions(layout);
  for (const p of problems.filter((x) => inScope(x.file))) {
    reasons.push(
      reason({
        code: 'invalid-session',
        target: p.file,
        message: problemMessage(p),
        command: p.hint ?? null,
      }),
    );
  }
  const ids = sessions
    .map((s) => s.session_id)
    .filter((id) => !touched || touched.has(id))
    .sort();
  const selection: GateResult['selection'] = changed
    ? { mode: 'changed-since', ref: changed.ref, changed_sessions: changed.sessions }
    : { mode: 'all', ref: null, changed_sessions: null };
  return { ids, selection };
}

/** Bump when `checkSession` or what it reads from a review changes: older stored checks are never used. */
const GATE_SESSION_REVISION = '1';

/**
 * `checkSession`, reused from the store when neither the session's folder (session, runs,
 * ledgers, receipts, reports) nor the corpus changed: a review reads nothing else, and the
 * matcher revision is part of the key. The clock only stamps revalidated receipts, which the gate
 * does not report.
 */
async function storedCheck(
  layout: WorkflowLayout,
  sessionId: string,
  runtime: Runtime,
  reasons: GateReason[],
  digests: InputDigests | null,
): Promise<GateSession> {
  const folder = digests?.sessions.get(sessionId);
  if (!digests || folder === undefined) return checkSession(layout, sessionId, runtime, reasons);
  const key = sha256(
    JSON.stringify([
      'gate-session',
      GATE_SESSION_REVISION,
      MATCHER_REVISION,
      layout.root,
      sessionId,
      digests.corpus,
      folder,
    ]),
  );
  const hit = storedValue<{ session: GateSession; reasons: GateReason[] }>(digests, key);
  if (hit) {
    appendAll(reasons, hit.reasons);
    return hit.session;
  }
  const mine: GateReason[] = [];
  const session = await checkSession(layout, sessionId, runtime, mine);
  appendAll(reasons, mine);
  saveValue(digests, 'gate-session', key, { session, reasons: mine }, Date.now());
  return session;
}

async function checkSession(
  layout: WorkflowLayout,
  sessionId: string,
  runtime: Runtime,
  reasons: GateReason[],
): Promise<GateSession> {
  const refresh = `maestro knowledge review ${sessionId} --refresh`;
  const out: GateSession = {
    session_id: sessionId,
    runs_checked: 0,
    fresh: 0,
    stale: 0,
    missing: 0,
    review_required: 0,
    promoting: 0,
  };
  let view: Awaited<ReturnType<typeof import('@maestro/reconcile').reviewSession>>;
  try {
    const { reviewSession } = await import('@maestro/reconcile');
    view = await reviewSession(layout, sessionId, {}, runtime);
  } catch (err) {
    if (!isMaestroError(err)) throw err;
    const file = err.location?.file ?? null;
    const corrupt = /receipt|reconciliation/i.test(`${err.code} ${file ?? ''}`);
    reasons.push(
      reason({
        code: corrupt ? 'corrupt-receipt' : 'invalid-run',
        session_id: sessionId,
        target: file,
        message: err.message,
        command: corrupt ? refresh : (err.hint ?? null),
      }),
    );
    return out;
  }
  for (const p of view.problems) {
    if (p.severity !== 'error') continue;
    reasons.push(
      reason({
        code: 'invalid-run',
        session_id: sessionId,
        target: p.file,
        message: problemMessage(p),
        command: p.hint ?? `fix or restore ${p.file} (for example from git); maestro never rewrites a damaged file`,
      }),
    );
  }
  // Only runs with open candidates (pending, promoting, or report drafts) need a fresh receipt:
  // once everything is promoted or rejected, later corpus edits cannot change a decision.
  const open = (status: string) => status === 'pending' || status === 'promoting' || status === 'draft';
  const openRuns = new Set(view.candidates.filter((c) => open(c.status)).flatMap((c) => c.run_ids));
  for (const run of view.runs) {
    if (!openRuns.has(run.run_id)) continue;
    out.runs_checked++;
    out[run.after]++;
    if (run.after === 'fresh') continue;
    reasons.push(
      reason({
        code: run.after === 'missing' ? 'missing-receipt' : 'stale-receipt',
        session_id: sessionId,
        run_id: run.run_id,
        message:
          run.after === 'missing'
            ? `run ${run.run_id} has candidates but no reconciliation receipt`
            : `receipt of run ${run.run_id} is stale: ${run.reasons.join('; ') || 'a fence moved'}`,
        command: refresh,
      }),
    );
  }
  for (const c of view.candidates) {
    if (c.status === 'promoting') {
      out.promoting++;
      reasons.push(
        reason({
          code: 'promotion-in-progress',
          session_id: sessionId,
          target: c.candidate_id,
          message: `candidate ${c.candidate_id} is left in "promoting" by an interrupted promotion`,
          command: `maestro knowledge promote ${sessionId} --candidate ${c.candidate_id}`,
        }),
      );
    }
    const waiting = c.status === 'pending' || (c.status as string) === 'draft';
    if (waiting && c.freshness === 'fresh' && c.promotion_eligibility === 'review_required') out.review_required++;
  }
  return out;
}

/** The session an interrupted promotion belongs to, so the fix command can name it. */
function promotionSession(path: string): string {
  try {
    return readIntent<{ session_id?: string }>(path)?.meta?.session_id ?? '<session>';
  } catch {
    return '<session>';
  }
}

function checkIntents(layout: WorkflowLayout, reasons: GateReason[]): void {
  const promoteSession = promotionSession(join(layout.workflow, PROMOTE_INTENT_FILE));
  // Any promote rolls an interrupted promotion forward first; any spec write does the same for
  // a spec edit (backfill-sid is a safe one: it only adds missing sids).
  const pending: [string, string, string][] = [
    [PROMOTE_INTENT_FILE, 'an interrupted promotion', `maestro knowledge promote ${promoteSession} --all`],
    [SPEC_INTENT_FILE, 'an interrupted spec edit', 'maestro spec backfill-sid'],
  ];
  for (const [file, what, command] of pending) {
    if (!existsSync(join(layout.workflow, file))) continue;
    reasons.push(
      reason({
        code: 'half-applied-commit',
        target: `.workflow/${file}`,
        message: `.workflow/${file} holds ${what} that has not been rolled forward`,
        command,
      }),
    );
  }
}

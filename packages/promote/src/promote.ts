import { relative, resolve } from 'node:path';
import { appendAll, type Issue, inputError, type Runtime, systemRuntime } from '@maestro/core';
import {
  crashPoint,
  type LockOptions,
  readTextIfExists,
  type WorkflowLayout,
  withCorpusLock,
  withLocks,
} from '@maestro/fs';
import { listRuns, readSession, runPaths, sessionPaths, summarizeSession } from '@maestro/ledger';
import {
  categoryFileFor,
  type EditLookup,
  loadCorpusFiles,
  lookupForEdit,
  recordAppends,
  recoverSpecEdit,
  requireWorkflow,
} from '@maestro/spec';
import { plannedIds } from './ids.js';
import { commitPromotion, promoteIntentPath, type RecoveredPromotion, recoverPromotion } from './journal.js';
import type { PromoteRequest, ReceiptSource } from './model.js';
import { type PlanItem, planPromotion } from './plan.js';
import { reconcileReceipts } from './receipts.js';
import { specCategoryOf } from './render.js';
import { type PromotedEntry, type PromotionResult, SKIP_REASONS } from './schemas.js';
import { decide, emptySkipped, type Preselection, preselect, requestedIds, requireFresh } from './select.js';

export interface PromoteOptions {
  /** Receipt reader and fence check; @maestro/reconcile's by default. */
  receipts?: ReceiptSource;
  lock?: LockOptions;
}

/** What `previewPromotion` found: the result promotion would return and the exact bytes it would write. */
export interface PromotionPreview {
  result: PromotionResult;
  /** Files whose bytes would change, relative to `.workflow/`, with their current text (null: new file). */
  writes: { path: string; before: string | null; after: string }[];
  /** True when an interrupted promotion waits to be completed; promoting completes it first. */
  interrupted: boolean;
}

/**
 * `maestro knowledge promote`: under the corpus lock, finish any interrupted promotion, take the
 * session's ledger locks, select, re-check every source run's receipt fences, preflight, plan the
 * exact bytes, journal them and commit. Refusals leave everything as it was.
 */
export async function promote(
  layout: WorkflowLayout,
  request: PromoteRequest,
  runtime: Runtime = systemRuntime,
  options: PromoteOptions = {},
): Promise<PromotionResult> {
  return (await underLocks(layout, request, runtime, options, true)).result;
}

/**
 * The confirmation step of a promotion (the review page's): the same locks, selection, fence
 * re-check, preflight and plan as `promote`, stopping before the intent, so it writes nothing the
 * user wrote. It also refuses exactly where `promote` would (stale or missing receipt, damage).
 * An interrupted promotion is not completed here, only reported.
 */
export async function previewPromotion(
  layout: WorkflowLayout,
  request: PromoteRequest,
  runtime: Runtime = systemRuntime,
  options: PromoteOptions = {},
): Promise<PromotionPreview> {
  const { result, writes } = await underLocks(layout, request, runtime, options, false);
  const interrupted = readTextIfExists(promoteIntentPath(layout)) !== null;
  const preview = writes.map((w) => ({ ...w, before: readTextIfExists(resolve(layout.workflow, w.path)) }));
  return { result, writes: preview, interrupted };
}

async function underLocks(
  layout: WorkflowLayout,
  request: PromoteRequest,
  runtime: Runtime,
  options: PromoteOptions,
  commit: boolean,
): Promise<Outcome> {
  requireWorkflow(layout);
  const ids = requestedIds(request);
  const sessionId = request.sessionId;
  readSession(layout, sessionId);
  return withCorpusLock(
    layout,
    async () => {
      let recovered: RecoveredPromotion | null = null;
      if (commit) {
        await recoverSpecEdit(layout);
        recovered = await recoverPromotion(layout, options.lock);
      }
      const locks = [
        sessionPaths(layout, sessionId).sessionJson,
        ...listRuns(layout, sessionId).runs.map((r) => runPaths(layout, sessionId, r.run_id).delta),
      ];
      const locked = () => promoteLocked(layout, sessionId, ids, recovered, runtime, options, commit);
      return withLocks(locks, locked, options.lock);
    },
    options.lock,
  );
}

interface Outcome {
  result: PromotionResult;
  writes: { path: string; after: string }[];
}

async function promoteLocked(
  layout: WorkflowLayout,
  sessionId: string,
  ids: string[] | null,
  recovered: RecoveredPromotion | null,
  runtime: Runtime,
  options: PromoteOptions,
  commit: boolean,
): Promise<Outcome> {
  const summary = summarizeSession(layout, sessionId);
  refuseDamaged(sessionId, summary.problems);
  const runStatus = new Map(summary.runs.map((r) => [r.run_id, r.status]));
  const pre = preselect(sessionId, summary.candidates, runStatus, ids);
  const result = baseResult(sessionId, ids, pre, recovered);
  if (pre.open.length === 0) return { result, writes: [] };
  const receipts = options.receipts ?? reconcileReceipts;
  const checks = await receipts.check(layout, sessionId, pre.runs, { now: runtime.now().toISOString() });
  requireFresh(sessionId, checks);
  const decision = decide(sessionId, pre, checks, ids !== null);
  result.skipped = decision.skipped;
  appendAll(result.warnings, decision.warnings);
  if (decision.promote.length === 0) return { result, writes: [] };
  const now = runtime.now();
  const ledgers = new Map<string, { path: string; text: string }>();
  for (const run of new Set(decision.promote.flatMap((p) => p.candidate.run_ids))) {
    const abs = runPaths(layout, sessionId, run).delta;
    ledgers.set(run, { path: rel(layout, abs), text: readTextIfExists(abs) ?? '' });
  }
  const sessionJson = sessionPaths(layout, sessionId).sessionJson;
  const plan = planPromotion({
    sessionId,
    now,
    loaded: lookupForEdit(layout, planReads(decision.promote)) ?? loadCorpusFiles(layout),
    items: decision.promote,
    ledgers,
    session: { path: rel(layout, sessionJson), text: readTextIfExists(sessionJson) ?? '' },
  });
  if (!commit) {
    result.promoted = sortById([...result.promoted, ...plan.promoted]);
    result.files = plan.writes.map((w) => w.path);
    return { result, writes: plan.writes.map((w) => ({ path: w.path, after: w.content })) };
  }
  crashPoint('promote:before-intent');
  if (plan.writes.length) {
    const meta = {
      kind: 'knowledge-promotion/1.0' as const,
      session_id: sessionId,
      at: now.toISOString(),
      files: plan.files,
      promoted: plan.promoted,
    };
    await commitPromotion(layout, plan, meta, runtime, options.lock);
    // The spec files only grew: their store rows follow from the text written (best effort).
    recordAppends(
      layout,
      plan.writes.map((w) => ({ file: w.path, text: w.content })),
    );
  }
  result.promoted = sortById([...result.promoted, ...plan.promoted]);
  result.files = [...new Set([...result.files, ...plan.writes.map((w) => w.path)])];
  if (plan.writes.length) refreshAfterWrite(result);
  return { result, writes: [] };
}

/**
 * What planning reads of the corpus (`planPromotion` looks at nothing else): the planned ids, the
 * entries reaffirmed, the histories of the entries superseded, the active entries sharing a title
 * with a spec candidate, and the files the promotion may write.
 */
function planReads(items: readonly PlanItem[]): EditLookup {
  const ids = new Set<string>();
  const histories = new Set<string>();
  const titles: string[] = [];
  const files = new Set<string>();
  for (const { candidate: c, policy } of items) {
    const planned = plannedIds(c);
    if (policy.kind === 'reaffirm') ids.add(policy.entryId);
    if (policy.kind === 'create' && policy.supersedes) {
      histories.add(policy.supersedes);
      histories.add(c.target === 'spec' ? planned.sid : planned.tipId);
    }
    if (c.target === 'spec') {
      ids.add(planned.sid);
      files.add(`specs/${categoryFileFor(specCategoryOf(c))}`);
      files.add(planned.docFile);
      if (policy.kind === 'create') titles.push(c.title);
    } else {
      ids.add(planned.tipId);
      files.add(planned.tipFile);
    }
  }
  return { ids: [...ids], histories: [...histories], titles, files: [...files] };
}

/**
 * The corpus just changed, so every receipt of a run with candidates still pending is stale: the
 * resolve commands of the skipped ones first need a refresh, and the gate will ask for one too.
 */
function refreshAfterWrite(result: PromotionResult): void {
  const refresh = `maestro knowledge review ${result.session_id} --refresh`;
  let pending = 0;
  for (const reason of SKIP_REASONS) {
    for (const s of result.skipped[reason]) {
      if (reason !== 'rejected') pending++;
      if (s.command.startsWith('maestro knowledge review ')) s.command = `${refresh} && ${s.command}`;
    }
  }
  if (pending === 0) return;
  result.warnings.push({
    code: 'receipts_stale',
    candidate_id: null,
    message: `the corpus changed, so the receipts of ${pending} candidate(s) left pending are stale: run \`${refresh}\` before resolving them (\`maestro knowledge gate\` asks for the same)`,
  });
}

function rel(layout: WorkflowLayout, abs: string): string {
  return relative(layout.workflow, abs).split('\\').join('/');
}

/** Promotion needs every run of the session: a damaged run or ledger is named (exit 2). */
function refuseDamaged(sessionId: string, problems: readonly Issue[]): void {
  const first = problems.find((p) => p.severity === 'error');
  if (!first) return;
  throw inputError('SESSION_DAMAGED', `cannot promote from session ${sessionId}: ${first.message}`, {
    hint: first.hint ?? `repair or move aside ${first.file}; nothing was written`,
    location: { file: first.file, line: first.line, column: first.column },
  });
}

/**
 * The result before anything new is written. Candidates an interrupted promotion of this session
 * just completed are reported as it would have reported them (`replayed: true`), not as
 * already promoted, so the outcome does not depend on where the crash happened.
 */
function baseResult(
  sessionId: string,
  ids: string[] | null,
  pre: Preselection,
  recovered: RecoveredPromotion | null,
): PromotionResult {
  const replayed: PromotedEntry[] = [];
  if (recovered?.sessionId === sessionId) {
    const wanted = new Set(ids ?? recovered.promoted.map((p) => p.candidate_id));
    for (const p of recovered.promoted) if (wanted.has(p.candidate_id)) replayed.push({ ...p, replayed: true });
  }
  const done = new Set(replayed.map((p) => p.candidate_id));
  const warnings: PromotionResult['warnings'] = [];
  if (recovered && recovered.sessionId !== sessionId) {
    warnings.push({
      code: 'recovered_other_session',
      candidate_id: null,
      message: `completed an interrupted promotion of session ${recovered.sessionId} (${recovered.promoted.map((p) => p.candidate_id).join(', ')})`,
    });
  }
  return {
    schema_version: 'knowledge-promotion-result/1.0',
    session_id: sessionId,
    selection: ids ? 'explicit' : 'all',
    promoted: sortById(replayed),
    already_promoted: pre.already.filter((a) => !done.has(a.candidate_id)),
    skipped: pre.skipped ?? emptySkipped(),
    warnings,
    recovered: recovered
      ? {
          intent_id: recovered.intentId,
          session_id: recovered.sessionId,
          candidate_ids: recovered.promoted.map((p) => p.candidate_id),
        }
      : null,
    files: recovered?.files ?? [],
  };
}

function sortById<T extends { candidate_id: string }>(items: T[]): T[] {
  return items.sort((a, b) => (a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0));
}

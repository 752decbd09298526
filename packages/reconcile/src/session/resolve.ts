import { inputError, type Runtime, refusedError } from '@maestro/core';
import { type WorkflowLayout, withCorpusLock } from '@maestro/fs';
import { type SummaryCandidate, updateDelta } from '@maestro/ledger';
import { markConflict } from '@maestro/spec';
import type { Disposition } from '../matcher/types.js';
import { CHOICE_EFFECT, countsOf } from '../receipt/build.js';
import { computeCorpusFingerprint } from '../receipt/fingerprint.js';
import { compareFences } from '../receipt/freshness.js';
import { writeReceipt } from '../receipt/io.js';
import { candidateContentHash } from '../receipt/snapshot.js';
import { CHOICES, type Choice, type Receipt, type ReceiptCandidate } from '../schemas.js';
import { loadSessionReceipts, type SessionReceipts } from './reconcile-session.js';

export interface ResolveRequest {
  /** Explicit candidates, or `all` to resolve every pending candidate with that disposition. */
  candidateIds?: readonly string[];
  all?: { disposition: Disposition };
  choice: Choice;
  /**
   * With `conflict`: leave the question open and mark the target contested (with the candidate
   * and the reason). Without it a conflict resolution rejects the candidate and leaves the rule as it is.
   */
  contest?: boolean;
  /** Defaults to the receipt's canonical target; never allowed with `unique`. */
  target?: string | null;
  reason: string;
}

export interface ResolvedCandidate {
  candidate_id: string;
  disposition: Disposition;
  promotion_eligibility: ReceiptCandidate['promotion_eligibility'];
  canonical_id: string | null;
  affected_runs: string[];
  conflict_marked: boolean;
  ledger_status: SummaryCandidate['status'];
}

export interface ResolutionResult {
  schema_version: 'knowledge-resolution/1.0';
  session_id: string;
  choice: Choice;
  contest: boolean;
  reason: string;
  resolved: ResolvedCandidate[];
  warnings: string[];
}

function validate(req: ResolveRequest, sessionId: string): string {
  const reason = req.reason?.trim() ?? '';
  if (!reason) {
    throw inputError('RESOLUTION_REASON_REQUIRED', 'knowledge resolution requires a non-empty reason', {
      hint: `add --reason "<why>", e.g. maestro knowledge review ${sessionId} --resolve <cid> --as ${req.choice} --reason "same rule as the target"`,
    });
  }
  if (!(CHOICES as readonly string[]).includes(req.choice)) {
    throw inputError('INVALID_CHOICE', `--as must be one of ${CHOICES.join(', ')} (got "${req.choice}")`);
  }
  if (req.contest && req.choice !== 'conflict') {
    throw inputError('CONTEST_NEEDS_CONFLICT', `--contest goes only with --as conflict (got --as ${req.choice})`, {
      hint: `to keep the question open, resolve --as conflict --contest; to let the existing rule stand, drop --contest`,
    });
  }
  if (req.choice === 'unique' && req.target) {
    throw inputError('TARGET_NOT_ALLOWED', '--target is not valid for unique resolution', {
      hint: 'drop --target: a unique candidate is promoted as a new entry',
    });
  }
  return reason;
}

/**
 * Records a human decision on one or more candidates (maestro-flow §3.6). Fails closed: every
 * source run needs a fresh receipt holding the candidate. `conflict` rejects the candidate; with
 * `contest` it also marks a spec target contested through @maestro/spec; receipts, then ledgers, are updated under the corpus lock (a crash in
 * between leaves the safer state: the receipt decides eligibility, rerunning is idempotent).
 */
export async function resolveCandidates(
  layout: WorkflowLayout,
  sessionId: string,
  request: ResolveRequest,
  runtime: Runtime,
): Promise<ResolutionResult> {
  const reason = validate(request, sessionId);
  return withCorpusLock(layout, async () => {
    const ctx = await loadSessionReceipts(layout, sessionId, {}, runtime);
    const picked = pick(ctx, request, sessionId);
    const plans = picked.map((c) => plan(ctx, c, request, sessionId));
    const result: ResolutionResult = {
      schema_version: 'knowledge-resolution/1.0',
      session_id: sessionId,
      choice: request.choice,
      contest: request.contest === true,
      reason,
      resolved: [],
      warnings: [],
    };
    const marked = new Set<string>();
    if (request.choice === 'conflict' && request.contest) {
      for (const p of plans) {
        if (!p.target) continue;
        if (p.targetStore !== 'spec') {
          result.warnings.push(`${p.target} is a knowhow document; only spec entries carry a conflict marker`);
          continue;
        }
        await markConflict(layout, p.target, `Knowledge candidate ${p.candidate.candidate_id}: ${reason}`, runtime);
        marked.add(p.candidate.candidate_id);
      }
    }
    const fingerprint = marked.size ? (await computeCorpusFingerprint(layout)).fingerprint : ctx.corpus_fingerprint;
    const now = runtime.now().toISOString();
    for (const p of plans) {
      const id = p.candidate.candidate_id;
      const entry = applyChoice(p, request, reason, now);
      for (const runId of p.runs) {
        const receipt = ctx.receipts.get(runId) as Receipt;
        const updated = withEntry(receipt, entry, fingerprint, ctx.corpus_fingerprint);
        ctx.receipts.set(runId, updated);
        await writeReceipt(layout, updated);
      }
      const label = request.contest ? 'conflict (contested)' : request.choice;
      const status = await updateLedgers(layout, sessionId, p.runs, id, request.choice, label, reason, runtime);
      result.resolved.push({
        candidate_id: id,
        disposition: entry.disposition,
        promotion_eligibility: entry.promotion_eligibility,
        canonical_id: entry.canonical_id,
        affected_runs: p.runs,
        conflict_marked: marked.has(id),
        ledger_status: status,
      });
    }
    if (fingerprint !== ctx.corpus_fingerprint) await followConflictMarks(layout, ctx, fingerprint, sessionId);
    return result;
  });
}

/**
 * Our own conflict marks changed only confidence and conflict attributes, which no verdict reads;
 * under the corpus lock nothing else changed. So every other receipt of the session that was
 * fresh just before the marks stays fresh: it follows the corpus to the new fingerprint, instead
 * of forcing a refresh between two resolutions. Receipts of other sessions go stale as usual.
 */
async function followConflictMarks(
  layout: WorkflowLayout,
  ctx: SessionReceipts,
  fingerprint: string,
  sessionId: string,
): Promise<void> {
  for (const [runId, receipt] of ctx.receipts) {
    const fences = ctx.fences.get(runId);
    if (!receipt || !fences || receipt.corpus_fingerprint !== ctx.corpus_fingerprint) continue;
    if (compareFences(receipt, fences, sessionId, runId).state !== 'fresh') continue;
    const next = { ...receipt, corpus_fingerprint: fingerprint };
    ctx.receipts.set(runId, next);
    await writeReceipt(layout, next);
  }
}

function pick(ctx: SessionReceipts, req: ResolveRequest, sessionId: string): SummaryCandidate[] {
  const byId = new Map(ctx.summary.candidates.map((c) => [c.candidate_id, c]));
  if (req.all && req.candidateIds?.length) {
    throw inputError('RESOLVE_AMBIGUOUS', 'pass either --resolve <ids> or --all-as, not both');
  }
  if (req.all) {
    stale(
      ctx,
      ctx.summary.candidates.filter((c) => c.status === 'pending'),
      sessionId,
    );
    return ctx.summary.candidates.filter(
      (c) => c.status === 'pending' && entryFor(ctx, c)?.disposition === req.all?.disposition,
    );
  }
  const ids = [...new Set(req.candidateIds ?? [])];
  if (ids.length === 0)
    throw inputError('RESOLVE_NOTHING', 'name the candidates to resolve: --resolve <cid>[,<cid>...]');
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) {
    throw inputError('UNKNOWN_CANDIDATE', `unknown candidate id(s) in session ${sessionId}: ${unknown.join(', ')}`, {
      hint: `run \`maestro knowledge review ${sessionId}\` for the candidate ids (report drafts get an id once the run completes)`,
    });
  }
  const picked = ids.map((id) => byId.get(id) as SummaryCandidate);
  for (const c of picked) {
    if (c.status === 'promoted' || c.status === 'promoting') {
      throw refusedError(
        'CANDIDATE_PROMOTED',
        `${c.candidate_id} is already ${c.status} (${c.promoted_id}); nothing to resolve`,
        {
          hint: `see it with \`maestro session show ${sessionId}\`; to change the entry, edit it with \`maestro spec\` or \`maestro knowhow\``,
        },
      );
    }
  }
  stale(ctx, picked, sessionId);
  return picked;
}

/** Fails closed (exit 1) when any source run of these candidates lacks a fresh receipt holding them. */
function stale(ctx: SessionReceipts, candidates: readonly SummaryCandidate[], sessionId: string): void {
  const missing = new Set<string>();
  const outdated = new Set<string>();
  for (const c of candidates) {
    for (const runId of c.run_ids) {
      const receipt = ctx.receipts.get(runId) ?? null;
      const fences = ctx.fences.get(runId);
      if (!receipt || !fences) missing.add(runId);
      else if (compareFences(receipt, fences, sessionId, runId).state !== 'fresh') outdated.add(runId);
      else if (!receipt.candidates.some((x) => x.candidate_id === c.candidate_id)) outdated.add(runId);
    }
  }
  if (missing.size === 0 && outdated.size === 0) return;
  const parts = [
    missing.size ? `no reconciliation receipt on run(s) ${[...missing].join(', ')}` : '',
    outdated.size ? `stale reconciliation on run(s) ${[...outdated].join(', ')}` : '',
  ].filter(Boolean);
  throw refusedError('RECEIPT_STALE', `cannot resolve: ${parts.join('; ')}`, {
    hint: `refresh all receipts in one step with: maestro knowledge review ${sessionId} --refresh`,
    details: { missing: [...missing], stale: [...outdated] },
  });
}

function entryFor(ctx: SessionReceipts, c: SummaryCandidate): ReceiptCandidate | undefined {
  for (const runId of c.run_ids) {
    const hit = ctx.receipts.get(runId)?.candidates.find((x) => x.candidate_id === c.candidate_id);
    if (hit) return hit;
  }
  return undefined;
}

interface Plan {
  candidate: SummaryCandidate;
  entry: ReceiptCandidate;
  runs: string[];
  target: string | null;
  targetStore: 'spec' | 'knowhow' | null;
  targetHash: string | null;
}

function plan(ctx: SessionReceipts, c: SummaryCandidate, req: ResolveRequest, sessionId: string): Plan {
  const entry = entryFor(ctx, c) as ReceiptCandidate;
  const target = req.choice === 'unique' ? null : (req.target ?? entry.canonical_id);
  if (req.choice !== 'unique' && !target) {
    throw inputError('TARGET_REQUIRED', `--target is required for ${req.choice} resolution of ${c.candidate_id}`, {
      hint: 'it has no canonical match; name one of its matches with --target, or resolve it --as unique',
    });
  }
  const matches = c.run_ids.flatMap(
    (r) => ctx.receipts.get(r)?.candidates.find((x) => x.candidate_id === c.candidate_id)?.matches ?? [],
  );
  const match = target ? matches.find((m) => m.knowledge_id === target) : undefined;
  if (target && !match) {
    throw inputError(
      'TARGET_NOT_EVIDENCE_BACKED',
      `resolution target ${target} is not an evidence-backed match for ${c.candidate_id}`,
      {
        hint: `use --as unique to promote it without a target, then mark the replaced entry with "maestro spec supersede <old-sid> --by <new-sid>"; its matches are listed by \`maestro knowledge review ${sessionId}\``,
      },
    );
  }
  if (req.choice === 'supersede' && match && match.target !== c.target) {
    throw inputError(
      'SUPERSEDE_STORE_MISMATCH',
      `supersession requires candidate and target to use the same knowledge store (${c.candidate_id} is ${c.target}, ${target} is ${match.target})`,
      { hint: 'resolve it --as related, or stage the candidate for the other store' },
    );
  }
  return {
    candidate: c,
    entry,
    runs: c.run_ids.filter((r) => ctx.receipts.get(r)?.candidates.some((x) => x.candidate_id === c.candidate_id)),
    target,
    targetStore: match?.target ?? null,
    targetHash: match?.target_content_hash ?? null,
  };
}

function applyChoice(p: Plan, req: ResolveRequest, reason: string, now: string): ReceiptCandidate {
  const choice = req.choice;
  return {
    ...p.entry,
    ...CHOICE_EFFECT[choice],
    canonical_id: p.target,
    reaffirms: p.candidate.action === 'reaffirm' && choice === 'duplicate' ? p.target : null,
    content_hash: candidateContentHash(p.candidate),
    resolution: {
      status: 'confirmed',
      reason,
      resolved_at: now,
      choice,
      target_id: p.target,
      candidate_content_hash: candidateContentHash(p.candidate),
      target_content_hash: p.targetHash,
      ...(req.contest ? { contested: true } : {}),
    },
  };
}

/** The receipt with one entry replaced; a fresh receipt follows the corpus across our own conflict mark. */
function withEntry(receipt: Receipt, entry: ReceiptCandidate, fingerprint: string, before: string): Receipt {
  const candidates = receipt.candidates.map((c) => (c.candidate_id === entry.candidate_id ? entry : c));
  const next: Receipt = {
    ...receipt,
    corpus_fingerprint: receipt.corpus_fingerprint === before ? fingerprint : receipt.corpus_fingerprint,
    candidates,
    counts: countsOf(candidates),
  };
  const dropped = receipt.dropped_resolutions?.filter((d) => d.candidate_id !== entry.candidate_id);
  if (dropped?.length) next.dropped_resolutions = dropped;
  else delete next.dropped_resolutions;
  return next;
}

/** duplicate and conflict reject the candidate; any other choice brings a rejected one back to pending. */
async function updateLedgers(
  layout: WorkflowLayout,
  sessionId: string,
  runs: readonly string[],
  id: string,
  choice: Choice,
  label: string,
  reason: string,
  runtime: Runtime,
): Promise<SummaryCandidate['status']> {
  let status: SummaryCandidate['status'] = 'pending';
  const rejecting = choice === 'duplicate' || choice === 'conflict';
  for (const runId of runs) {
    const delta = await updateDelta(
      layout,
      sessionId,
      runId,
      (d) => {
        const c = d.candidates.find((x) => x.candidate_id === id);
        if (!c || c.status === 'promoted' || c.status === 'promoting') return;
        if (rejecting) {
          c.status = 'rejected';
          c.rejection = { reason: `resolved as ${label}: ${reason}`, at: runtime.now().toISOString() };
        } else if (c.status === 'rejected') {
          c.status = 'pending';
          c.rejection = null;
        }
      },
      runtime,
    );
    status = delta.candidates.find((x) => x.candidate_id === id)?.status ?? status;
  }
  return status;
}

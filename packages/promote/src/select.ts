import { inputError, refusedError } from '@maestro/core';
import type { SummaryCandidate } from '@maestro/ledger';
import { offeredResolutions, resolutionCommand } from '@maestro/reconcile';
import { plannedIds } from './ids.js';
import type { CandidatePolicy, PromoteRequest, ReceiptCheck } from './model.js';
import { candidatePolicy } from './policy.js';
import {
  type AlreadyPromotedEntry,
  type PromotionWarningEntry,
  SKIP_REASONS,
  type SkippedEntry,
  type SkipReason,
} from './schemas.js';

/**
 * Selection is pure: the session's candidates, run statuses and receipt checks in, a decision out.
 * `--all` skips what cannot be promoted and lists it by reason; an explicit selection of such a
 * candidate is refused with the reason and the command that would unblock it.
 */

export type Skipped = Record<SkipReason, SkippedEntry[]>;

export function emptySkipped(): Skipped {
  return Object.fromEntries(SKIP_REASONS.map((r) => [r, []])) as unknown as Skipped;
}

/** The candidate ids a request names: every value split on commas, trimmed, deduplicated. */
export function requestedIds(request: PromoteRequest): string[] | null {
  const ids = [...new Set((request.candidates ?? []).flatMap((v) => v.split(',')).map((s) => s.trim()))].filter(
    Boolean,
  );
  if (request.all && ids.length) {
    throw inputError('USAGE', 'use either --candidate <ids> or --all, not both', {
      hint: `e.g. maestro knowledge promote ${request.sessionId} --all`,
    });
  }
  if (!request.all && ids.length === 0) {
    throw inputError('USAGE', 'select candidates with --candidate <id>[,<id>...] or --all', {
      hint: `list them with: maestro knowledge review ${request.sessionId}`,
    });
  }
  return request.all ? null : ids;
}

export interface Preselection {
  /** Candidates to judge by their receipts: pending (or left promoting) with every run sealed. */
  open: SummaryCandidate[];
  /** The runs whose receipts must be fresh. */
  runs: string[];
  already: AlreadyPromotedEntry[];
  skipped: Skipped;
}

function sealCommand(sessionId: string, runId: string, status: string): string {
  return status === 'running'
    ? `maestro run complete ${runId} --session ${sessionId} --seal`
    : `maestro run seal ${runId} --session ${sessionId}`;
}

function skip(c: SummaryCandidate, reason: string, command: string, policy?: CandidatePolicy): SkippedEntry {
  const disposition = policy?.disposition ?? null;
  const canonical = policy && policy.kind !== 'reaffirm' ? policy.canonicalId : null;
  return { candidate_id: c.candidate_id, title: c.title, disposition, canonical_id: canonical, reason, command };
}

function rejectedSkip(sessionId: string, c: SummaryCandidate): SkippedEntry {
  const why = c.rejection?.reason ? `it was rejected: ${c.rejection.reason}` : 'it was rejected';
  return skip(c, why, resolutionCommand(sessionId, c.candidate_id, offeredResolutions(null, null)[0]));
}

function refuseSelected(sessionId: string, items: { reason: SkipReason; entry: SkippedEntry }[]): never {
  const lines = items.map((i) => `${i.entry.candidate_id}: ${i.entry.reason}`);
  const commands = [...new Set(items.map((i) => i.entry.command))];
  throw refusedError(
    'CANDIDATE_NOT_PROMOTABLE',
    `cannot promote ${items.length === 1 ? 'the selected candidate' : `${items.length} selected candidates`} of session ${sessionId}: ${lines.join('; ')}`,
    { hint: `run ${commands.map((c) => `\`${c}\``).join(', then ')}; nothing was written`, details: { items } },
  );
}

/**
 * First pass, before receipts: unknown ids are bad input; promoted candidates are already done;
 * rejected candidates and those with an unsealed source run are skipped (or refused when named).
 */
export function preselect(
  sessionId: string,
  candidates: readonly SummaryCandidate[],
  runStatus: ReadonlyMap<string, string>,
  ids: readonly string[] | null,
): Preselection {
  const byId = new Map(candidates.map((c) => [c.candidate_id, c]));
  if (ids) {
    const unknown = ids.filter((id) => !byId.has(id));
    if (unknown.length) {
      throw inputError('UNKNOWN_CANDIDATE', `unknown candidate id(s) in session ${sessionId}: ${unknown.join(', ')}`, {
        hint: `list the candidates with: maestro knowledge review ${sessionId}`,
      });
    }
  }
  const chosen = ids ? ids.map((id) => byId.get(id)!) : [...candidates];
  const out: Preselection = { open: [], runs: [], already: [], skipped: emptySkipped() };
  const refused: { reason: SkipReason; entry: SkippedEntry }[] = [];
  const put = (reason: SkipReason, entry: SkippedEntry) =>
    ids ? refused.push({ reason, entry }) : out.skipped[reason].push(entry);
  for (const c of [...chosen].sort(byCandidateId)) {
    if (c.status === 'promoted') {
      const r = c.promotion_receipt ?? null;
      out.already.push({
        candidate_id: c.candidate_id,
        promoted_id: c.promoted_id,
        outcome: r?.outcome ?? null,
        promoted_at: r?.promoted_at ?? null,
      });
      continue;
    }
    // A rejected `reaffirm` may still be recorded as a reaffirmation: its receipt decides.
    if (c.status === 'rejected' && c.action !== 'reaffirm') {
      put('rejected', rejectedSkip(sessionId, c));
      continue;
    }
    const unsealed = c.run_ids.filter((r) => runStatus.get(r) !== 'sealed');
    if (unsealed.length) {
      const cmd = unsealed.map((r) => sealCommand(sessionId, r, runStatus.get(r) ?? 'completed')).join(' && ');
      const runs = unsealed.length === 1 ? `run ${unsealed[0]} is` : `runs ${unsealed.join(', ')} are`;
      put('unsealed_run', skip(c, `its source ${runs} not sealed`, cmd));
      continue;
    }
    out.open.push(c);
  }
  if (refused.length) refuseSelected(sessionId, refused);
  out.runs = [...new Set(out.open.flatMap((c) => c.run_ids))].sort();
  return out;
}

/** Missing or stale receipts refuse the whole promotion (exit 1) with the one refresh command. */
export function requireFresh(sessionId: string, checks: ReadonlyMap<string, ReceiptCheck>): void {
  const missing = [...checks].filter(([, c]) => c.state === 'missing').map(([r]) => r);
  const stale = [...checks].filter(([, c]) => c.state === 'stale');
  if (!missing.length && !stale.length) return;
  const hint = `run \`maestro knowledge review ${sessionId} --refresh\`, check the review, then promote again; nothing was written`;
  if (missing.length) {
    throw refusedError(
      'RECEIPT_MISSING',
      `session ${sessionId} has no reconciliation receipt for run(s) ${missing.join(', ')}`,
      { hint, details: { missing, stale: stale.map(([r]) => r) } },
    );
  }
  const why = stale.map(([r, c]) => `${r} (${c.state === 'stale' ? c.reasons.join(', ') : ''})`).join('; ');
  throw refusedError('RECEIPT_STALE', `session ${sessionId} has stale reconciliation receipt(s): ${why}`, {
    hint,
    details: { stale: stale.map(([r]) => r) },
  });
}

export interface Decision {
  promote: { candidate: SummaryCandidate; policy: Extract<CandidatePolicy, { kind: 'create' | 'reaffirm' }> }[];
  skipped: Skipped;
  warnings: PromotionWarningEntry[];
}

/**
 * The resolve command that would make a blocked candidate promotable (the first such choice that
 * review offers for its verdict), and the list of every offered choice for the skip reason.
 */
function unblock(sessionId: string, cid: string, policy: Extract<CandidatePolicy, { kind: 'blocked' }>) {
  const offers = offeredResolutions(policy.reason === 'suppressed' ? null : policy.disposition, policy.canonicalId);
  const pick = offers.find((o) => o.promotes) ?? offeredResolutions(null, null)[0];
  const choices = offers.map((o) => `${o.choice}${o.contest ? ' --contest' : ''}`).join(', ');
  return { command: resolutionCommand(sessionId, cid, pick), choices };
}

/**
 * Second pass, with fresh receipts: each open candidate's policy from the verdicts of all its
 * runs. Blocked ones are skipped (or refused when named); observed-only ones get a warning.
 */
export function decide(
  sessionId: string,
  pre: Preselection,
  checks: ReadonlyMap<string, ReceiptCheck>,
  explicit: boolean,
): Decision {
  const out: Decision = { promote: [], skipped: pre.skipped, warnings: [] };
  const refused: { reason: SkipReason; entry: SkippedEntry }[] = [];
  const uncovered: string[] = [];
  for (const c of pre.open) {
    const verdicts = c.run_ids.map((r) => {
      const check = checks.get(r);
      return check?.state === 'fresh' ? check.verdicts.find((v) => v.candidate_id === c.candidate_id) : undefined;
    });
    if (verdicts.some((v) => v === undefined)) {
      uncovered.push(c.candidate_id);
      continue;
    }
    const policy = converged(c, candidatePolicy(verdicts.map((v) => v!)));
    if (c.status === 'rejected' && policy.kind !== 'reaffirm') {
      if (explicit) refused.push({ reason: 'rejected', entry: rejectedSkip(sessionId, c) });
      else out.skipped.rejected.push(rejectedSkip(sessionId, c));
      continue;
    }
    if (policy.kind === 'blocked') {
      const { command, choices } = unblock(sessionId, c.candidate_id, policy);
      const entry = skip(
        c,
        `it is ${policy.reason === 'conflict' ? 'a confirmed conflict' : policy.reason} (${policy.disposition}): ${policy.detail} (review offers: ${choices})`,
        command,
        policy,
      );
      if (explicit) refused.push({ reason: policy.reason, entry });
      else out.skipped[policy.reason].push(entry);
      continue;
    }
    out.promote.push({ candidate: c, policy });
    if (c.stage === 'observed') {
      out.warnings.push({
        code: 'observed_only',
        candidate_id: c.candidate_id,
        message: `${c.candidate_id} was staged by one run only (${c.run_ids[0]}); promoted without corroboration`,
      });
    }
  }
  if (uncovered.length) {
    throw refusedError('RECEIPT_STALE', `the receipts of session ${sessionId} do not cover ${uncovered.join(', ')}`, {
      hint: `run \`maestro knowledge review ${sessionId} --refresh\`, then promote again; nothing was written`,
    });
  }
  if (refused.length) refuseSelected(sessionId, refused);
  return out;
}

/**
 * The same candidate promoted from another session (same content, same first-recorded date)
 * already wrote the entry this one plans: its "duplicate" is itself, so promotion converges on
 * it (the planner then finds the identical entry and reports `replayed`) instead of skipping.
 */
function converged(c: SummaryCandidate, policy: CandidatePolicy): CandidatePolicy {
  if (policy.kind !== 'blocked' || policy.reason !== 'suppressed' || !policy.canonicalId) return policy;
  const ids = plannedIds(c);
  if (policy.canonicalId !== (c.target === 'spec' ? ids.sid : ids.tipId)) return policy;
  return { kind: 'create', supersedes: null, disposition: policy.disposition, canonicalId: policy.canonicalId };
}

function byCandidateId(a: { candidate_id: string }, b: { candidate_id: string }): number {
  return a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0;
}

import type { Issue, Runtime } from '@maestro/core';
import { appendAll } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { SummaryCandidate } from '@maestro/ledger';
import { SEVERITY_ORDER } from '../matcher/reconcile.js';
import type { Match } from '../matcher/types.js';
import type { Choice, DroppedResolution, Freshness, ReceiptCandidate } from '../schemas.js';
import { type MatchingCorpus, matchingCorpus } from './corpus-cache.js';
import { offeredResolutions, resolutionCommand } from './offers.js';
import { loadSessionReceipts, type ReconcileRunResult, type SessionReceipts } from './reconcile-session.js';
import type { RunState } from './run-state.js';

export interface ReviewMatch {
  knowledge_id: string;
  title: string;
  target: 'spec' | 'knowhow';
  relation: Match['relation'];
  composite: number;
  scores: Match['scores'];
  evidence: string[];
  source_path: string;
  source_line: number | null;
}

export interface ReviewTarget {
  id: string;
  title: string | null;
  /** `missing` when the id is no longer in the corpus. */
  status: 'active' | 'deprecated' | 'missing';
  superseded_by: string | null;
  file: string | null;
  line: number | null;
}

export interface ReviewCandidate {
  candidate_id: string;
  title: string;
  target: 'spec' | 'knowhow';
  action: string;
  category: string | null;
  status: SummaryCandidate['status'] | 'draft';
  stage: 'observed' | 'corroborated';
  run_ids: string[];
  occurrences: number;
  first_recorded_at: string | null;
  content_snippet: string;
  evidence_refs: string[];
  freshness: Freshness;
  stale_runs: string[];
  disposition: ReceiptCandidate['disposition'] | null;
  promotion_eligibility: ReceiptCandidate['promotion_eligibility'] | null;
  canonical_id: string | null;
  reaffirms: string | null;
  resolution: ReceiptCandidate['resolution'];
  canonical: ReviewTarget | null;
  matches: ReviewMatch[];
  dropped_resolution: DroppedResolution | null;
  next: {
    refresh: string | null;
    resolve: string[];
    /** The same resolve commands with what each choice does (see `offeredResolutions`). */
    offers: { choice: Choice; contest: boolean; meaning: string; command: string }[];
    promote: string | null;
  };
}

export interface ReviewView {
  schema_version: 'knowledge-review/1.0';
  session_id: string;
  session_status: string;
  matcher_revision: string;
  corpus_fingerprint: string;
  runs: ReconcileRunResult[];
  counts: {
    candidates: number;
    fresh: number;
    stale: number;
    missing: number;
    review_required: number;
    eligible: number;
    suppressed: number;
    promoted: number;
  };
  candidates: ReviewCandidate[];
  problems: Issue[];
}

const FRESH_RANK: Record<Freshness, number> = { fresh: 0, stale: 1, missing: 2 };

/**
 * The review surface of a session: one row per non-promoted candidate with its freshness,
 * verdict, up to 3 diverse matches, the canonical target's current status and the exact next
 * command. Read-only unless `refresh` (which regenerates missing and stale receipts first).
 */
export async function reviewSession(
  layout: WorkflowLayout,
  sessionId: string,
  options: { refresh?: boolean },
  runtime: Runtime,
): Promise<ReviewView> {
  const ctx = await loadSessionReceipts(layout, sessionId, { ...options, memo: true }, runtime);
  const rows = [...ctx.summary.candidates.filter((c) => c.status !== 'promoted'), ...draftRows(ctx)];
  let corpus = ctx.corpus;
  const built = rows.map((c) => reviewRow(ctx, c));
  const needCorpus = built.some((r) => r.canonical_id && r.freshness !== 'fresh');
  if (needCorpus) corpus ??= await matchingCorpus(layout, ctx.corpus_fingerprint);
  for (const r of built) r.canonical = targetOf(r, corpus);
  built.sort(compareRows);
  const count = (f: (r: ReviewCandidate) => boolean) => built.filter(f).length;
  return {
    schema_version: 'knowledge-review/1.0',
    session_id: sessionId,
    session_status: ctx.summary.session_status,
    matcher_revision: ctx.matcher_revision,
    corpus_fingerprint: ctx.corpus_fingerprint,
    runs: ctx.runs,
    counts: {
      candidates: built.length,
      fresh: count((r) => r.freshness === 'fresh'),
      stale: count((r) => r.freshness === 'stale'),
      missing: count((r) => r.freshness === 'missing'),
      review_required: count((r) => r.promotion_eligibility === 'review_required'),
      eligible: count((r) => r.promotion_eligibility === 'eligible'),
      suppressed: count((r) => r.promotion_eligibility === 'suppressed'),
      promoted: ctx.summary.counts.promoted,
    },
    candidates: built,
    problems: ctx.problems,
  };
}

/** Report drafts of running runs: reconciled ahead of completion, resolvable once staged. */
function draftRows(ctx: SessionReceipts): SummaryCandidate[] {
  const known = new Set(ctx.summary.candidates.map((c) => c.candidate_id));
  const out: SummaryCandidate[] = [];
  for (const [runId, state] of ctx.states) appendAll(out, draftsOf(state, runId, known));
  return out;
}

function draftsOf(state: RunState, runId: string, known: Set<string>): SummaryCandidate[] {
  return state.candidates
    .filter((c) => state.draft_ids.has(c.candidate_id) && !known.has(c.candidate_id))
    .map((c) => ({
      candidate_id: c.candidate_id,
      target: c.target,
      action: c.action ?? 'propose',
      title: c.title,
      content: c.content,
      category: c.category ?? null,
      source_kind: (c.source_kind ?? 'decision') as SummaryCandidate['source_kind'],
      evidence_refs: [...(c.evidence_refs ?? [])],
      occurrences: 1,
      first_recorded_at: '',
      last_recorded_at: '',
      status: 'draft' as unknown as SummaryCandidate['status'],
      promoted_id: null,
      run_ids: [runId],
      stage: 'observed',
    }));
}

function reviewRow(ctx: SessionReceipts, c: SummaryCandidate): ReviewCandidate {
  const sid = ctx.session_id;
  let freshness: Freshness = 'fresh';
  const staleRuns: string[] = [];
  let best: ReceiptCandidate | null = null;
  let dropped: DroppedResolution | null = null;
  for (const runId of c.run_ids) {
    const run = ctx.runs.find((r) => r.run_id === runId);
    const receipt = ctx.receipts.get(runId) ?? null;
    const entry = receipt?.candidates.find((x) => x.candidate_id === c.candidate_id) ?? null;
    const state: Freshness = !run || !receipt || !entry ? 'missing' : run.after;
    if (state !== 'fresh') staleRuns.push(runId);
    if (FRESH_RANK[state] > FRESH_RANK[freshness]) freshness = state;
    if (entry && (!best || severity(entry.disposition) < severity(best.disposition))) best = entry;
    dropped ??= receipt?.dropped_resolutions?.find((d) => d.candidate_id === c.candidate_id) ?? null;
  }
  const draft = (c.status as string) === 'draft';
  return {
    candidate_id: c.candidate_id,
    title: c.title,
    target: c.target,
    action: c.action,
    category: c.category,
    status: c.status,
    stage: c.stage,
    run_ids: c.run_ids,
    occurrences: c.occurrences,
    first_recorded_at: c.first_recorded_at || null,
    content_snippet: snippet(c.content),
    evidence_refs: c.evidence_refs.slice(0, 5),
    freshness,
    stale_runs: staleRuns,
    disposition: best?.disposition ?? null,
    promotion_eligibility: best?.promotion_eligibility ?? null,
    canonical_id: best?.canonical_id ?? null,
    reaffirms: best?.reaffirms ?? null,
    resolution: best?.resolution ?? null,
    canonical: null,
    matches: diverse(best?.matches ?? []),
    dropped_resolution: dropped,
    next: nextCommands(sid, c, best, freshness, draft),
  };
}

function severity(d: ReceiptCandidate['disposition'] | null): number {
  return d === null ? -1 : SEVERITY_ORDER.indexOf(d);
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return [...flat].length > 140 ? `${[...flat].slice(0, 139).join('')}…` : flat;
}

/** Up to 3 matches, preferring a different relation or file over a third near-copy. */
function diverse(matches: readonly Match[]): ReviewMatch[] {
  const picked: Match[] = [];
  for (const m of matches) {
    if (picked.length >= 3) break;
    const dup = picked.some((p) => p.relation === m.relation && p.source_path === m.source_path);
    if (!dup) picked.push(m);
  }
  for (const m of matches) {
    if (picked.length >= 3) break;
    if (!picked.includes(m)) picked.push(m);
  }
  return picked.map((m) => ({
    knowledge_id: m.knowledge_id,
    title: m.title,
    target: m.target,
    relation: m.relation,
    composite: m.scores.composite,
    scores: m.scores,
    evidence: m.evidence,
    source_path: m.source_path,
    source_line: m.source_line,
  }));
}

function nextCommands(
  sid: string,
  c: SummaryCandidate,
  v: ReceiptCandidate | null,
  freshness: Freshness,
  draft: boolean,
): ReviewCandidate['next'] {
  const refresh = freshness === 'fresh' ? null : `maestro knowledge review ${sid} --refresh`;
  if (draft || !v || freshness !== 'fresh') return { refresh, resolve: [], offers: [], promote: null };
  const offers = offeredResolutions(v.disposition, v.canonical_id, v.matches).map((o) => ({
    choice: o.choice,
    contest: o.contest,
    meaning: o.meaning,
    command: resolutionCommand(sid, c.candidate_id, o),
  }));
  const resolve = offers.map((o) => o.command);
  const promotable = v.promotion_eligibility === 'eligible' || v.reaffirms !== null;
  const promote =
    promotable && (c.status === 'pending' || c.status === 'promoting')
      ? `maestro knowledge promote ${sid} --candidate ${c.candidate_id}`
      : null;
  const needsDecision = v.promotion_eligibility === 'review_required' || c.status === 'rejected';
  const open = needsDecision || v.resolution?.status === 'confirmed';
  return { refresh, resolve: open ? resolve : [], offers: open ? offers : [], promote };
}

function targetOf(r: ReviewCandidate, corpus: MatchingCorpus | null): ReviewTarget | null {
  if (!r.canonical_id) return null;
  const m = r.matches.find((x) => x.knowledge_id === r.canonical_id);
  if (r.freshness === 'fresh' || !corpus) {
    return {
      id: r.canonical_id,
      title: m?.title ?? null,
      status: 'active',
      superseded_by: null,
      file: m?.source_path ?? null,
      line: m?.source_line ?? null,
    };
  }
  const e = corpus.targets.get(r.canonical_id);
  if (!e)
    return {
      id: r.canonical_id,
      title: m?.title ?? null,
      status: 'missing',
      superseded_by: null,
      file: null,
      line: null,
    };
  const status = e.status === 'deprecated' ? 'deprecated' : 'active';
  return { id: r.canonical_id, title: e.title, status, superseded_by: e.supersededBy, file: e.file, line: e.line };
}

const STATUS_RANK: Record<string, number> = { pending: 0, promoting: 0, draft: 1, rejected: 2 };

/** Open work first; then severity (missing verdicts first), corroboration, age (oldest first). */
function compareRows(a: ReviewCandidate, b: ReviewCandidate): number {
  return (
    (STATUS_RANK[a.status] ?? 3) - (STATUS_RANK[b.status] ?? 3) ||
    severity(a.disposition) - severity(b.disposition) ||
    b.run_ids.length - a.run_ids.length ||
    (a.first_recorded_at ?? '').localeCompare(b.first_recorded_at ?? '') ||
    a.candidate_id.localeCompare(b.candidate_id)
  );
}

import { isDeepStrictEqual } from 'node:util';
import { sha256 } from '@maestro/core';
import type { Corpus } from '@maestro/spec';
import { type CorpusIndex, docView, type MatchIndex, matchIndex, rarityOf, retiredMatch } from './corpus-index.js';
import { associated, retrieve } from './retrieve.js';
import { makeView, type PairScore, scorePair, ZERO_SCORES } from './score.js';
import { type MatchMemo, replayTrace, TracingIndex } from './trace.js';
import type {
  CandidateAction,
  CandidateInput,
  Disposition,
  Match,
  MatchableEntry,
  ReconcileOptions,
  Verdict,
} from './types.js';
import { DEFAULT_POLICY, RETIRED_EVIDENCE, verdictFor } from './verdict.js';

// The matcher's identity (bump it there whenever a change here can change a verdict).
export { MATCHER_REVISION } from '../revision.js';

export const MATCH_LIMIT = 12;
export const FAMILY_LIMIT = 2;
export const STORE_LIMIT = 8;

export const SEVERITY_ORDER: readonly Disposition[] = [
  'potential_conflict',
  'supersede_candidate',
  'semantic_duplicate',
  'extends',
  'related',
  'unique',
  'exact_duplicate',
];

const EPOCH = new Date(0).toISOString();

/**
 * Reconciles candidates against the corpus: pure, deterministic, no disk. Each verdict names
 * the disposition, eligibility, canonical target and up to 12 evidence-backed matches.
 */
export function reconcile(
  candidates: readonly CandidateInput[],
  corpus: Corpus | readonly MatchableEntry[] | CorpusIndex | MatchIndex,
  options: ReconcileOptions = {},
): Verdict[] {
  const policy = options.policy ?? DEFAULT_POLICY;
  return matchCandidates(candidates, corpus, options).map((matches, i) => {
    const c = candidates[i];
    return verdictFor(c, c.action ?? 'propose', matches, options.now ?? EPOCH, policy);
  });
}

/**
 * The evidence-backed matches of each candidate (pure), before the verdict policy: what
 * `reconcile` decides on, and what the quality bench fits the policy's numbers on.
 */
export function matchCandidates(
  candidates: readonly CandidateInput[],
  corpus: Corpus | readonly MatchableEntry[] | CorpusIndex | MatchIndex,
  options: ReconcileOptions = {},
): Match[][] {
  const index = matchIndex(corpus);
  const linked = associated(index, options.seeds ?? []);
  const memo = options.memo;
  if (!memo) return candidates.map((c) => matchOne(index, linked, c));
  const around = Array.from(linked).sort((a, b) => a - b);
  return candidates.map((c) => memoMatch(index, linked, around, c, memo));
}

/**
 * A candidate's matches from the memo when the index answers its recorded questions as it did
 * then (the matches are a function of the candidate, the linked documents and those answers);
 * otherwise matched while tracing, and kept when the matches survive JSON exactly.
 */
function memoMatch(
  index: MatchIndex,
  linked: Set<number>,
  around: readonly number[],
  c: CandidateInput,
  memo: MatchMemo,
): Match[] {
  const key = sha256(JSON.stringify([c.action ?? 'propose', c.target, c.title ?? '', c.content, around]));
  const kept = memo.get(key);
  if (kept && replayTrace(index, kept.trace) === kept.digest) return kept.matches;
  const tracing = new TracingIndex(index);
  const matches = matchOne(tracing, linked, c);
  const digest = tracing.digest();
  if (tracing.replayable && isDeepStrictEqual(JSON.parse(JSON.stringify(matches)), matches)) {
    memo.put(key, { trace: tracing.trace, digest, matches });
  }
  return matches;
}

function matchOne(index: MatchIndex, linked: Set<number>, c: CandidateInput): Match[] {
  const action: CandidateAction = c.action ?? 'propose';
  const view = makeView(c.target, c.title ?? '', c.content);
  const ids = new Set(retrieve(index, view));
  const rarity = rarityOf(index);
  for (const i of linked) ids.add(i);
  // The text of a deprecated entry is judged against the entry that replaced it.
  const retired = retiredMatch(index, c.target, view.exact);
  if (retired) ids.add(retired.successor);
  const scored: { match: Match; family: string; pinned: boolean }[] = [];
  for (const i of ids) {
    const doc = index.doc(i);
    const d = docView(index, i);
    const scoredPair = scorePair(view, action, d, linked.has(i), rarity);
    const s = retired?.successor === i ? restatesRetired(scoredPair, retired.old.id, doc.entry.id) : scoredPair;
    if (!s) continue;
    const e = doc.entry;
    scored.push({
      family: doc.family,
      pinned:
        s.relation === 'exact_duplicate' ||
        retired?.successor === i ||
        (view.titleKey !== '' && view.titleKey === d.titleKey),
      match: {
        knowledge_id: e.id,
        target: e.store,
        title: e.title ?? '',
        relation: s.relation,
        scores: s.scores,
        novelty: s.novelty,
        evidence: s.evidence,
        target_content_hash: e.contentHash ?? '',
        source_path: e.file ?? '',
        source_line: e.line ?? null,
      },
    });
  }
  // Strongest first (exact duplicates before all): the caps keep the matches that can decide.
  scored.sort(
    (a, b) =>
      Number(b.match.relation === 'exact_duplicate') - Number(a.match.relation === 'exact_duplicate') ||
      b.match.scores.composite - a.match.scores.composite ||
      (a.match.knowledge_id < b.match.knowledge_id ? -1 : a.match.knowledge_id > b.match.knowledge_id ? 1 : 0),
  );
  return capMatches(scored);
}

/** At most 2 matches per file and 8 per store, unless pinned (exact, same title); 12 in all. */
function capMatches(scored: { match: Match; family: string; pinned: boolean }[]): Match[] {
  const perFamily = new Map<string, number>();
  const perStore = new Map<string, number>();
  const out: Match[] = [];
  for (const s of scored) {
    if (out.length >= MATCH_LIMIT) break;
    const f = perFamily.get(s.family) ?? 0;
    const st = perStore.get(s.match.target) ?? 0;
    if (!s.pinned && (f >= FAMILY_LIMIT || st >= STORE_LIMIT)) continue;
    perFamily.set(s.family, f + 1);
    perStore.set(s.match.target, st + 1);
    out.push(s.match);
  }
  return out;
}

/**
 * A candidate restating a deprecated entry, against the entry's successor: a conflict only when
 * they differ in a named slot (a revived old value or tool), otherwise a duplicate of what the
 * successor now says. Never `related` or unmatched: the text was project knowledge.
 */
function restatesRetired(s: PairScore | null, oldId: string, successorId: string): PairScore {
  const note = `${RETIRED_EVIDENCE}${oldId}, superseded by ${successorId}`;
  if (s && (s.relation === 'potential_conflict' || s.relation === 'supersede_candidate') && hasSlot(s.evidence)) {
    return { ...s, evidence: [...s.evidence, note] };
  }
  const base = s ?? { relation: 'semantic_duplicate' as const, scores: ZERO_SCORES, novelty: 0, evidence: [] };
  return { ...base, relation: 'semantic_duplicate', evidence: [note, ...base.evidence] };
}

const SLOT_EVIDENCE =
  /^(opposite normative stance|different values|different choice|different order|different approver|forbids|requires|permits)/;
const hasSlot = (evidence: readonly string[]) => evidence.some((e) => SLOT_EVIDENCE.test(e));

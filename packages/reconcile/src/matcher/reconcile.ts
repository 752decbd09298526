import type { Corpus } from '@maestro/spec';
import { type CorpusIndex, corpusIndex, docView, rarityOf } from './corpus-index.js';
import { associated, retrieve } from './retrieve.js';
import { makeView, scorePair } from './score.js';
import type {
  CandidateAction,
  CandidateInput,
  Disposition,
  Eligibility,
  Match,
  MatchableEntry,
  ReconcileOptions,
  Relation,
  Verdict,
} from './types.js';

/**
 * The matcher's identity. Receipts record it and compare it as a freshness fence, so bump it
 * whenever a change here, in the lexicon or in a threshold can change a verdict.
 */
export const MATCHER_REVISION = 'maestro-match/1.1';

export const MATCH_LIMIT = 12;
export const FAMILY_LIMIT = 2;
export const STORE_LIMIT = 8;

const PRIORITY: Record<Relation, number> = {
  exact_duplicate: 0,
  potential_conflict: 1,
  supersede_candidate: 2,
  semantic_duplicate: 3,
  extends: 4,
  related: 5,
};

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
  corpus: Corpus | readonly MatchableEntry[] | CorpusIndex,
  options: ReconcileOptions = {},
): Verdict[] {
  const index = corpusIndex(corpus);
  const linked = associated(index, options.seeds ?? []);
  return candidates.map((c) => reconcileOne(index, linked, c, options.now ?? EPOCH));
}

function reconcileOne(index: CorpusIndex, linked: Set<number>, c: CandidateInput, now: string): Verdict {
  const action: CandidateAction = c.action ?? 'propose';
  const view = makeView(c.target, c.title ?? '', c.content);
  const ids = new Set(retrieve(index, view));
  const rarity = rarityOf(index);
  for (const i of linked) ids.add(i);
  const scored: { match: Match; family: string; pinned: boolean }[] = [];
  for (const i of ids) {
    const doc = index.docs[i];
    const d = docView(index, i);
    const s = scorePair(view, action, d, linked.has(i), rarity);
    if (!s) continue;
    const e = doc.entry;
    scored.push({
      family: doc.family,
      pinned:
        s.relation === 'exact_duplicate' || (view.titleKey !== '' && view.titleKey === d.titleKey) || linked.has(i),
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
  scored.sort(
    (a, b) =>
      PRIORITY[a.match.relation] - PRIORITY[b.match.relation] ||
      b.match.scores.composite - a.match.scores.composite ||
      (a.match.knowledge_id < b.match.knowledge_id ? -1 : a.match.knowledge_id > b.match.knowledge_id ? 1 : 0),
  );
  const matches = capMatches(scored);
  return verdictFor(c, action, matches, now);
}

/** At most 2 matches per file and 8 per store, unless pinned (exact, same title, recorded relation); 12 in all. */
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

function dispositionOf(action: CandidateAction, matches: Match[]): Disposition {
  if (matches.length === 0) return 'unique';
  const has = (r: Relation) => matches.some((m) => m.relation === r);
  if (has('exact_duplicate')) return 'exact_duplicate';
  if (action === 'contest' && has('potential_conflict')) return 'potential_conflict';
  if (action === 'supersede' && has('supersede_candidate')) return 'supersede_candidate';
  for (const r of ['potential_conflict', 'supersede_candidate', 'semantic_duplicate', 'extends'] as const) {
    if (has(r)) return r;
  }
  return 'related';
}

const ORIGIN_REF = /^(run|session):/;

function eligibilityOf(c: CandidateInput, action: CandidateAction, disposition: Disposition): Eligibility {
  if (disposition === 'exact_duplicate') return 'suppressed';
  if (disposition !== 'related' && disposition !== 'unique') return 'review_required';
  // A contest or supersede that names nothing we can find is a claim a person must check.
  if (action === 'contest' || action === 'supersede') return 'review_required';
  // Trust gate: evidence that is only transcript quotes needs a person.
  const refs = (c.evidence_refs ?? []).filter((r) => !ORIGIN_REF.test(r));
  if (refs.length > 0 && refs.every((r) => r.startsWith('transcript:'))) return 'review_required';
  return 'eligible';
}

function verdictFor(c: CandidateInput, action: CandidateAction, matches: Match[], now: string): Verdict {
  const disposition = dispositionOf(action, matches);
  const canonical = matches.find((m) => m.relation === disposition) ?? matches[0];
  const canonical_id = canonical?.knowledge_id ?? null;
  const reaffirms =
    action === 'reaffirm' && (disposition === 'exact_duplicate' || disposition === 'semantic_duplicate')
      ? canonical_id
      : null;
  return {
    candidate_id: c.candidate_id,
    disposition,
    promotion_eligibility: eligibilityOf(c, action, disposition),
    canonical_id,
    matches,
    reaffirms,
    resolution:
      disposition === 'exact_duplicate'
        ? { status: 'automatic', reason: 'normalized content hash matches active project knowledge', resolved_at: now }
        : null,
  };
}

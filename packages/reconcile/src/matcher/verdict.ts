import { SLOT_PREFIX } from './slots.js';
import type { CandidateAction, CandidateInput, Disposition, Eligibility, Match, Relation, Verdict } from './types.js';

/**
 * The data-driven part of the decision: numbers fitted on labelled sets (`bench/reconcile-quality.mjs`
 * fits them per cross-validation fold with `fitPolicy`), never word lists. Bump MATCHER_REVISION
 * when a default changes.
 */
export interface VerdictPolicy {
  /**
   * A conflict or replacement match decides the verdict only when its composite score is at
   * least this share of the strongest match's: a weak severe match (shared boilerplate, a
   * rationale sentence) is listed, not promoted over the entry the candidate is really about.
   */
  severeRatio: number;
  /** A `related` match this similar (composite) is a possible restatement: review as a duplicate. */
  restatement: number;
  /** Composite a `contest` / `supersede` needs for its best match to be the target it names. */
  actionTarget: number;
  /** A same-subject `related` match this similar that differs in a normative slot is a possible conflict. */
  slotConflict: number;
  /**
   * Distinctive coverage (the candidate's words weighted by their rarity in the corpus) a
   * `related` match also needs to read as a restatement: where every entry shares common words,
   * similarity alone says nothing.
   */
  distinctive: number;
  /**
   * Safety: a same-store `related` match this similar (composite) is about the same subject, and
   * nothing shows the two compatible (no different scope): review, not eligible. Fitted so that
   * over-review stays within its budget.
   */
  uncertain: number;
  /**
   * The same across languages (the candidate and the entry written in different languages): the
   * similarity of a translation through dictionary glosses runs lower than a paraphrase's.
   */
  uncertainCross: number;
  /**
   * Distinctive coverage a same-language uncertain pair also needs: where the shared words are the
   * corpus's common ones (boilerplate), similarity does not show a shared subject.
   */
  uncertainDistinctive: number;
  /** Distinctive shared weight (rare words in common, about one per word) it also needs. */
  uncertainMass: number;
  /** How an uncertain pair is reviewed: as a possible conflict or as a possible restatement. */
  uncertainAs: 'potential_conflict' | 'semantic_duplicate';
  /**
   * Composite a weak match (retrieved, not topical by the clause rules: `WEAK_EVIDENCE`) needs to
   * count at all; below it the match is dropped from the verdict.
   */
  weak: number;
  /**
   * Composite a weak match needs when it carries a named slot difference of its own (a tool one text
   * forbids and the other uses): strong evidence, so it decides a possible conflict below `weak` and
   * below the severe floor of a stronger topical match.
   */
  weakSlot: number;
}

/**
 * Fitted by `node bench/reconcile-quality.mjs` on every labelled set (reconcile-v1, harbor, the
 * per-case sets and the synthetic corpus's planted pairs): its "fitted on all sets" line. Copy
 * that line here and bump MATCHER_REVISION when it changes.
 */
export const DEFAULT_POLICY: VerdictPolicy = {
  severeRatio: 0.7,
  restatement: 0.38,
  actionTarget: 0.15,
  slotConflict: 0.1,
  distinctive: 0,
  uncertain: 1,
  uncertainCross: 0.22,
  uncertainDistinctive: 0,
  uncertainMass: 0,
  uncertainAs: 'semantic_duplicate',
  weak: 0.16,
  weakSlot: 0.14,
};

/** How a `related` match's evidence states its distinctive coverage. */
export const DISTINCTIVE_PREFIX = 'distinctive coverage ';
/** How a `related` match's evidence states the distinctive weight it shares with the entry. */
export const DISTINCTIVE_MASS_PREFIX = 'distinctive shared weight ';
const evidenceNumber = (m: Match, prefix: string, none: number) => {
  const e = m.evidence.find((x) => x.startsWith(prefix));
  return e ? Number(e.slice(prefix.length)) : none;
};
const distinctiveOf = (m: Match) => evidenceNumber(m, DISTINCTIVE_PREFIX, 1);
const distinctiveMassOf = (m: Match) => evidenceNumber(m, DISTINCTIVE_MASS_PREFIX, Number.POSITIVE_INFINITY);

/** Evidence of a weak match: retrieved and about as close as a neighbour, but not topical by the clause rules. */
export const WEAK_EVIDENCE = 'weak topical overlap';
/** How a match's evidence says the two texts are written in different languages. */
export const CROSS_LANGUAGE_PREFIX = 'different languages: ';
const isWeak = (m: Match) => m.evidence[0] === WEAK_EVIDENCE;
const isCross = (m: Match) => m.evidence.some((e) => e.startsWith(CROSS_LANGUAGE_PREFIX));
const slotOf = (m: Match) => m.evidence.find((e) => e.startsWith(SLOT_PREFIX)) ?? null;
/** A weak match whose own evidence is strong: a named slot difference at the policy's floor for it. */
const weakSlotted = (m: Match, policy: VerdictPolicy) =>
  isWeak(m) && slotOf(m) !== null && m.scores.composite >= policy.weakSlot;
/** The weak matches below the policy's floor take no part in the verdict and are not listed. */
const credible = (matches: readonly Match[], policy: VerdictPolicy) =>
  matches.filter((m) => !isWeak(m) || m.scores.composite >= policy.weak || weakSlotted(m, policy));

/** How `reconcile` marks the successor of a deprecated entry whose text the candidate repeats. */
export const RETIRED_EVIDENCE = 'same text as deprecated ';

const SEVERE = new Set<Relation>(['potential_conflict', 'supersede_candidate']);
const REVIEW = new Set<Relation>(['potential_conflict', 'supersede_candidate', 'semantic_duplicate', 'extends']);
const byStrength = (a: Match, b: Match) =>
  b.scores.composite - a.scores.composite || (a.knowledge_id < b.knowledge_id ? -1 : 1);

interface Decision {
  disposition: Disposition;
  canonical: Match | null;
  /** Evidence the policy adds to the canonical match (why it overrode the pairwise relation). */
  note: string | null;
}

/**
 * The disposition and canonical target of a candidate, from its matches (pure). Explicit actions
 * are strong priors; otherwise the strongest credible match decides, a weaker severe match only
 * when its own score is close to the strongest, and a `related` restatement goes to review.
 */
export function decideVerdict(
  store: 'spec' | 'knowhow',
  action: CandidateAction,
  matches: readonly Match[],
  policy: VerdictPolicy,
): Decision {
  const exact = matches.find((m) => m.relation === 'exact_duplicate');
  if (exact) return { disposition: 'exact_duplicate', canonical: exact, note: null };
  // An explicit action is a strong prior: it names its best target, weak matches included. Matches
  // are read by strength alone: ranking every weak match below every topical one was measured
  // (maestro-match/2.2 work) and lost canonical targets on every labelled set — a weak match is often
  // the entry the candidate is about; the severe floor keeps a weak-evidence conflict from deciding.
  const all = [...matches].sort(byStrength);
  const ranked = credible(all, policy);
  const best = ranked[0];
  // The text of a deprecated entry: judged against its successor, whatever else it resembles.
  const revived = ranked.find((m) => m.evidence.some((e) => e.startsWith(RETIRED_EVIDENCE)));
  if (revived && action !== 'contest' && action !== 'supersede') {
    return { disposition: revived.relation, canonical: revived, note: null };
  }
  if (action === 'contest' || action === 'supersede') {
    const disposition = action === 'contest' ? 'potential_conflict' : 'supersede_candidate';
    // The declared action names its target: the same-store match it is most about (a topical one
    // before any weak one; another store's entry only when its own store has none).
    const own = all.filter((m) => m.target === store);
    const pool = own.length > 0 ? own : all;
    const target =
      pool.find((m) => m.relation === disposition && m.scores.composite >= policy.actionTarget) ??
      pool.find((m) => m.scores.composite >= policy.actionTarget);
    if (!target) return { disposition: 'unique', canonical: null, note: null };
    return { disposition, canonical: target, note: `declared ${action} action: its closest entry is the target` };
  }
  if (!best) return { disposition: 'unique', canonical: null, note: null };
  const floor = best.scores.composite * policy.severeRatio;
  const severe = ranked.find((m) => SEVERE.has(m.relation) && m.scores.composite >= floor);
  if (severe) return { disposition: severe.relation, canonical: severe, note: null };
  const review = ranked.find((m) => REVIEW.has(m.relation) && m.scores.composite >= floor);
  if (review) return { disposition: review.relation, canonical: review, note: null };
  // Cross-store matches are `related` by definition (a knowhow tip that repeats a spec rule is linked).
  // Safety: `eligible` needs positive evidence of compatibility. A same-subject match that differs
  // in a normative slot (stance, value, antonym, chosen tool) goes to review as a possible conflict.
  const slotted =
    ranked.find(
      (m) =>
        m.relation === 'related' &&
        !isWeak(m) &&
        m.scores.composite >= Math.max(floor, policy.slotConflict) &&
        slotOf(m) !== null,
    ) ?? ranked.find((m) => weakSlotted(m, policy));
  if (slotted) {
    const slot = slotOf(slotted) ?? '';
    return {
      disposition: 'potential_conflict',
      canonical: slotted,
      note: `possible conflict: ${slot.slice(SLOT_PREFIX.length)}`,
    };
  }
  // The same rule for another scope is related, however alike the wording.
  const otherScope = best.evidence.includes('different scope (not a conflict)');
  if (
    best.relation === 'related' &&
    best.target === store &&
    !otherScope &&
    best.scores.composite >= policy.restatement &&
    distinctiveOf(best) >= policy.distinctive
  ) {
    return {
      disposition: 'semantic_duplicate',
      canonical: best,
      note: `possible restatement: similarity ${best.scores.composite.toFixed(3)} is high for merely related rules`,
    };
  }
  // Safety: eligible needs positive evidence of compatibility. A same-store match about the same
  // subject (similar enough) that nothing shows compatible goes to review.
  if (best.relation === 'related' && best.target === store && !otherScope) {
    const cross = isCross(best);
    const floor = cross ? policy.uncertainCross : policy.uncertain;
    if (
      best.scores.composite >= floor &&
      (cross || (distinctiveOf(best) >= policy.uncertainDistinctive && distinctiveMassOf(best) >= policy.uncertainMass))
    ) {
      const what = policy.uncertainAs === 'potential_conflict' ? 'a possible conflict' : 'a possible restatement';
      return {
        disposition: policy.uncertainAs,
        canonical: best,
        note: `same subject, compatibility not shown (similarity ${best.scores.composite.toFixed(3)}${isCross(best) ? ', across languages' : ''}): ${what}`,
      };
    }
  }
  return { disposition: best.relation, canonical: best, note: null };
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

/** Assembles the verdict: the canonical match first in the list, the policy's note in its evidence. */
export function verdictFor(
  c: CandidateInput,
  action: CandidateAction,
  matches: Match[],
  now: string,
  policy: VerdictPolicy = DEFAULT_POLICY,
): Verdict {
  const { disposition, canonical, note } = decideVerdict(c.target, action, matches, policy);
  const canonical_id = canonical?.knowledge_id ?? null;
  const shown = credible(matches, policy);
  const listed = canonical
    ? [
        note ? { ...canonical, evidence: [...canonical.evidence, note] } : canonical,
        ...shown.filter((m) => m !== canonical),
      ]
    : shown;
  const reaffirms =
    action === 'reaffirm' && (disposition === 'exact_duplicate' || disposition === 'semantic_duplicate')
      ? canonical_id
      : null;
  return {
    candidate_id: c.candidate_id,
    disposition,
    promotion_eligibility: eligibilityOf(c, action, disposition),
    canonical_id,
    matches: listed,
    reaffirms,
    resolution:
      disposition === 'exact_duplicate'
        ? { status: 'automatic', reason: 'normalized content hash matches active project knowledge', resolved_at: now }
        : null,
  };
}

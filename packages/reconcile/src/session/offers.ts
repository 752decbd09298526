import type { Disposition, Relation } from '../matcher/types.js';
import type { Choice } from '../schemas.js';

/**
 * One resolution a person may choose for a candidate, with what it does. The one source of
 * offered resolutions: `knowledge review` lists them, `knowledge promote`'s skip hints pick from
 * them, and docs/reconcile.md describes the same table.
 */
export interface OfferedResolution {
  choice: Choice;
  /** With `conflict`: also mark the target contested (`--contest`). */
  contest: boolean;
  target: string | null;
  /** True when the candidate can then be promoted. */
  promotes: boolean;
  meaning: string;
}

const MEANING: Record<Choice | 'contest', string> = {
  duplicate: 'the existing entry already says it: the candidate is rejected',
  related: 'keep both: the candidate is promoted beside the target',
  conflict: 'the existing rule stands: the candidate is rejected, the rule untouched',
  contest: 'the question stays open: the candidate is rejected and the rule marked contested with it and the reason',
  supersede: 'the candidate replaces the target, which is deprecated on promotion',
  unique: 'new knowledge: promoted as a new entry',
};

type Offer = Choice | 'contest';

const OFFERS: Partial<Record<Disposition, Offer[]>> = {
  semantic_duplicate: ['duplicate', 'related', 'unique'],
  potential_conflict: ['conflict', 'contest', 'supersede', 'related', 'unique'],
  supersede_candidate: ['supersede', 'related', 'unique'],
  extends: ['related', 'supersede', 'unique'],
  related: ['related', 'supersede', 'unique'],
  exact_duplicate: ['unique'],
};

const PROMOTES: Record<Choice, boolean> = {
  duplicate: false,
  conflict: false,
  related: true,
  supersede: true,
  unique: true,
};

const BY_RELATION: Record<Relation, Choice> = {
  exact_duplicate: 'duplicate',
  semantic_duplicate: 'duplicate',
  extends: 'related',
  related: 'related',
  potential_conflict: 'conflict',
  supersede_candidate: 'supersede',
};

/**
 * The resolutions offered for a verdict: those of its disposition (choices that need a target
 * only when the verdict has one, its canonical id), then every relation some match's evidence
 * supports with that match as target (a candidate in conflict with one entry and a duplicate of
 * another can be resolved either way), `unique` last.
 */
export function offeredResolutions(
  disposition: string | null,
  canonicalId: string | null,
  matches: readonly { knowledge_id: string; relation: Relation }[] = [],
): OfferedResolution[] {
  const base = dispositionOffers(disposition, canonicalId);
  const rest = base.filter((o) => o.choice !== 'unique');
  for (const m of matches) {
    const choice = BY_RELATION[m.relation];
    if (rest.some((o) => o.choice === choice)) continue;
    rest.push({ choice, contest: false, target: m.knowledge_id, promotes: PROMOTES[choice], meaning: MEANING[choice] });
  }
  return [...rest, ...base.filter((o) => o.choice === 'unique')];
}

function dispositionOffers(disposition: string | null, canonicalId: string | null): OfferedResolution[] {
  const offers = (disposition && OFFERS[disposition as Disposition]) || ['unique'];
  return offers.flatMap((o): OfferedResolution[] => {
    const choice: Choice = o === 'contest' ? 'conflict' : o;
    if (choice !== 'unique' && !canonicalId) return [];
    return [
      {
        choice,
        contest: o === 'contest',
        target: choice === 'unique' ? null : canonicalId,
        promotes: PROMOTES[choice],
        meaning: MEANING[o],
      },
    ];
  });
}

/** The resolve command of one offer (`<why>` stands for the reason the person gives). */
export function resolutionCommand(sessionId: string, candidateId: string, offer: OfferedResolution): string {
  const target = offer.target ? ` --target ${offer.target}` : '';
  const contest = offer.contest ? ' --contest' : '';
  return `maestro knowledge review ${sessionId} --resolve ${candidateId} --as ${offer.choice}${contest}${target} --reason "<why>"`;
}

/** The distinct choices offered for a verdict, most likely first (the review page's select). */
export function resolutionChoices(disposition: string | null): Choice[] {
  return [...new Set(offeredResolutions(disposition, 'target').map((o) => o.choice))];
}

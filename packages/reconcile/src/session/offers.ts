import type { Disposition } from '../matcher/types.js';
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

/**
 * The resolutions offered for a verdict. Choices that need a target are offered only when the
 * verdict has one (its canonical id); `unique` always is.
 */
export function offeredResolutions(disposition: string | null, canonicalId: string | null): OfferedResolution[] {
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

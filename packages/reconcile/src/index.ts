export { corpusIndex } from './matcher/corpus-index.js';
export { MATCHER_REVISION, reconcile, SEVERITY_ORDER } from './matcher/reconcile.js';
export { exactKey, matchNormalize } from './matcher/text.js';
export type {
  CandidateAction,
  CandidateInput,
  Disposition,
  Eligibility,
  Match,
  MatchableEntry,
  MatchScores,
  ReconcileOptions,
  Relation,
  Resolution,
  Verdict,
} from './matcher/types.js';

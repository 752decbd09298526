/**
 * The matcher's identity. Receipts record it and compare it as a freshness fence, so bump it
 * whenever a change in the matcher, in the lexicon or in a threshold can change a verdict.
 * Its own module (`@maestro/reconcile/revision`) so that the gate can key its stored checks
 * without loading the matcher.
 */
export const MATCHER_REVISION = 'maestro-match/2.3';

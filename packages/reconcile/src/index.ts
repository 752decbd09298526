export type { CorpusIndex, MatchIndex } from './matcher/corpus-index.js';
export { corpusIndex, memoryIndex } from './matcher/corpus-index.js';
export {
  FAMILY_LIMIT,
  MATCH_LIMIT,
  MATCHER_REVISION,
  matchCandidates,
  reconcile,
  SEVERITY_ORDER,
  STORE_LIMIT,
} from './matcher/reconcile.js';
export { RETRIEVAL_LIMIT } from './matcher/retrieve.js';
export { THRESHOLDS } from './matcher/score.js';
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
export type { VerdictPolicy } from './matcher/verdict.js';
export { DEFAULT_POLICY, decideVerdict, verdictFor } from './matcher/verdict.js';
export { BacklogOutput, jsonSchemas, ResolutionOutput, ReviewOutput } from './output-schemas.js';
export type { BuildReceiptInput, TargetState } from './receipt/build.js';
export { buildReceipt, CHOICE_EFFECT, choiceOf, countsOf } from './receipt/build.js';
export type { CorpusFingerprint, CorpusState } from './receipt/fingerprint.js';
export {
  computeCorpusFingerprint,
  corpusFiles,
  corpusFingerprintSync,
  corpusState,
  RACY_WINDOW_MS,
  storeWarnings,
} from './receipt/fingerprint.js';
export type { CheckReceiptsOptions, Fences, FreshnessReport, ReceiptCheck } from './receipt/freshness.js';
export { checkFreshness, checkReceipts, compareFences, receiptIsFresh } from './receipt/freshness.js';
export {
  keepCorruptCopy,
  ReceiptCorruptError,
  readReceipt,
  receiptPath,
  serializeReceipt,
  writeReceipt,
} from './receipt/io.js';
export type { EntryFacts, RevalidateInput, Revalidation } from './receipt/revalidate.js';
export { corpusDelta, corpusEntryHashes, entryHash, revalidateReceipt } from './receipt/revalidate.js';
export type { SnapshotCandidate } from './receipt/snapshot.js';
export { candidateContentHash, candidateSnapshotHash } from './receipt/snapshot.js';
export type {
  Choice,
  CorpusDelta,
  DroppedResolution,
  Freshness,
  Receipt,
  ReceiptCandidate,
  ReceiptResolution,
  RevalidatedFrom,
} from './schemas.js';
export {
  CHOICES,
  CorpusDeltaSchema,
  DISPOSITIONS,
  DroppedResolutionSchema,
  ELIGIBILITIES,
  FRESHNESS,
  MatchSchema,
  ReceiptCandidateSchema,
  ReceiptSchema,
  ResolutionSchema,
  RevalidatedFromSchema,
} from './schemas.js';
export type { BacklogChange, BacklogItem, BacklogOptions, BacklogResult } from './session/backlog.js';
export { EXPIRY_PREFIX, knowledgeBacklog } from './session/backlog.js';
export type { OfferedResolution } from './session/offers.js';
export { offeredResolutions, resolutionChoices, resolutionCommand } from './session/offers.js';
export type { ReconcileRunResult, ReconcileSessionResult } from './session/reconcile-session.js';
export { reconcileSession } from './session/reconcile-session.js';
export type { ResolutionResult, ResolvedCandidate, ResolveRequest } from './session/resolve.js';
export { resolveCandidates } from './session/resolve.js';
export type { ReviewCandidate, ReviewMatch, ReviewTarget, ReviewView } from './session/review.js';
export { reviewSession } from './session/review.js';
export type { RunState } from './session/run-state.js';
export { runState } from './session/run-state.js';

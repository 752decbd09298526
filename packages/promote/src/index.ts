export type { PlannedIds } from './ids.js';
export { plannedIds } from './ids.js';
export type { RecoveredPromotion } from './journal.js';
export { commitPromotion, PROMOTE_INTENT_FILE, promoteIntentPath, recoverPromotion } from './journal.js';
export type { CandidatePolicy, PromoteRequest, ReceiptCheck, ReceiptSource, ReceiptVerdict } from './model.js';
export { applyFilePlan } from './ops.js';
export type { PlanInput, PlanItem, PromotionPlan } from './plan.js';
export { planPromotion } from './plan.js';
export { candidatePolicy } from './policy.js';
export type { TitleCandidate } from './preflight.js';
export { activeSpecTitles, preflightTitles } from './preflight.js';
export type { PromoteOptions, PromotionPreview } from './promote.js';
export { previewPromotion, promote } from './promote.js';
export { reconcileReceipts } from './receipts.js';
export type { RenderContext, RenderedSpec } from './render.js';
export { descriptionOf, renderKnowhowCandidate, renderSpecCandidate, sourceOf, specCategoryOf } from './render.js';
export type {
  AlreadyPromotedEntry,
  FileOp,
  FilePlan,
  PromotedEntry,
  PromotionIntentMeta,
  PromotionResult,
  PromotionWarningEntry,
  SkippedEntry,
  SkipReason,
} from './schemas.js';
export {
  FileOpSchema,
  FilePlanSchema,
  jsonSchemas,
  PromotionIntentMetaSchema,
  PromotionIntentSchema,
  PromotionResultSchema,
  SKIP_REASONS,
} from './schemas.js';
export type { Decision, Preselection, Skipped } from './select.js';
export { decide, emptySkipped, preselect, requestedIds, requireFresh } from './select.js';

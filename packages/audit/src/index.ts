export type { ApplyOptions } from './apply.js';
export { applyPrunePlan } from './apply.js';
export type { AuditKnowledgeOptions } from './audit.js';
export { auditKnowledge, auditSummary, checkAuditOptions, readAuditInput, readCodeRefs } from './audit.js';
export { appendAuditLog, auditLogPath, backupStamp, listBackups, readManifest } from './backups.js';
export type { FileEdit } from './edits.js';
export { computeEdits } from './edits.js';
export { finding, sortFindings } from './finding.js';
export { specHealthWithEvidence } from './health.js';
export type { LinkAnalysis, SupersessionLink } from './links.js';
export { analyzeLinks, findCycles } from './links.js';
export type { PlanInput } from './plan.js';
export { flagPendingTargets, planPrune } from './plan.js';
export type { PipelineRead } from './read-pipeline.js';
export { evidenceRowsOf, readEvidenceRows, readPipeline } from './read-pipeline.js';
export type { ReceiptSource, ReceiptView } from './receipts.js';
export { fileReceipts, receiptView } from './receipts.js';
export type { AuditInput, AuditOptions } from './report.js';
export { buildAudit } from './report.js';
export type { RestoreOptions } from './restore.js';
export { changedSinceApply, restoreBackup } from './restore.js';
export type { RestoreIntent } from './restore-journal.js';
export { RESTORE_INTENT_FILE, readRestoreIntent, recoverRestore } from './restore-journal.js';
export type { CodeRef } from './rules-corpus.js';
export { CONTESTED_STALE_DAYS, FRESHNESS_FLOOR, freshness, HALF_LIFE_DAYS, STALE_BELOW } from './rules-corpus.js';
export type { EvidenceRow, EvidenceSignal } from './rules-evidence.js';
export {
  CITED_WEIGHT,
  CONTRADICTED_BELOW,
  EVIDENCE_SIGNALS,
  evidenceConfidence,
  evidenceFindings,
  evidenceSummary,
  knowledgeEvidence,
} from './rules-evidence.js';
export type { PipelineProblem, PipelineSnapshot, SessionBacklog } from './rules-pipeline.js';
export type { UsageSnapshot } from './rules-usage.js';
export { concentration, GINI_MAX, MIN_ENTRIES, MIN_EVENTS, TOP10_SHARE_MAX } from './rules-usage.js';
export type {
  Applied,
  AuditBackupManifest,
  AuditLogLine,
  AuditReport,
  AuditScope,
  BackupList,
  BackupState,
  EntryEvidence,
  EvidenceSummary,
  Finding,
  FindingStore,
  PendingTarget,
  Priority,
  PruneAction,
  PrunePlan,
  PruneReason,
  RecommendedAction,
  RestoreResult,
} from './schemas.js';
export {
  AUDIT_SCOPES,
  AuditBackupManifestSchema,
  AuditLogLineSchema,
  AuditReportSchema,
  BackupListSchema,
  FindingSchema,
  jsonSchemas,
  PruneActionSchema,
  PrunePlanSchema,
  RestoreResultSchema,
  SpecHealthEvidenceOutput,
} from './schemas.js';
export type { AuditSummary, CodeRefState, InputDigests } from './stored.js';
export {
  AUDIT_RESULT_REVISION,
  AUDIT_SECTION,
  readInputDigests,
  saveValue,
  storedValue,
  storeWarnings,
  validUntil,
} from './stored.js';

export type { CompleteRunOptions, CompleteRunResult, HandoffSkip } from './complete.js';
export { completeRun, readReport, stageHandoff } from './complete.js';
export { emptyDelta, parseDelta, readDelta, readDeltaFile, serializeDelta, updateDelta } from './delta.js';
export type { KnownIds } from './ids.js';
export { loadCorpusFor, lookupKnowledge, resolveIdsIn, resolveKnowledgeIds } from './ids.js';
export {
  IssueSchema,
  jsonSchemas,
  KnowledgeBacklogSchema,
  KnowledgeRecordOutput,
  KnowledgeStageOutput,
  LoadOutput,
  RunCompleteOutput,
  RunSealOutput,
  SessionListOutput,
  SessionSealOutput,
  SessionShowOutput,
  SessionSummarySchema,
  SummaryCandidateSchema,
  SummaryInputSchema,
} from './json-schemas.js';
export type { RecordRequest, RecordResult, StageRequest, StageResult } from './knowledge.js';
export { appendInputs, assertRunAcceptsKnowledge, recordKnowledge, stageKnowledge } from './knowledge.js';
export type { LoadedEntry, LoadRequest, LoadResult } from './load.js';
export { loadKnowledge } from './load.js';
export type { RunPaths, SessionPaths } from './paths.js';
export { assertRunId, assertSessionId, runPaths, sessionPaths } from './paths.js';
export type { ReportItem } from './report.js';
export {
  CONSTRAINT_STATUSES,
  DECISION_STATUSES,
  handoffCandidate,
  isStaged,
  parseReport,
  reportRef,
} from './report.js';
export type { StartRunOptions } from './run.js';
export { listRuns, readRun, serializeRun, startRun, updateRun } from './run.js';
export type {
  CandidateAction,
  CandidateStatus,
  InputSource,
  KnowledgeDelta,
  LedgerCandidate,
  LedgerInput,
  PromotionReceipt,
  RunRecord,
  SessionRecord,
  Signal,
  SourceKind,
} from './schemas.js';
export {
  ACTIONS,
  CANDIDATE_STATUSES,
  INPUT_SOURCES,
  KnowledgeDeltaSchema,
  LedgerCandidateSchema,
  LedgerInputSchema,
  PromotionReceiptSchema,
  RejectionSchema,
  RUN_ID_PATTERN,
  RUN_STATUSES,
  RunRecordSchema,
  SESSION_ID_PATTERN,
  SESSION_STATUSES,
  SessionRecordSchema,
  SIGNALS,
  SOURCE_KINDS,
  TARGETS,
} from './schemas.js';
export type { KnowledgeBacklog, SealRunResult, SealSessionResult } from './seal.js';
export { knowledgeBacklog, receiptEligibility, sealRun, sealSession } from './seal.js';
export type { CreateSessionOptions } from './session.js';
export { createSession, listSessions, readSession, serializeSession, updateSession } from './session.js';
export type { RecordInput, StageInput, StageOutcome } from './stage.js';
export {
  checkStageInput,
  parseAction,
  parseSignal,
  parseSource,
  parseTarget,
  recordInto,
  splitList,
  stageInto,
} from './stage.js';
export type { CandidateStage, SessionSummary, SummaryCandidate, SummaryInput, SummaryRun } from './summary.js';
export { aggregateCandidates, aggregateInputs, summarizeSession } from './summary.js';
export type { SessionListItem, SessionListResult, SessionShowResult } from './views.js';
export { sessionOverview, showSession } from './views.js';

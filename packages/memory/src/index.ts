export type { ConsolidationChange, ConsolidationPlan } from './consolidate.js';
export {
  BASE_HALF_LIFE_DAYS,
  CHANGING_KINDS,
  CONTRADICTION_SIMILARITY,
  consolidationWords,
  DUPLICATE_SIMILARITY,
  decayedConfidence,
  FORGET_FLOOR,
  halfLifeDays,
  planConsolidation,
} from './consolidate.js';
export type { RecalledMemories } from './context-block.js';
export {
  MEMORY_BUDGET_SHARE,
  MEMORY_CONTEXT_LIMIT,
  MEMORY_CONTEXT_TOKENS,
  MEMORY_ELEMENT,
  recalledMemoriesBlock,
} from './context-block.js';
export { jsonSchemas } from './json-schemas.js';
export { COPY_MIN_CHARS, refuseKnowledgeCopy } from './knowledge-copy.js';
export type { MemoryLocation } from './location.js';
export { AGENT_PATTERN, DEFAULT_AGENT, memoryBase, memoryLocation, projectKey, resolveAgent } from './location.js';
export type { ListFilters, RecallOptions } from './ops.js';
export {
  consolidateMemories,
  indexFor,
  listMemories,
  markRecalled,
  recallMemories,
  SUGGEST_MIN_CONFIDENCE,
  SUGGEST_MIN_SESSIONS,
  setRules,
  showRules,
  suggestions,
} from './ops.js';
export type {
  MemoryConsolidateOutputData,
  MemoryListOutputData,
  MemoryPromoteOutputData,
  MemoryRecallOutputData,
  StoreInfoData,
} from './output-schemas.js';
export type { PromoteRequest } from './promote.js';
export { memoryRef, promoteMemories } from './promote.js';
export type { AddRequest, MemoryTarget, UpdateRequest } from './records.js';
export {
  addMemory,
  deleteMemories,
  findRecord,
  locate,
  parseKind,
  parseUnit,
  showMemory,
  updateMemory,
} from './records.js';
export type { RecallHit, RecallIndex } from './relevance.js';
export { buildRecallIndex, DEFAULT_RECALL_LIMIT, DEFAULT_THRESHOLD, recall } from './relevance.js';
export type { RulesChange } from './rules.js';
export { BUILTIN_RULES, changeRules, checkMemoryText, compileRule, DEFAULT_RULES } from './rules.js';
export type { MemoryFile, MemoryHistory, MemoryKind, MemoryRecord, MemoryRules, NeverRule } from './schemas.js';
export { MEMORY_ID_PATTERN, MEMORY_KINDS, MemoryFileSchema, MemoryRecordSchema, MemoryRulesSchema } from './schemas.js';
export { DIR_MODE, ensurePrivateDir, FILE_MODE, readRules, readStore, readStoreCached, updateStore } from './store.js';

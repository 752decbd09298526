import {
  MemoryConsolidateOutput,
  MemoryDeleteOutput,
  MemoryListOutput,
  MemoryPromoteOutput,
  MemoryRecallOutput,
  MemoryRecordOutput,
  MemoryRulesOutput,
  MemoryUpdateOutput,
} from './output-schemas.js';
import { MemoryFileSchema, MemoryRulesSchema } from './schemas.js';

/** Published to schemas/ by `pnpm schemas`. */
export const jsonSchemas = {
  'memory-store': MemoryFileSchema,
  'memory-rules': MemoryRulesSchema,
  'memory-record-output': MemoryRecordOutput,
  'memory-update-output': MemoryUpdateOutput,
  'memory-list-output': MemoryListOutput,
  'memory-delete-output': MemoryDeleteOutput,
  'memory-rules-output': MemoryRulesOutput,
  'memory-recall-output': MemoryRecallOutput,
  'memory-consolidate-output': MemoryConsolidateOutput,
  'memory-promote-output': MemoryPromoteOutput,
};

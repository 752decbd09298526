export type { InitResult } from './init.js';
export { initWorkflow } from './init.js';
export type {
  Corpus,
  CorpusFileInfo,
  EntryStatus,
  KnowledgeEntry,
  KnowledgeStore,
  SpecCategory,
} from './model.js';
export { SPEC_CATEGORIES } from './model.js';
export { InitOutput, jsonSchemas } from './schemas.js';
export { CATEGORY_FILE, FILE_CATEGORY, SEED_FILES, seedFileText } from './seeds.js';

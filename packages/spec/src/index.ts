export type { LoadedCorpus, LoadedKnowhowFile, LoadedSpecFile } from './corpus.js';
export { findEntry, loadCorpus, loadCorpusFiles } from './corpus.js';
export { decodeEntities, escapeAttribute, escapeSpecContent, unescapeSpecContent } from './entities.js';
export type { Frontmatter } from './frontmatter.js';
export type { InitResult } from './init.js';
export { initWorkflow } from './init.js';
export type { KnowhowFieldValue, KnowhowFileInput } from './knowhow-edit.js';
export { renderKnowhowFile, setKnowhowFields, yamlScalar } from './knowhow-edit.js';
export type { KnowhowFileModel, KnowhowType } from './knowhow-file.js';
export { KNOWHOW_TYPES, knowhowEntry, knowhowIdFor, parseKnowhowFile, serializeKnowhowFile } from './knowhow-file.js';
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
export type { LocatedSpecEntry, SpecEntryInput } from './spec-edit.js';
export {
  appendSpecEntry,
  categoryFileFor,
  findDuplicateTitle,
  isSpecCategory,
  locateEntries,
  renderSpecEntry,
  SPEC_ATTRIBUTE_ORDER,
  setSpecEntryAttributes,
  specFileIds,
  specFileSids,
  withAttributes,
} from './spec-edit.js';
export type { SpecEntryNode, SpecFileModel, SpecLegacyNode, SpecSegment, SpecTextSegment } from './spec-file.js';
export { parseSpecFile, renderEntryNode, serializeSpecFile } from './spec-file.js';
export type { SpecAttribute } from './spec-tag.js';
export { derivedSpecId, specFileEntries, splitKeywords } from './spec-view.js';

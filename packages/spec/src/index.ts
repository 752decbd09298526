export type { AliasCandidate, AliasForm, EntryRef, RefResolution, ResolveRefOptions } from './aliases.js';
export {
  aliasNote,
  entryAliases,
  entryGraphId,
  positionalIds,
  requireResolvedRef,
  resolveEntryRef,
  stableAliases,
} from './aliases.js';
export { conflictMarkerLines, refuseConflicted } from './conflict-markers.js';
export type { LoadCorpusOptions, LoadedCorpus, LoadedKnowhowFile, LoadedSpecFile } from './corpus.js';
export { findEntry, loadCorpus, loadCorpusFiles } from './corpus.js';
// One spec file's entries as loadCorpus reads them, without keeping the file model (used by reconcile's match section).
export { type SpecSplice, saveGrownSpecRows, saveSplicedSpecRows } from './corpus-grown.js';
export {
  type EncodedSpecRow,
  type EntrySpot,
  encodeSpecRow,
  type ParsedFileRows,
  scanSpecRows,
} from './corpus-store.js';
export { type ParsedCorpusFile, parseCorpusFileRows, recordAppends, saveSpecRows } from './corpus-stored.js';
export { type EntrySink, type StreamedCorpusFile, streamCorpusFileRows } from './corpus-stream.js';
export { cycleComponents } from './cycles.js';
export { decodeEntities, escapeAttribute, escapeSpecContent, unescapeSpecContent } from './entities.js';
export type { Frontmatter } from './frontmatter.js';
export type { CappedEntry, DanglingLink, SpecHealth } from './health.js';
export { freshness, readSpecHealth, SPEC_HALF_LIFE_DAYS, specHealth } from './health.js';
export type { BrokenLink, HistoryItem, HistoryResult, LinkGraph } from './history.js';
export { buildLinks, cyclicIds, entryHistory } from './history.js';
export type { InitResult } from './init.js';
export { initWorkflow } from './init.js';
export type { KnowhowFieldValue, KnowhowFileInput } from './knowhow-edit.js';
export { renderKnowhowFile, setKnowhowFields, yamlScalar } from './knowhow-edit.js';
export type { KnowhowFileModel, KnowhowType } from './knowhow-file.js';
export { KNOWHOW_TYPES, knowhowEntry, knowhowIdFor, parseKnowhowFile, serializeKnowhowFile } from './knowhow-file.js';
export type { AddKnowhowInput, AddKnowhowResult } from './knowhow-lifecycle.js';
export { addKnowhow, requireKnowhow, supersedeKnowhow, validateKnowhowInput } from './knowhow-lifecycle.js';
export type { LinkRepair, LinkRepairResult } from './link-repair.js';
export { planLinkRepair, repairLinks } from './link-repair.js';
export { type EditLookup, lookupCorpus, lookupForEdit } from './lookup.js';
export type {
  Corpus,
  CorpusFileInfo,
  EntryStatus,
  KnowledgeEntry,
  KnowledgeStore,
  SpecCategory,
} from './model.js';
export { SPEC_CATEGORIES } from './model.js';
export type { UnindexedProse } from './prose.js';
export { findUnindexedProse, PROSE_MIN_CHARS, proseOutsideEntries } from './prose.js';
export type { SpecListOptions } from './queries.js';
export { knowhowHistory, listKnowhow, listSpecs, requireEntry, specHistory } from './queries.js';
export {
  BackfillOutput,
  ConflictOutput,
  EntryEditOutput,
  EntryFull,
  EntrySummary,
  HistoryOutput,
  InitOutput,
  IssueSchema,
  jsonSchemas,
  KnowhowAddOutput,
  KnowhowListOutput,
  KnowhowShowOutput,
  LinkRepairOutput,
  SpecAddOutput,
  SpecHealthOutput,
  SpecListOutput,
  SpecShowOutput,
  SupersedeOutput,
} from './schemas.js';
export { CATEGORY_FILE, FILE_CATEGORY, SEED_FILES, seedFileText } from './seeds.js';
export type { AddSpecInput, AddSpecResult } from './spec-add.js';
export { addSpecEntry, SPEC_INLINE_LIMIT, summarize, validateSpecInput } from './spec-add.js';
export type { EntryEdits } from './spec-apply.js';
export { applyEntryEdits } from './spec-apply.js';
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
export type { BackfillResult, ConflictResult, EntryEditResult, SupersedeResult } from './spec-lifecycle.js';
export {
  backfillSids,
  checkSupersede,
  clearConflict,
  deprecateEntry,
  markConflict,
  supersedeEntry,
} from './spec-lifecycle.js';
export type { SpecAttribute } from './spec-tag.js';
export { splitKeywords } from './spec-text.js';
export { derivedSpecId, specFileEntries } from './spec-view.js';
export type { FileWrite, RecoveredEdit, WriteOptions } from './write.js';
export { editCorpus, recoverSpecEdit, requireWorkflow, SPEC_INTENT_FILE } from './write.js';

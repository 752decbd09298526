export { BOOKKEEPING_KEYWORD, topicKeywords } from './bookkeeping.js';
export type { ForwardDoc } from './build.js';
export { buildIndex } from './build.js';
export { encodeIndex } from './codec.js';
export { decodeIndex } from './codec-read.js';
export type { FieldConfig, FieldName } from './config.js';
export { FIELD_CONFIG, FIELDS, LIMITS, RANKING, SELECTION, TOKENIZER_REVISION } from './config.js';
export type { ExposureRead, ExposureSnapshot } from './exposure.js';
export { compactExposure, EXPOSURE_SCHEMA, readExposure, recordExposure } from './exposure.js';
export type { IndexManifest, ManifestDir, ManifestFile } from './manifest.js';
export { MANIFEST_SCHEMA } from './manifest.js';
export type {
  IndexDoc,
  RankContext,
  RankedHit,
  Ranking,
  RankOptions,
  SearchIndex,
  SearchMode,
  SelectionReason,
} from './model.js';
export type { IndexStatus, OpenedIndex, OpenIndexOptions } from './open.js';
export { openSearchIndex } from './open.js';
export { searchIndexDir } from './persist.js';
export type { ParsedQuery, QueryPhrase } from './query.js';
export { parseQuery } from './query.js';
export type { CheckedRankOptions } from './rank.js';
export { checkRankOptions, rankIndex } from './rank.js';
export { rankEntries } from './rank-entries.js';
export {
  ExposureSnapshotSchema,
  IndexManifestSchema,
  jsonSchemas,
  SearchHitSchema,
  SearchOutputSchema,
} from './schemas.js';
export type { SearchHit, SearchOptions, SearchResult } from './search.js';
export { SEARCH_RESULT_SCHEMA, search, searchWithBodies } from './search.js';
export { analyzeDocument, queryTerms, sequenceTokens } from './tokenize.js';

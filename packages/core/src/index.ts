export { appendAll, maxOf } from './arrays.js';
export { INDEXED_TEXT_MAX, indexedText, isCapped, TERM_MAX } from './bounds.js';
export type { Runtime } from './clock.js';
export { compactDate, fixedRuntime, isoDate, runtimeFromEnv, systemRuntime } from './clock.js';
export type { ExitCode, MaestroErrorOptions, SourceLocation } from './errors.js';
export {
  EXIT_BAD_INPUT,
  EXIT_ENVIRONMENT,
  EXIT_OK,
  EXIT_REFUSED,
  environmentError,
  formatLocation,
  inputError,
  isMaestroError,
  MaestroError,
  refusedError,
} from './errors.js';
export type { KnowledgeTarget } from './ids.js';
export { CANDIDATE_ID_PATTERN, candidateId, derivedId, newSid, randomBase36, SID_PATTERN } from './ids.js';
export type { Issue, Parsed } from './issues.js';
export { formatIssue } from './issues.js';
export { jsonErrorOffset, lineColumnAt, parseJsonText } from './json.js';
export {
  AMPERSAND_FORMS,
  countClosingTags,
  escapeMarkup,
  FENCE_NAMES,
  foldForReader,
  LESS_THAN_FORMS,
  neutraliseTags,
  ROLE_NAMES,
} from './markup.js';
export { canonicalJson, contentHash, hashJson, normalizeText, sha256, slugify } from './text.js';

/**
 * `@maestro/spec/read`: the read side of the corpus without the published schemas (no zod), for
 * commands that must start fast (`maestro load`): whole loads, single-entry lookups through the
 * store, id resolution and aliases. The same functions as the package's main entry exports.
 */
export { entryAliases, entryGraphId } from './aliases.js';
export type { LoadCorpusOptions, LoadedCorpus } from './corpus.js';
export { findEntry, loadCorpus } from './corpus.js';
export { lookupCorpus } from './lookup.js';
export type { Corpus, KnowledgeEntry } from './model.js';
export { knowhowHistory, requireEntry, specHistory } from './queries.js';

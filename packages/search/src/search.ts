import { existsSync } from 'node:fs';
import { inputError, type Runtime, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { EntryStatus, KnowledgeStore } from '@maestro/spec';
import { entryGraphId, stableAliases } from '@maestro/spec/aliases';
import { CorruptIndexError } from './codec.js';
import { readExposure, recordExposure } from './exposure.js';
import type { RankedHit, Ranking, RankOptions, SearchMode } from './model.js';
import { type IndexStatus, type OpenedIndex, type OpenIndexOptions, openSearchIndex } from './open.js';
import { parseQuery } from './query.js';
import { type CheckedRankOptions, checkRankOptions, rankIndex } from './rank.js';

export interface SearchOptions extends RankOptions {
  /** A hermetic probe: neither the index nor the exposure counters are written. */
  readOnly?: boolean;
  /** Count the returned results as shown (default true; always false with `readOnly`). */
  recordExposure?: boolean;
  /**
   * Treat `"quoted text"` as a phrase that must match exactly (default true). Pass false for
   * prose, e.g. an agent's prompt, where quotes are not query syntax.
   */
  phrases?: boolean;
  /** Override the corpus reader (tests, or a caller that already loads the corpus); see `openSearchIndex`. */
  loadCorpus?: OpenIndexOptions['loadCorpus'];
}

// The lean entry (`@maestro/search/search`) also records exposure for callers that show results themselves.
export { recordExposure } from './exposure.js';

export const SEARCH_RESULT_SCHEMA = 'search-result/1.0';

/** A ranked hit with its identities: `id` (what `load` takes), `graphId` and non-drifting `aliases`. */
export type SearchHit = RankedHit & { graphId: string; aliases: string[] };

/** What `search` returns and `maestro search --json` prints (schema `search-output`). */
export interface SearchResult {
  schema_version: typeof SEARCH_RESULT_SCHEMA;
  query: string;
  mode: SearchMode;
  filters: {
    type: KnowledgeStore | null;
    category: string | null;
    tags: string[];
    status: EntryStatus | null;
    include_deprecated: boolean;
  };
  /** Matches after facets and filters, before paging. */
  total: number;
  /** False when a phrase query stopped checking early: `total` is a lower bound; the page is exact. */
  total_exact: boolean;
  offset: number;
  limit: number;
  count: number;
  results: SearchHit[];
  exploration_available: boolean;
  exposure_recorded: boolean;
  index: { status: IndexStatus; entries: number; reindexed: number; persisted: boolean };
  /** Problems worth showing (corpus issues, index rebuilt, counters unreadable, ...); never fatal. */
  warnings: string[];
}

function checkInput(layout: WorkflowLayout, query: string): void {
  if (!query.trim()) {
    throw inputError('SEARCH_EMPTY_QUERY', 'the search query is empty', {
      hint: 'pass words to look for, e.g. `maestro search "retry backoff"`; quote a phrase to match it exactly',
    });
  }
  if (!existsSync(layout.workflow)) {
    throw inputError('NO_WORKFLOW', `no .workflow/ directory in ${layout.root}`, {
      hint: 'run `maestro init` here, or pass --workflow-root <project root>',
    });
  }
}

/**
 * Ranks on the opened index; damage inside a lazily decoded record (or a corpus file changed
 * under a body read back from it) can surface only now: rebuild once.
 */
async function rankOpened<T>(
  layout: WorkflowLayout,
  openOptions: OpenIndexOptions,
  rank: (opened: OpenedIndex) => T,
): Promise<{ opened: OpenedIndex; ranking: T }> {
  const opened = await openSearchIndex(layout, openOptions);
  try {
    return { opened, ranking: rank(opened) };
  } catch (err) {
    if (!(err instanceof CorruptIndexError)) throw err;
    const rebuilt = await openSearchIndex(layout, { ...openOptions, discard: err.message });
    return { opened: rebuilt, ranking: rank(rebuilt) };
  }
}

function toResult(
  query: string,
  o: CheckedRankOptions,
  ranking: Ranking,
  opened: OpenedIndex,
): Omit<SearchResult, 'exposure_recorded' | 'warnings'> {
  return {
    schema_version: SEARCH_RESULT_SCHEMA,
    query,
    mode: o.mode,
    filters: {
      type: o.type ?? null,
      category: o.category ?? null,
      tags: o.tags ?? [],
      status: o.status ?? null,
      include_deprecated: o.includeDeprecated === true || o.status === 'deprecated',
    },
    total: ranking.total,
    total_exact: ranking.total_exact,
    offset: o.offset,
    limit: o.limit,
    count: ranking.hits.length,
    // Keys in schema order (identities right after the id), so the JSON reads the same parsed or raw.
    results: ranking.hits.map(({ rank, id, ...h }) => ({
      rank,
      id,
      graphId: entryGraphId({ id, store: h.store }),
      aliases: stableAliases({ id, ...h }),
      ...h,
    })),
    exploration_available: ranking.exploration_available,
    index: {
      status: opened.status,
      entries: opened.index.size,
      reindexed: opened.reindexed,
      persisted: opened.persisted,
    },
  };
}

/**
 * Searches the project's knowledge: opens (and if needed updates) the projection, ranks, and
 * records the shown ids as exposure. Search is exposure only: it never records `consumed`,
 * never writes specs or knowhow, and exposure never changes a score. Throws an input error
 * (exit 2) for an empty query, bad options, or a directory without `.workflow/`.
 */
export async function search(
  layout: WorkflowLayout,
  query: string,
  options: SearchOptions = {},
  runtime: Runtime = systemRuntime,
): Promise<SearchResult> {
  return (await run(layout, query, options, runtime, false)).result;
}

/**
 * `search`, plus each result's full text (`KnowledgeEntry.content`) read from the projection, in
 * the order of `results`: a caller that shows the entries (the prompt hook) needs no corpus parse.
 */
export async function searchWithBodies(
  layout: WorkflowLayout,
  query: string,
  options: SearchOptions = {},
  runtime: Runtime = systemRuntime,
): Promise<{ result: SearchResult; bodies: string[] }> {
  const r = await run(layout, query, options, runtime, true);
  return { result: r.result, bodies: r.bodies };
}

async function run(
  layout: WorkflowLayout,
  query: string,
  options: SearchOptions,
  runtime: Runtime,
  withBodies: boolean,
): Promise<{ result: SearchResult; bodies: string[] }> {
  const o = checkRankOptions(options);
  checkInput(layout, query);
  const readOnly = options.readOnly === true;
  // Counters are read only when an exploration slot is possible (balanced mode, first page).
  const exposure = o.mode === 'balanced' && o.offset === 0 ? readExposure(layout) : null;
  const parsed = parseQuery(query, { phrases: options.phrases });
  const ctx = { now: runtime.now(), exposure: exposure?.counts ?? null };
  const { opened, ranking: ranked } = await rankOpened(
    layout,
    { persist: !readOnly, loadCorpus: options.loadCorpus },
    (x) => {
      const ranking = rankIndex(x.index, parsed, o, ctx);
      // Read here, so that a body whose file changed meanwhile makes the index rebuild too.
      return { ranking, bodies: withBodies ? ranking.docs.map((d) => x.index.body(d)) : [] };
    },
  );
  const { ranking, bodies } = ranked;
  const warnings = [...opened.warnings, ...opened.issues];
  if (exposure?.warning) warnings.push(exposure.warning);
  if (parsed.terms.length === 0) {
    warnings.push('the query has no searchable words (stop words and one-letter words are ignored)');
  }
  let recorded = false;
  if (!readOnly && options.recordExposure !== false && ranking.hits.length > 0) {
    const failed = await recordExposure(
      layout,
      ranking.hits.map((h) => h.id),
    );
    if (failed) warnings.push(failed);
    recorded = failed === null;
  }
  return { result: { ...toResult(query, o, ranking, opened), exposure_recorded: recorded, warnings }, bodies };
}

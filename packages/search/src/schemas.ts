import { z } from 'zod';

/**
 * The shapes this package publishes: the `maestro search --json` output and the two derived files
 * it keeps under `.workflow/.index/search/`. The readers on the search path check these shapes by
 * hand (no zod at cold start); tests hold the hand checks and these schemas together.
 */

const Store = z.enum(['spec', 'knowhow']);
const Status = z.enum(['active', 'deprecated']);

export const SearchHitSchema = z
  .strictObject({
    rank: z.number().int().min(1).describe('1-based position in the whole result list (offset included)'),
    id: z.string().describe('canonical KnowledgeEntry id (sid or knowhow id); `maestro load --id` accepts it'),
    graphId: z.string().describe('stable knowledge-graph node id (`maestro graph show` accepts it)'),
    aliases: z.array(z.string()).describe('other ids the entry answers to (maestro-flow forms that do not drift)'),
    store: Store,
    title: z.string(),
    category: z.string().nullable(),
    keywords: z.array(z.string()),
    status: Status,
    confidence: z.string().nullable().describe('high, medium, low or contested (null when not given)'),
    date: z.string().nullable(),
    file: z.string().describe('relative to .workflow/'),
    line: z.number().int().nullable(),
    score: z.number().min(0).describe('BM25F × coverage × time decay'),
    relevance: z.number().min(0).max(1).describe('score ÷ the best score of the query'),
    selection_reason: z.enum(['relevance', 'diversity', 'exploration']),
    snippet: z.string(),
    highlights: z.array(z.tuple([z.number().int(), z.number().int()])).describe('[start, end) in snippet'),
    matched_terms: z.array(z.string()),
  })
  .describe('one search result');

export const SearchOutputSchema = z
  .strictObject({
    schema_version: z.literal('search-result/1.0'),
    query: z.string(),
    mode: z.enum(['balanced', 'relevance']),
    filters: z.strictObject({
      type: Store.nullable(),
      category: z.string().nullable(),
      tags: z.array(z.string()),
      status: Status.nullable(),
      include_deprecated: z.boolean(),
    }),
    total: z.number().int().min(0).describe('matches after facets and filters, before paging'),
    total_exact: z
      .boolean()
      .describe('false when a phrase query stopped checking early: total is then a lower bound (the page is exact)'),
    offset: z.number().int().min(0),
    limit: z.number().int().min(1),
    count: z.number().int().min(0),
    results: z.array(SearchHitSchema),
    exploration_available: z
      .boolean()
      .describe('exposure counters were readable, so one exploration slot was possible'),
    exposure_recorded: z.boolean().describe('the shown ids were counted as exposure (never as consumption)'),
    index: z.strictObject({
      status: z.enum(['fresh', 'revalidated', 'updated', 'built', 'rebuilt']),
      entries: z.number().int().min(0),
      reindexed: z.number().int().min(0),
      persisted: z.boolean(),
    }),
    warnings: z.array(z.string()),
  })
  .describe('maestro search --json');

export const IndexManifestSchema = z
  .strictObject({
    schema_version: z.literal('search-index-manifest/1.0'),
    format: z.number().int(),
    tokenizer: z.string(),
    build_id: z.string().describe('also in the header of index.bin; a mismatch means a torn pair'),
    built_at_ms: z.number().describe('wall-clock ms when the corpus was read (racy-timestamp reference)'),
    entries: z.number().int().min(0),
    data_bytes: z.number().int().min(0),
    dirs: z.array(z.strictObject({ path: z.string(), mtime_ms: z.number().nullable() })),
    files: z.array(
      z.strictObject({
        path: z.string().describe('relative to .workflow/'),
        size: z.number().int(),
        mtime_ms: z.number(),
        ctime_ms: z
          .number()
          .optional()
          .describe('inode change time at indexing; absent in older manifests, whose index is rebuilt once'),
        hash: z.string().describe("sha256 of the file's indexed entries"),
        first: z.number().int().min(0),
        count: z.number().int().min(0),
      }),
    ),
    issues: z.array(z.string()).describe('corpus problems seen at build time'),
  })
  .describe('.workflow/.index/search/manifest.json (derived; delete to rebuild)');

export const ExposureSnapshotSchema = z
  .strictObject({
    schema_version: z.literal('search-exposure/1.0'),
    counts: z.record(z.string(), z.number().int().min(0)).describe('times each id was shown by search'),
    log: z
      .strictObject({ ino: z.number().int(), bytes: z.number().int().min(0) })
      .nullable()
      .describe('how much of which exposure.jsonl this snapshot has absorbed'),
  })
  .describe('.workflow/.index/search/exposure.json (derived; feeds only the exploration slot)');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'search-output': SearchOutputSchema,
  'search-index-manifest': IndexManifestSchema,
  'search-exposure': ExposureSnapshotSchema,
};

import type { KnowledgeEntry } from '@maestro/spec';
import { buildIndex } from './build.js';
import type { RankContext, Ranking, RankOptions } from './model.js';
import { rankIndex } from './rank.js';

/**
 * `rankIndex` over an in-memory index of `entries`: the pure API for callers that hold a corpus.
 * Apart from `rank.ts`, so that ranking a stored index never loads the index builder.
 */
export function rankEntries(
  entries: readonly KnowledgeEntry[],
  query: string,
  options: RankOptions,
  ctx: RankContext,
): Ranking {
  return rankIndex(buildIndex(entries), query, options, ctx);
}

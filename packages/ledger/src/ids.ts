import { inputError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { Corpus } from '@maestro/spec';
import { loadCorpusFor, lookupKnowledge } from './ids-read.js';

export { loadCorpusFor, lookupKnowledge } from './ids-read.js';

export interface KnownIds {
  /** Canonical ids (as the corpus spells them), in the order given, de-duplicated. */
  ids: string[];
  /** Ids not in the corpus, recorded as given because `allowUnknown` was set. */
  unknown: string[];
  /** "resolved alias X to Y" for each maestro-flow alias given instead of a canonical id. */
  aliases: string[];
}

/**
 * Resolves ids against the corpus (a pure function of it). Unknown ids are refused (exit 2,
 * listing all of them) unless `allowUnknown`, in which case they are kept as given.
 */
export function resolveIdsIn(corpus: Corpus, ids: readonly string[], options: { allowUnknown: boolean }): KnownIds {
  const out: string[] = [];
  const unknown: string[] = [];
  const aliases: string[] = [];
  for (const raw of ids) {
    const hit = lookupKnowledge(corpus, raw, aliases);
    if (hit) out.push(hit.id);
    else unknown.push(raw);
  }
  if (unknown.length && !options.allowUnknown) {
    throw inputError('UNKNOWN_KNOWLEDGE_ID', `unknown knowledge id(s): ${unknown.join(', ')}`, {
      hint: 'use the ids printed by `maestro search`, `maestro spec list` or `maestro knowhow list`; pass --allow-unknown to record them anyway',
      details: { unknown },
    });
  }
  return { ids: [...new Set([...out, ...unknown])], unknown, aliases };
}

/** Loads the corpus once and resolves `ids` against it; no ids means no corpus read. */
export function resolveKnowledgeIds(
  layout: WorkflowLayout,
  ids: readonly string[],
  options: { allowUnknown: boolean },
): KnownIds {
  if (ids.length === 0) return { ids: [], unknown: [], aliases: [] };
  return resolveIdsIn(loadCorpusFor(layout), ids, options);
}

import { inputError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type Corpus, findEntry, type KnowledgeEntry, loadCorpus } from '@maestro/spec';

export interface KnownIds {
  /** Canonical ids (as the corpus spells them), in the order given, de-duplicated. */
  ids: string[];
  /** Ids not in the corpus, recorded as given because `allowUnknown` was set. */
  unknown: string[];
  /** "resolved alias X to Y" for each maestro-flow alias given instead of a canonical id. */
  aliases: string[];
}

/** The corpus, read once per command through @maestro/spec. */
export function loadCorpusFor(layout: WorkflowLayout): Corpus {
  return loadCorpus(layout);
}

/**
 * Finds an entry by the id that `spec`, `knowhow` and `search` print, or by any of maestro-flow's
 * id forms (`@maestro/spec`'s `findEntry`: `spec:project:{stem}-{NNN}`, `spec:{sid}`,
 * `legacy:{file}:{line}`, `knowhow:{slug}`, explicit knowhow ids, letter case). An ambiguous or
 * drifted positional id is refused (exit 2) with the candidates; an alias used is pushed to `notes`.
 */
export function lookupKnowledge(corpus: Corpus, raw: string, notes?: string[]): KnowledgeEntry | null {
  return findEntry(corpus, raw, notes);
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

import { inputError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type Corpus, findEntry, type KnowledgeEntry, loadCorpus } from '@maestro/spec';

export interface KnownIds {
  /** Canonical ids (as the corpus spells them), in the order given, de-duplicated. */
  ids: string[];
  /** Ids not in the corpus, recorded as given because `allowUnknown` was set. */
  unknown: string[];
}

/** The corpus, read once per command through @maestro/spec. */
export function loadCorpusFor(layout: WorkflowLayout): Corpus {
  return loadCorpus(layout);
}

/**
 * Finds an entry by the id that `spec`, `knowhow` and `search` print, using @maestro/spec's
 * `findEntry`; additionally a `spec:` or `knowhow:` prefix in any case (as in `--signal-ids
 * knowhow:K-1`) and a case-insensitive match of a whole id (when unambiguous) are accepted.
 */
export function lookupKnowledge(corpus: Corpus, raw: string): KnowledgeEntry | null {
  const id = raw.trim();
  // `spec:` / `knowhow:` (any case) name the store; the rest may differ in letter case.
  const prefixed = /^(spec|knowhow):(.*)$/i.exec(id);
  const store = prefixed ? (prefixed[1].toLowerCase() as 'spec' | 'knowhow') : null;
  const bare = prefixed ? prefixed[2].trim() : id;
  const inStore = (e: KnowledgeEntry | null) => (e && (store === null || e.store === store) ? e : null);
  const direct = inStore(findEntry(corpus, id)) ?? (prefixed ? inStore(findEntry(corpus, bare)) : null);
  if (direct) return direct;
  const lower = bare.toLowerCase();
  const hits = corpus.entries.filter((e) => e.id.toLowerCase() === lower && (store === null || e.store === store));
  return hits.length === 1 ? hits[0] : null;
}

/**
 * Resolves ids against the corpus (a pure function of it). Unknown ids are refused (exit 2,
 * listing all of them) unless `allowUnknown`, in which case they are kept as given.
 */
export function resolveIdsIn(corpus: Corpus, ids: readonly string[], options: { allowUnknown: boolean }): KnownIds {
  const out: string[] = [];
  const unknown: string[] = [];
  for (const raw of ids) {
    const hit = lookupKnowledge(corpus, raw);
    if (hit) out.push(hit.id);
    else unknown.push(raw);
  }
  if (unknown.length && !options.allowUnknown) {
    throw inputError('UNKNOWN_KNOWLEDGE_ID', `unknown knowledge id(s): ${unknown.join(', ')}`, {
      hint: 'use the ids printed by `maestro search`, `maestro spec list` or `maestro knowhow list`; pass --allow-unknown to record them anyway',
      details: { unknown },
    });
  }
  return { ids: [...new Set([...out, ...unknown])], unknown };
}

/** Loads the corpus once and resolves `ids` against it; no ids means no corpus read. */
export function resolveKnowledgeIds(
  layout: WorkflowLayout,
  ids: readonly string[],
  options: { allowUnknown: boolean },
): KnownIds {
  if (ids.length === 0) return { ids: [], unknown: [] };
  return resolveIdsIn(loadCorpusFor(layout), ids, options);
}

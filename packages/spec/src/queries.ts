import { inputError } from '@maestro/core';
import { findEntry } from './corpus.js';
import { entryHistory, type HistoryResult } from './history.js';
import type { Corpus, KnowledgeEntry } from './model.js';

/** Pure read-side queries over a loaded corpus; the CLI composes `loadCorpus` with these. */

export interface SpecListOptions {
  category?: string | null;
  includeDeprecated?: boolean;
}

/** Spec entries in corpus order, deprecated ones only when asked. */
export function listSpecs(corpus: Corpus, options: SpecListOptions = {}): KnowledgeEntry[] {
  return corpus.entries.filter(
    (e) =>
      e.store === 'spec' &&
      (options.includeDeprecated || e.status !== 'deprecated') &&
      (!options.category || e.category === options.category),
  );
}

/** Knowhow documents, optionally of one type. */
export function listKnowhow(corpus: Corpus, type?: string | null): KnowledgeEntry[] {
  return corpus.entries.filter((e) => e.store === 'knowhow' && (!type || e.type === type));
}

/** One entry of a store by id (knowhow also by stem, file name or explicit id); unknown is exit 2. */
export function requireEntry(corpus: Corpus, ref: string, store: 'spec' | 'knowhow', notes?: string[]): KnowledgeEntry {
  const e = findEntry(corpus, ref, notes);
  if (e && e.store === store) return e;
  const list = store === 'spec' ? 'maestro spec list --include-deprecated' : 'maestro knowhow list';
  throw inputError('UNKNOWN_ID', `no ${store === 'spec' ? 'spec entry' : 'knowhow document'} with id ${ref}`, {
    hint: e ? `${ref} is a ${e.store} entry; use \`maestro ${e.store} ...\`` : `run \`${list}\` to see the ids`,
  });
}

/** `spec history <id>`: the supersession chain through a spec entry. */
export function specHistory(corpus: Corpus, id: string, notes?: string[]): HistoryResult {
  return entryHistory(corpus, requireEntry(corpus, id, 'spec', notes));
}

/** `knowhow history <id>`: the supersession chain through a knowhow document. */
export function knowhowHistory(corpus: Corpus, ref: string, notes?: string[]): HistoryResult {
  return entryHistory(corpus, requireEntry(corpus, ref, 'knowhow', notes));
}

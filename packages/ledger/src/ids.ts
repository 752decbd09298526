import { inputError, isMaestroError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { Corpus, KnowledgeEntry } from '@maestro/spec';

export interface KnownIds {
  /** Canonical ids (as the corpus spells them), in the order given, de-duplicated. */
  ids: string[];
  /** Ids not in the corpus, recorded as given because `allowUnknown` was set. */
  unknown: string[];
}

type CorpusLoader = (layout: WorkflowLayout) => Corpus | Promise<Corpus>;

/** `@maestro/spec`'s `loadCorpus`, looked up at run time. */
async function corpusLoader(): Promise<CorpusLoader> {
  const spec = (await import('@maestro/spec')) as unknown as { loadCorpus?: CorpusLoader };
  if (typeof spec.loadCorpus !== 'function') {
    throw inputError('CORPUS_UNAVAILABLE', 'this build cannot read the knowledge corpus to check ids', {
      hint: 'pass --allow-unknown to record the ids unchecked',
    });
  }
  return spec.loadCorpus;
}

export async function loadCorpusFor(layout: WorkflowLayout): Promise<Corpus> {
  return (await corpusLoader())(layout);
}

/**
 * Finds an entry by the id that `spec`, `knowhow` and `search` print: exact first, then
 * case-insensitively; a `spec:` or `knowhow:` prefix (as in `--signal-ids spec:S-1`) is accepted.
 */
export function findEntry(corpus: Corpus, raw: string): KnowledgeEntry | null {
  const id = raw.trim();
  const exact = corpus.byId.get(id);
  if (exact) return exact;
  const m = /^(spec|knowhow):(.+)$/.exec(id);
  if (m) {
    const hit = findEntry(corpus, m[2]);
    return hit && hit.store === m[1] ? hit : null;
  }
  const lower = id.toLowerCase();
  const hits = corpus.entries.filter((e) => e.id.toLowerCase() === lower);
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
    const hit = findEntry(corpus, raw);
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
export async function resolveKnowledgeIds(
  layout: WorkflowLayout,
  ids: readonly string[],
  options: { allowUnknown: boolean },
): Promise<KnownIds> {
  if (ids.length === 0) return { ids: [], unknown: [] };
  let corpus: Corpus;
  try {
    corpus = await loadCorpusFor(layout);
  } catch (err) {
    if (options.allowUnknown && isMaestroError(err) && err.code === 'CORPUS_UNAVAILABLE') {
      return { ids: [...new Set(ids)], unknown: [...ids] };
    }
    throw err;
  }
  return resolveIdsIn(corpus, ids, options);
}

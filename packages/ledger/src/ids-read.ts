import type { WorkflowLayout } from '@maestro/fs';
import { type Corpus, findEntry, type KnowledgeEntry, loadCorpus } from '@maestro/spec/read';

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

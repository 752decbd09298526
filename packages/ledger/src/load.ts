import { inputError, type Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
// The read side only (no schemas), and the run ledger modules only when a run records the load:
// `maestro load --id` starts on what it uses.
import { type Corpus, entryAliases, entryGraphId, type KnowledgeEntry, lookupCorpus } from '@maestro/spec/read';
import { loadCorpusFor, lookupKnowledge } from './ids-read.js';

export { splitList } from './list.js';

export interface LoadRequest {
  ids: string[];
  /** Both or neither: with them, the load is recorded as `consumed` (source `load`) on that run. */
  session_id?: string;
  run_id?: string;
  include_deprecated?: boolean;
}

export interface LoadedEntry {
  id: string;
  /** Stable knowledge-graph node id. */
  graphId: string;
  /** Other ids this entry answers to (maestro-flow's forms). */
  aliases: string[];
  store: 'spec' | 'knowhow';
  title: string;
  category: string | null;
  status: 'active' | 'deprecated';
  type: string | null;
  keywords: string[];
  confidence: string | null;
  supersedes: string[];
  superseded_by: string | null;
  file: string;
  line: number | null;
  content_hash: string;
  content: string;
}

export interface LoadResult {
  entries: LoadedEntry[];
  recorded: { session_id: string; run_id: string; signal: 'consumed'; source: 'load'; count: number } | null;
  /** "resolved alias X to Y" for each maestro-flow id form given instead of a canonical id. */
  resolved_aliases: string[];
}

function toLoaded(corpus: Corpus, e: KnowledgeEntry): LoadedEntry {
  return {
    id: e.id,
    graphId: entryGraphId(e),
    aliases: entryAliases(corpus, e),
    store: e.store,
    title: e.title,
    category: e.category,
    status: e.status,
    type: e.type,
    keywords: e.keywords,
    confidence: e.confidence,
    supersedes: e.supersedes,
    superseded_by: e.supersededBy,
    file: e.file,
    line: e.line,
    content_hash: e.contentHash,
    content: e.content,
  };
}

/**
 * `maestro load`: the entries for the given ids, all or nothing. Unknown ids, and deprecated ones
 * without `include_deprecated`, are bad input (exit 2) listing them all. With a run, each loaded
 * id is recorded as `consumed` with source `load` — the only path that records consumption.
 */
export async function loadKnowledge(layout: WorkflowLayout, req: LoadRequest, runtime: Runtime): Promise<LoadResult> {
  if (req.ids.length === 0) {
    throw inputError('NO_KNOWLEDGE_IDS', 'no ids to load', {
      hint: 'pass --id <id> (repeatable or comma-separated), using ids printed by `maestro search` or `maestro spec list`',
    });
  }
  if ((req.session_id === undefined) !== (req.run_id === undefined)) {
    throw inputError('USAGE', '--session and --run go together', {
      hint: 'pass both to record the load on that run, or neither to only print the entries',
    });
  }
  const attributed = req.session_id !== undefined && req.run_id !== undefined;
  const ledger = attributed ? await Promise.all([import('./knowledge.js'), import('./run.js')]) : null;
  if (ledger) ledger[0].assertRunAcceptsKnowledge(ledger[1].readRun(layout, req.session_id!, req.run_id!), layout);
  // The files holding these ids, from the store's rows; the whole corpus when they cannot say.
  const corpus = lookupCorpus(layout, req.ids) ?? loadCorpusFor(layout);
  const unknown: string[] = [];
  const deprecated: string[] = [];
  const found = new Map<string, KnowledgeEntry>();
  const aliases: string[] = [];
  for (const raw of req.ids) {
    const hit = lookupKnowledge(corpus, raw, aliases);
    if (!hit) unknown.push(raw);
    else if (hit.status === 'deprecated' && !req.include_deprecated) deprecated.push(hit.id);
    else found.set(hit.id, hit);
  }
  if (unknown.length) {
    throw inputError('UNKNOWN_KNOWLEDGE_ID', `unknown knowledge id(s): ${unknown.join(', ')}`, {
      hint: 'use the ids printed by `maestro search`, `maestro spec list` or `maestro knowhow list`; nothing was loaded or recorded',
      details: { unknown },
    });
  }
  if (deprecated.length) {
    throw inputError('DEPRECATED_KNOWLEDGE_ID', `deprecated knowledge id(s): ${deprecated.join(', ')}`, {
      hint: 'load their successors (`maestro spec history <id>`), or pass --include-deprecated to load retired entries',
      details: { deprecated },
    });
  }
  const entries = [...found.values()].map((e) => toLoaded(corpus, e));
  if (!ledger) return { entries, recorded: null, resolved_aliases: aliases };
  const inputs = await ledger[0].appendInputs(
    layout,
    req.session_id!,
    req.run_id!,
    { knowledge_ids: entries.map((e) => e.id), signal: 'consumed', source: 'load', evidence: [] },
    runtime,
  );
  return {
    entries,
    recorded: {
      session_id: req.session_id!,
      run_id: req.run_id!,
      signal: 'consumed',
      source: 'load',
      count: inputs.length,
    },
    resolved_aliases: aliases,
  };
}

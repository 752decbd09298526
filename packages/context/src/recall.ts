import { existsSync, statSync } from 'node:fs';
import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { search } from '@maestro/search';
import { type Corpus, type KnowledgeEntry, loadCorpus } from '@maestro/spec';
import { RECALL } from './config.js';
import type { RecallHit } from './select.js';

/** The contested flag shown beside an entry: its conflict note or marker, or its contested confidence. */
export function contestedFlag(e: Pick<KnowledgeEntry, 'conflict' | 'confidence'>): string | null {
  if (e.conflict) return e.conflict.note ?? e.conflict.marker;
  return e.confidence === 'contested' ? 'confidence contested' : null;
}

/**
 * The active entries search finds for a prompt, strongest first, with their text, read from one
 * corpus load shared with the index refresh. Records no exposure (the caller counts only what it
 * finally shows). A project without `.workflow/` has nothing to recall; a `.workflow` that is a
 * file is a warning, so a prompt hook still serves packs.
 */
export async function recallHits(
  layout: WorkflowLayout,
  prompt: string,
  runtime: Runtime,
): Promise<{ hits: RecallHit[]; corpusSize: number; warnings: string[] }> {
  if (!existsSync(layout.workflow)) return { hits: [], corpusSize: 0, warnings: [] };
  if (!statSync(layout.workflow).isDirectory()) {
    return {
      hits: [],
      corpusSize: 0,
      warnings: [`${layout.workflow} is a file, not the .workflow/ directory; no specs served`],
    };
  }
  let corpus: Corpus | null = null;
  const load = (l: WorkflowLayout) => {
    corpus ??= loadCorpus(l);
    return corpus;
  };
  const result = await search(
    layout,
    prompt,
    // Quotes in an agent's prompt are prose, not exact-phrase filters; diversity is applied by the caller.
    { limit: RECALL.candidates, mode: 'relevance', recordExposure: false, phrases: false, loadCorpus: load },
    runtime,
  );
  const byId = result.results.length > 0 ? load(layout).byId : new Map<string, KnowledgeEntry>();
  const hits = result.results.flatMap((hit): RecallHit[] => {
    const e = byId.get(hit.id);
    if (e?.status !== 'active') return [];
    return [
      {
        id: e.id,
        title: e.title,
        category: e.category ?? (e.store === 'knowhow' ? 'knowhow' : null),
        file: e.file,
        score: hit.score,
        text: e.content,
        contested: contestedFlag(e),
      },
    ];
  });
  return { hits, corpusSize: result.index.entries, warnings: result.warnings };
}

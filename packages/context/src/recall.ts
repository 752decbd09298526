import { existsSync, statSync } from 'node:fs';
import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { searchWithBodies } from '@maestro/search/search';
import { RECALL } from './config.js';
import type { RecallHit } from './select.js';

/**
 * The contested flag shown beside an entry. `maestro spec conflict mark` (and maestro-flow) set
 * `confidence="contested"` with the conflict marker, so the confidence the index keeps is enough;
 * the note is one `maestro spec show <id>` away.
 */
export function contestedFlag(e: { confidence: string | null }): string | null {
  return e.confidence === 'contested' ? 'marked contested; see `maestro spec show` for the note' : null;
}

/**
 * The active entries search finds for a prompt, strongest first, with their text, all read from
 * the search projection (no corpus parse: the prompt hook stays fast on a large corpus). Records
 * no exposure (the caller counts only what it shows). A project without `.workflow/` has nothing
 * to recall; a `.workflow` that is a file is a warning, so a prompt hook still serves packs.
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
  const { result, bodies } = await searchWithBodies(
    layout,
    prompt,
    // Quotes in an agent's prompt are prose, not exact-phrase filters; diversity is applied by the caller.
    { limit: RECALL.candidates, mode: 'relevance', recordExposure: false, phrases: false },
    runtime,
  );
  const hits = result.results.flatMap((hit, i): RecallHit[] =>
    hit.status === 'active'
      ? [
          {
            id: hit.id,
            title: hit.title,
            category: hit.category ?? (hit.store === 'knowhow' ? 'knowhow' : null),
            file: hit.file,
            score: hit.score,
            text: bodies[i],
            contested: contestedFlag(hit),
          },
        ]
      : [],
  );
  return { hits, corpusSize: result.index.entries, warnings: result.warnings };
}

import { contentHash } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { reconcile } from './reconcile.js';
import type { CandidateInput, ReconcileOptions, Verdict } from './types.js';

/** Test fixtures for the pure matcher: full corpus entries from a few fields. */

export function entry(id: string, title: string, content: string, over: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  const store = over.store ?? (id.startsWith('knowhow-') ? 'knowhow' : 'spec');
  return {
    id,
    store,
    title,
    content,
    category: null,
    keywords: [],
    description: null,
    date: null,
    status: 'active',
    confidence: null,
    supersedes: [],
    supersededBy: null,
    ref: null,
    source: null,
    file: store === 'knowhow' ? `knowhow/${id}.md` : 'specs/coding-conventions.md',
    line: store === 'knowhow' ? null : 1,
    contentHash: contentHash(content),
    legacy: false,
    hasSid: store === 'spec',
    type: null,
    conflict: null,
    ...over,
  };
}

let n = 0;
export function candidate(content: string, over: Partial<CandidateInput> = {}): CandidateInput {
  n++;
  return { candidate_id: `KDC-${n.toString(16).padStart(16, '0')}`, target: 'spec', title: content, content, ...over };
}

/** The verdict for one candidate text against some entries. */
export function judge(
  content: string,
  corpus: KnowledgeEntry[],
  over: Partial<CandidateInput> = {},
  options: ReconcileOptions = {},
): Verdict {
  return reconcile([candidate(content, over)], corpus, options)[0];
}

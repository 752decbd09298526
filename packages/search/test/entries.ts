import { contentHash } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import type { RankContext } from '../src/model.js';

/**
 * A hand-built corpus entry for ranking tests. Defaults are deliberately bland (no shared words
 * with the queries used in tests) so only what a test sets decides the ranking. Each knowhow
 * entry is its own file; spec entries default to one file per id so family caps stay out of the
 * way unless a test sets `file`.
 */
export function entry(id: string, over: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  const store = over.store ?? (id.startsWith('knowhow-') ? 'knowhow' : 'spec');
  const content = over.content ?? 'lorem ipsum dolor';
  return {
    id,
    store,
    title: 'untitled',
    content,
    category: store === 'spec' ? 'coding' : null,
    keywords: [],
    description: null,
    date: '2026-01-01',
    status: 'active',
    confidence: null,
    supersedes: [],
    supersededBy: null,
    ref: null,
    source: null,
    file: store === 'spec' ? `specs/${id}.md` : `knowhow/${id}.md`,
    line: store === 'spec' ? 1 : null,
    contentHash: contentHash(content),
    legacy: false,
    hasSid: store === 'spec',
    type: store === 'knowhow' ? 'tip' : null,
    conflict: null,
    ...over,
  };
}

export const NOW = new Date('2026-03-01T00:00:00Z');

/** A clock and no exposure counters. */
export const CTX: RankContext = { now: NOW, exposure: null };

import { contentHash } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';

/** A hand-built corpus entry for the pure rules; every field has a boring default. */
export function entry(id: string, over: Partial<KnowledgeEntry> = {}): KnowledgeEntry {
  const store = over.store ?? (id.startsWith('knowhow-') ? 'knowhow' : 'spec');
  const content = over.content ?? `Body of ${id}.`;
  return {
    id,
    store,
    title: `Title of ${id}`,
    content,
    category: store === 'spec' ? 'coding' : null,
    keywords: [],
    description: null,
    date: '2026-02-20',
    status: 'active',
    confidence: null,
    supersedes: [],
    supersededBy: null,
    ref: null,
    source: null,
    file: store === 'spec' ? 'specs/coding-conventions.md' : `knowhow/${id.slice(8).toUpperCase()}.md`,
    line: store === 'spec' ? 10 : null,
    contentHash: contentHash(content),
    legacy: false,
    hasSid: store === 'spec' && id.startsWith('S-'),
    type: store === 'knowhow' ? 'tip' : null,
    conflict: null,
    titleSource: store === 'spec' ? 'attribute' : 'frontmatter',
    ...over,
    ...(over.content !== undefined && over.contentHash === undefined ? { contentHash: contentHash(content) } : {}),
  };
}

export const NOW = new Date('2026-03-01T00:00:00Z');

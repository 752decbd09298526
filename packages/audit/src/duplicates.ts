import { normalizeText } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { cmp } from './finding.js';

/** @maestro/spec lists a reused sid's later copies as `<sid>~2`, `~3`...: still the same id. */
function sameId(a: string, b: string): boolean {
  return a.replace(/~\d+$/, '') === b.replace(/~\d+$/, '');
}

/**
 * Groups of active entries of one store with the same normalised title and content (the one
 * normaliser from @maestro/core; `contentHash` is sha256 of the normalised content). Members and
 * groups are sorted by id, so the first member is the lexicographically smallest. Entries are
 * bucketed by the precomputed content hash first, so titles are normalised only on collisions.
 */
export function exactDuplicateGroups(entries: readonly KnowledgeEntry[]): KnowledgeEntry[][] {
  const byContent = new Map<string, KnowledgeEntry[]>();
  for (const e of entries) {
    if (e.status !== 'active') continue;
    const key = `${e.store}\u0000${e.contentHash}`;
    const bucket = byContent.get(key);
    if (bucket) bucket.push(e);
    else byContent.set(key, [e]);
  }
  const out: KnowledgeEntry[][] = [];
  for (const bucket of byContent.values()) {
    if (bucket.length < 2) continue;
    const byTitle = new Map<string, KnowledgeEntry[]>();
    for (const e of bucket) {
      const t = normalizeText(e.title);
      const g = byTitle.get(t);
      // Two entries with one id are a duplicate-id problem, not a duplicate to deprecate.
      if (!g) byTitle.set(t, [e]);
      else if (!g.some((x) => sameId(x.id, e.id))) g.push(e);
    }
    for (const g of byTitle.values()) if (g.length > 1) out.push(g.sort((a, b) => cmp(a.id, b.id)));
  }
  return out.sort((a, b) => cmp(a[0].id, b[0].id));
}

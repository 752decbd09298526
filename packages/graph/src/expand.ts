import type { WorkflowLayout } from '@maestro/fs';
import type { EdgeKind } from './model.js';
import { adjacent, type KnowledgeGraph } from './query.js';
import { loadGraph } from './show.js';

/** `--expand` caps: neighbours per hit and in all. */
export const EXPAND_LIMITS = { perHit: 3, total: 12 } as const;

export interface ExpandedNeighbour {
  /** Canonical id (what `load` takes). */
  id: string;
  graphId: string;
  title: string;
  status: string | null;
  /** Why it is shown, e.g. `successor (superseded_by)`, `resolved as related (via KDC-…)`. */
  relation: string;
  kind: EdgeKind;
  /** Where the relation is written (relative to `.workflow/`). */
  file: string;
  line: number | null;
}

export interface Expansion {
  /** The hit's canonical id → its one-hop neighbours among entries, most useful first. */
  hits: { id: string; neighbours: ExpandedNeighbour[] }[];
  /** True when a cap dropped neighbours. */
  truncated: boolean;
  warnings: string[];
}

/** Lower is shown first: a successor matters more than a sibling in the same file. */
const RANK: Partial<Record<string, number>> = {
  'out:superseded_by': 0,
  'in:supersedes': 0,
  related: 1,
  supersede: 1,
  duplicate: 2,
  conflict: 2,
  'out:supersedes': 3,
  'in:superseded_by': 3,
  'out:ref': 4,
  'in:ref': 4,
};

function label(kind: EdgeKind, direction: 'out' | 'in', detail: string | null, via: string | null): string {
  if ((kind === 'superseded_by' && direction === 'out') || (kind === 'supersedes' && direction === 'in'))
    return 'successor (superseded_by)';
  if ((kind === 'supersedes' && direction === 'out') || (kind === 'superseded_by' && direction === 'in'))
    return 'predecessor (supersedes)';
  if (kind === 'resolved_as') return `resolved as ${detail}${via ? ` (via ${via.replace(/^candidate:/, '')})` : ''}`;
  if (kind === 'ref') return direction === 'out' ? 'its document (ref)' : 'refers to it (ref)';
  return kind;
}

/**
 * The entries one hop from `id` (through a candidate counts as one hop: a rule promoted from a
 * candidate that a person resolved as related to another rule shows that rule), ranked.
 */
function neighboursOf(g: KnowledgeGraph, id: string): ExpandedNeighbour[] {
  const out = new Map<string, { n: ExpandedNeighbour; rank: number }>();
  const add = (
    node: string,
    kind: EdgeKind,
    direction: 'out' | 'in',
    detail: string | null,
    file: string,
    line: number | null,
    via: string | null,
  ) => {
    const n = g.nodes.get(node);
    if (!n?.entry_id || node === id) return;
    const key = kind === 'resolved_as' ? (detail ?? '') : `${direction}:${kind}`;
    const rank = RANK[key] ?? 5;
    const had = out.get(node);
    if (had && had.rank <= rank) return;
    out.set(node, {
      rank,
      n: {
        id: n.entry_id,
        graphId: n.id,
        title: n.label,
        status: n.status,
        relation: label(kind, direction, detail, via),
        kind,
        file,
        line,
      },
    });
  };
  const opts = { kinds: null, sameFileCap: 0 };
  for (const a of adjacent(g, id, opts)) {
    const node = g.nodes.get(a.node);
    if (node?.kind !== 'candidate') {
      add(a.node, a.via.kind, a.via.direction, a.via.detail, a.via.file, a.via.line, null);
      continue;
    }
    // entry —promoted_from→ candidate —resolved_as→ entry, or the reverse.
    for (const b of adjacent(g, a.node, opts)) {
      if (b.via.kind === 'resolved_as')
        add(b.node, 'resolved_as', b.via.direction, b.via.detail, b.via.file, b.via.line, a.node);
      else if (a.via.kind === 'resolved_as' && b.via.kind === 'promoted_from' && b.via.direction === 'in')
        add(b.node, 'resolved_as', 'in', a.via.detail, a.via.file, a.via.line, a.node);
    }
  }
  return [...out.values()].sort((x, y) => x.rank - y.rank || x.n.id.localeCompare(y.n.id)).map((x) => x.n);
}

/** Pure: the labelled, capped neighbourhood of each hit (hit ids are canonical entry ids). */
export function expandIn(g: KnowledgeGraph, ids: readonly string[]): Omit<Expansion, 'warnings'> {
  let left: number = EXPAND_LIMITS.total;
  let truncated = false;
  const shown = new Set(ids);
  const hits = ids.map((id) => {
    const r = g.resolve(id);
    const all = !('state' in r) ? neighboursOf(g, r.node).filter((n) => !shown.has(n.id)) : [];
    const take = Math.min(all.length, EXPAND_LIMITS.perHit, left);
    if (take < all.length) truncated = true;
    left -= take;
    return { id, neighbours: all.slice(0, take) };
  });
  return { hits, truncated };
}

/** `search --expand` / `context --expand`: opens the graph (best effort) and expands the hits. */
export async function expandHits(
  layout: WorkflowLayout,
  ids: readonly string[],
  o: { readOnly?: boolean } = {},
): Promise<Expansion> {
  const { graph, warnings } = await loadGraph(layout, !o.readOnly);
  return { ...expandIn(graph, ids), warnings };
}

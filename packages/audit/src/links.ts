import { cycleComponents, type KnowledgeEntry } from '@maestro/spec';
import { cmp } from './finding.js';

/** An old entry and the one successor its links name, with which sides of the link are written. */
export interface SupersessionLink {
  target: KnowledgeEntry;
  successor: KnowledgeEntry;
  /** `target.supersededBy === successor.id` */
  forward: boolean;
  /** `successor.supersedes` lists the target. */
  backward: boolean;
}

export interface LinkAnalysis {
  links: SupersessionLink[];
  danglingSupersededBy: { entry: KnowledgeEntry; missing: string }[];
  danglingSupersedes: { entry: KnowledgeEntry; missing: string }[];
  /** Entries whose links name more than one successor. */
  ambiguous: { entry: KnowledgeEntry; successors: string[] }[];
  /** Each cycle's members, sorted; a self-supersession is a cycle of one. */
  cycles: string[][];
  inCycle: Set<string>;
  /** Ids carried by more than one entry (sid collisions): edits by id would be ambiguous. */
  duplicateIds: Map<string, KnowledgeEntry[]>;
  /** old id → successor ids, over existing entries: the supersession graph. */
  edges: Map<string, Set<string>>;
}

function addEdge(edges: Map<string, Set<string>>, from: string, to: string): void {
  const set = edges.get(from);
  if (set) set.add(to);
  else edges.set(from, new Set([to]));
}

/**
 * Reads the supersession graph out of both sides of every link (`superseded-by` on the old
 * entry, `supersedes` on the new one) and classifies it. Pure; linear in entries plus links.
 */
export function analyzeLinks(entries: readonly KnowledgeEntry[]): LinkAnalysis {
  const byId = new Map<string, KnowledgeEntry>();
  const duplicateIds = new Map<string, KnowledgeEntry[]>();
  for (const e of entries) {
    const seen = byId.get(e.id);
    if (seen) duplicateIds.set(e.id, [...(duplicateIds.get(e.id) ?? [seen]), e]);
    else byId.set(e.id, e);
  }
  // @maestro/spec keeps the first copy of a reused sid and lists later ones as `<sid>~2`, `~3`...
  for (const e of entries) {
    const base = /^(.+)~\d+$/.exec(e.id)?.[1];
    if (base === undefined || !byId.has(base)) continue;
    duplicateIds.set(base, [...(duplicateIds.get(base) ?? [byId.get(base)!]), e]);
  }
  const edges = new Map<string, Set<string>>();
  const danglingSupersededBy: LinkAnalysis['danglingSupersededBy'] = [];
  const danglingSupersedes: LinkAnalysis['danglingSupersedes'] = [];
  for (const e of entries) {
    if (e.supersededBy) {
      if (byId.has(e.supersededBy)) addEdge(edges, e.id, e.supersededBy);
      else danglingSupersededBy.push({ entry: e, missing: e.supersededBy });
    }
    for (const old of e.supersedes) {
      if (byId.has(old)) addEdge(edges, old, e.id);
      else danglingSupersedes.push({ entry: e, missing: old });
    }
  }
  const cycles = findCycles(edges);
  const inCycle = new Set(cycles.flat());
  const links: SupersessionLink[] = [];
  const ambiguous: LinkAnalysis['ambiguous'] = [];
  for (const [from, tos] of [...edges].sort((a, b) => cmp(a[0], b[0]))) {
    if (inCycle.has(from)) continue;
    const target = byId.get(from)!;
    if (tos.size > 1) {
      ambiguous.push({ entry: target, successors: [...tos].sort(cmp) });
      continue;
    }
    const successor = byId.get([...tos][0])!;
    links.push({
      target,
      successor,
      forward: target.supersededBy === successor.id,
      backward: successor.supersedes.includes(target.id),
    });
  }
  return { links, danglingSupersededBy, danglingSupersedes, ambiguous, cycles, inCycle, duplicateIds, edges };
}

/** Supersession cycles (sorted members, sorted cycles); the one implementation lives in @maestro/spec. */
export function findCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  return cycleComponents(edges);
}

/** True when `to` can be reached from `from` along `edges` (used to refuse a new link that closes a cycle). */
export function reaches(edges: ReadonlyMap<string, ReadonlySet<string>>, from: string, to: string): boolean {
  const seen = new Set<string>([from]);
  const queue = [from];
  while (queue.length) {
    const n = queue.pop()!;
    if (n === to) return true;
    for (const m of edges.get(n) ?? []) {
      if (!seen.has(m)) {
        seen.add(m);
        queue.push(m);
      }
    }
  }
  return false;
}

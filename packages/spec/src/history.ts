import { cycleComponents } from './cycles.js';
import type { Corpus, KnowledgeEntry, KnowledgeStore } from './model.js';

/**
 * Supersession links as a graph, edges old → new. An edge exists when the old entry says
 * `superseded-by=new` or the new entry lists old in `supersedes`; either side alone is enough
 * (one-sided links written by other tools still show up), and links to missing ids are kept
 * apart as broken.
 */
export interface LinkGraph {
  successors: Map<string, string[]>;
  predecessors: Map<string, string[]>;
}

function add(map: Map<string, string[]>, from: string, to: string) {
  const list = map.get(from);
  if (!list) map.set(from, [to]);
  else if (!list.includes(to)) list.push(to);
}

export function buildLinks(entries: Iterable<KnowledgeEntry>, byId: ReadonlyMap<string, KnowledgeEntry>): LinkGraph {
  const successors = new Map<string, string[]>();
  const predecessors = new Map<string, string[]>();
  for (const e of entries) {
    if (e.supersededBy && byId.has(e.supersededBy)) {
      add(successors, e.id, e.supersededBy);
      add(predecessors, e.supersededBy, e.id);
    }
    for (const old of e.supersedes) {
      if (!byId.has(old)) continue;
      add(successors, old, e.id);
      add(predecessors, e.id, old);
    }
  }
  return { successors, predecessors };
}

export interface HistoryItem {
  id: string;
  title: string;
  file: string;
  line: number | null;
  status: 'active' | 'deprecated';
  /** True for the newest entry of the chain when it is active and superseded by nothing. */
  current: boolean;
  supersedes: string[];
  supersededBy: string | null;
}

export interface BrokenLink {
  from: string;
  to: string;
  attribute: 'supersedes' | 'superseded-by';
}

export interface HistoryResult {
  id: string;
  store: KnowledgeStore;
  /** Oldest first. */
  chain: HistoryItem[];
  broken: BrokenLink[];
  /** True when the walk met an entry twice (a supersession cycle). */
  cyclic: boolean;
}

/**
 * The evolution chain through `id`: back through predecessors to the oldest, then forward
 * through successors (first link where there are several). Cycle-guarded; links to missing ids
 * are reported as broken. Pure.
 */
export function entryHistory(corpus: Corpus, entry: KnowledgeEntry): HistoryResult {
  const byId = corpus.byId;
  const same = corpus.entries.filter((e) => e.store === entry.store);
  const links = buildLinks(same, byId);
  const seen = new Set<string>([entry.id]);
  let cyclic = false;
  const back: string[] = [];
  for (let cur = entry.id; ; ) {
    const prev = (links.predecessors.get(cur) ?? [])[0];
    if (!prev) break;
    if (seen.has(prev)) {
      cyclic = true;
      break;
    }
    seen.add(prev);
    back.push(prev);
    cur = prev;
  }
  const forward: string[] = [];
  for (let cur = entry.id; ; ) {
    const next = (links.successors.get(cur) ?? [])[0];
    if (!next) break;
    if (seen.has(next)) {
      cyclic = true;
      break;
    }
    seen.add(next);
    forward.push(next);
    cur = next;
  }
  const ids = [...back.reverse(), entry.id, ...forward];
  const broken: BrokenLink[] = [];
  const chain = ids.map((id, i): HistoryItem => {
    const e = byId.get(id)!;
    if (e.supersededBy && !byId.has(e.supersededBy))
      broken.push({ from: id, to: e.supersededBy, attribute: 'superseded-by' });
    for (const s of e.supersedes) if (!byId.has(s)) broken.push({ from: id, to: s, attribute: 'supersedes' });
    const last = i === ids.length - 1;
    return {
      id,
      title: e.title,
      file: e.file,
      line: e.line,
      status: e.status,
      current: last && e.status === 'active' && !e.supersededBy && !cyclic,
      supersedes: e.supersedes,
      supersededBy: e.supersededBy,
    };
  });
  return { id: entry.id, store: entry.store, chain, broken, cyclic };
}

/** Ids that sit on a supersession cycle. */
export function cyclicIds(links: LinkGraph): string[] {
  return cycleComponents(links.successors).flat().sort();
}

import { appendAll } from '@maestro/core';
import type { EdgeKind, FileContribution, GraphEdge, GraphNode } from './model.js';

/** Why an edge end did not resolve to exactly one node. */
export type Unresolved =
  | { state: 'dangling' }
  | { state: 'ambiguous'; nodes: string[] }
  | { state: 'drifted'; node: string; reason: string };

export interface ResolvedEdge extends GraphEdge {
  /** Node ids of both ends, or null when that end did not resolve (see `problem`). */
  fromNode: string | null;
  toNode: string | null;
  problem: (Unresolved & { end: 'from' | 'to'; ref: string }) | null;
}

/**
 * The graph assembled from every file's contribution (pure): nodes by id, an alias table, and
 * adjacency. Nodes claimed by several files (a session seen by each of its runs' ledgers, a
 * candidate staged in two runs) are merged; the first file keeps the label.
 */
export class KnowledgeGraph {
  readonly nodes = new Map<string, GraphNode>();
  readonly edges: ResolvedEdge[] = [];
  readonly problems: string[] = [];
  /**
   * Node ids by every name (id, entry id, alias), and by the lower-cased form of names that are
   * not lower case already. One id is stored as a string (the common case at 100k entries: a Set
   * per name cost more memory than the nodes themselves), several as a list without repeats.
   */
  private readonly alias = new Map<string, string | string[]>();
  private readonly lower = new Map<string, string | string[]>();
  private readonly out = new Map<string, ResolvedEdge[]>();
  private readonly in = new Map<string, ResolvedEdge[]>();
  private readonly byFile = new Map<string, string[]>();

  constructor(files: readonly FileContribution[]) {
    for (const f of files) {
      for (const n of f.nodes) this.addNode(n);
      appendAll(this.problems, f.problems);
    }
    for (const f of files) for (const e of f.edges) this.addEdge(e);
  }

  private claim(key: string, id: string): void {
    add(this.alias, key, id);
    const low = key.toLowerCase();
    if (low !== key) add(this.lower, low, id);
  }

  /** The node ids a name stands for: exact first, else case-insensitively. */
  private named(ref: string): string[] {
    const exact = this.alias.get(ref);
    if (exact !== undefined) return typeof exact === 'string' ? [exact] : exact;
    const low = ref.toLowerCase();
    const out = new Set<string>();
    for (const v of [this.alias.get(low), this.lower.get(low)]) {
      if (typeof v === 'string') out.add(v);
      else if (v) for (const x of v) out.add(x);
    }
    return [...out];
  }

  private addNode(n: GraphNode): void {
    const had = this.nodes.get(n.id);
    if (had) {
      had.aliases = [...new Set([...had.aliases, ...n.aliases])];
    } else {
      this.nodes.set(n.id, { ...n });
      if (n.kind === 'spec' || n.kind === 'knowhow') {
        const list = this.byFile.get(n.file) ?? [];
        list.push(n.id);
        this.byFile.set(n.file, list);
      }
    }
    this.claim(n.id, n.id);
    if (n.entry_id) this.claim(n.entry_id, n.id);
    for (const a of n.aliases) this.claim(a, n.id);
  }

  /** Resolves a reference (id, graph id or alias) to a node; `at` judges positional ids. */
  resolve(ref: string, at: string | null = null): { node: string } | Unresolved {
    const exact = this.named(ref.trim());
    if (exact.length === 0) return { state: 'dangling' };
    if (exact.length > 1) return { state: 'ambiguous', nodes: [...exact].sort() };
    const node = exact[0];
    const n = this.nodes.get(node)!;
    const recorded = at?.slice(0, 10);
    if (recorded && /^spec:[a-z]+:.+-\d{3,}$/i.test(ref) && n.aliases.includes(ref) && n.date && n.date > recorded) {
      return {
        state: 'drifted',
        node,
        reason: `recorded ${recorded}, but the entry now at that position is dated ${n.date}`,
      };
    }
    return { node };
  }

  private addEdge(e: GraphEdge): void {
    const from = this.resolve(e.from);
    const to = this.resolve(e.to, e.at);
    // A drifted positional id names a node, but not the one it meant: the edge does not resolve.
    const fromNode = 'state' in from ? null : from.node;
    const toNode = 'state' in to ? null : to.node;
    const problem =
      'state' in from
        ? { ...from, end: 'from' as const, ref: e.from }
        : 'state' in to
          ? { ...to, end: 'to' as const, ref: e.to }
          : null;
    const r: ResolvedEdge = { ...e, fromNode, toNode, problem };
    this.edges.push(r);
    if (fromNode) push(this.out, fromNode, r);
    if (toNode) push(this.in, toNode, r);
  }

  /** Edges leaving and entering a node (resolved ends only). */
  outgoing(id: string): readonly ResolvedEdge[] {
    return this.out.get(id) ?? [];
  }

  incoming(id: string): readonly ResolvedEdge[] {
    return this.in.get(id) ?? [];
  }

  /** Other entries of the same file (the `same_file` relation, derived rather than stored). */
  sameFile(id: string): string[] {
    const n = this.nodes.get(id);
    return n ? (this.byFile.get(n.file) ?? []).filter((x) => x !== id) : [];
  }
}

function add(map: Map<string, string | string[]>, key: string, id: string): void {
  const had = map.get(key);
  if (had === undefined) map.set(key, id);
  else if (typeof had === 'string') {
    if (had !== id) map.set(key, [had, id]);
  } else if (!had.includes(id)) had.push(id);
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One neighbour reached from the start node. */
export interface Neighbour {
  node: string;
  depth: number;
  /** The edge that reached it, oriented as written: `direction` out = from the nearer node. */
  via: {
    kind: EdgeKind;
    direction: 'out' | 'in';
    from: string;
    file: string;
    line: number | null;
    detail: string | null;
  };
}

export interface WalkOptions {
  depth: number;
  kinds: ReadonlySet<EdgeKind> | null;
  /** At most this many neighbours (the walk stops early). */
  limit: number;
  /** same_file neighbours per node at most (they can be many). */
  sameFileCap: number;
}

/** Edges of a node, both directions, plus derived same_file links, in a stable order. */
export function adjacent(
  g: KnowledgeGraph,
  id: string,
  o: Pick<WalkOptions, 'kinds' | 'sameFileCap'>,
): { node: string; via: Neighbour['via'] }[] {
  const out: { node: string; via: Neighbour['via'] }[] = [];
  const want = (k: EdgeKind) => o.kinds === null || o.kinds.has(k);
  for (const e of g.outgoing(id)) {
    if (e.toNode && e.toNode !== id && want(e.kind))
      out.push({
        node: e.toNode,
        via: { kind: e.kind, direction: 'out', from: id, file: e.file, line: e.line, detail: e.detail },
      });
  }
  for (const e of g.incoming(id)) {
    if (e.fromNode && e.fromNode !== id && want(e.kind))
      out.push({
        node: e.fromNode,
        via: { kind: e.kind, direction: 'in', from: id, file: e.file, line: e.line, detail: e.detail },
      });
  }
  if (want('same_file')) {
    const n = g.nodes.get(id);
    for (const other of g.sameFile(id).slice(0, o.sameFileCap)) {
      out.push({
        node: other,
        via: { kind: 'same_file', direction: 'out', from: id, file: n!.file, line: null, detail: null },
      });
    }
  }
  return out;
}

/**
 * Breadth-first neighbourhood up to `depth` hops. Every edge between a frontier node and a node
 * not reached at an earlier depth is listed (two relations to one node are two lines); each node
 * is expanded once, at its nearest depth.
 */
export function walk(g: KnowledgeGraph, start: string, o: WalkOptions): Neighbour[] {
  const depthOf = new Map([[start, 0]]);
  const found: Neighbour[] = [];
  const listed = new Set<string>();
  let frontier = [start];
  for (let depth = 1; depth <= o.depth && frontier.length; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const a of adjacent(g, id, o)) {
        const at = depthOf.get(a.node);
        if (at !== undefined && at < depth) continue;
        const key = `${id}|${a.node}|${a.via.kind}|${a.via.direction}|${a.via.file}|${a.via.line}`;
        if (listed.has(key)) continue;
        listed.add(key);
        if (at === undefined) {
          depthOf.set(a.node, depth);
          next.push(a.node);
        }
        found.push({ node: a.node, depth, via: a.via });
        if (found.length >= o.limit) return found;
      }
    }
    frontier = next;
  }
  return found;
}

/** The shortest path between two nodes (any edge direction), as hops; null when none within `maxDepth`. */
export function shortestPath(
  g: KnowledgeGraph,
  a: string,
  b: string,
  o: Pick<WalkOptions, 'kinds'> & { maxDepth: number },
): Neighbour[] | null {
  if (a === b) return [];
  const parent = new Map<string, Neighbour>();
  const seen = new Set([a]);
  let frontier = [a];
  for (let depth = 1; depth <= o.maxDepth && frontier.length; depth++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const x of adjacent(g, id, { kinds: o.kinds, sameFileCap: Number.POSITIVE_INFINITY })) {
        if (seen.has(x.node)) continue;
        seen.add(x.node);
        parent.set(x.node, { node: x.node, depth, via: x.via });
        if (x.node === b) {
          const hops: Neighbour[] = [];
          for (let at: string = b; at !== a; at = parent.get(at)!.via.from) hops.unshift(parent.get(at)!);
          return hops;
        }
        next.push(x.node);
      }
    }
    frontier = next;
  }
  return null;
}

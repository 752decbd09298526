import { inputError } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { EDGE_KINDS, type EdgeKind, type GraphFileRecord, type GraphNode } from './model.js';
import { type GraphStatus, openGraph } from './open.js';
import { KnowledgeGraph, type Neighbour, shortestPath, walk } from './query.js';

export const SHOW_LIMITS = { maxDepth: 5, neighbours: 200, sameFile: 5, pathDepth: 8 } as const;

export interface NodeView {
  id: string;
  kind: GraphNode['kind'];
  label: string;
  entry_id: string | null;
  status: string | null;
  file: string;
  line: number | null;
  aliases: string[];
}

export interface EdgeView {
  kind: EdgeKind;
  /** out: written on the nearer node's side (it → neighbour); in: the neighbour → it. */
  direction: 'out' | 'in';
  from: string;
  detail: string | null;
  /** Where the relation is written: relative to `.workflow/`, and the 1-based line. */
  file: string;
  line: number | null;
}

export interface GraphSummary {
  status: GraphStatus;
  nodes: number;
  edges: number;
  reextracted: number;
}

export interface GraphShowResult {
  schema_version: 'graph-show/1.0';
  query: string;
  node: NodeView;
  resolved_alias: string | null;
  depth: number;
  edge_kinds: EdgeKind[] | null;
  neighbours: { node: NodeView; depth: number; edge: EdgeView }[];
  truncated: boolean;
  graph: GraphSummary;
  warnings: string[];
}

export interface GraphPathResult {
  schema_version: 'graph-path/1.0';
  from: NodeView;
  to: NodeView;
  found: boolean;
  hops: { node: NodeView; edge: EdgeView }[];
  graph: GraphSummary;
  warnings: string[];
}

export const nodeView = (n: GraphNode): NodeView => ({
  id: n.id,
  kind: n.kind,
  label: n.label,
  entry_id: n.entry_id,
  status: n.status,
  file: n.file,
  line: n.line,
  aliases: n.aliases,
});

const edgeView = (v: Neighbour['via']): EdgeView => ({
  kind: v.kind,
  direction: v.direction,
  from: v.from,
  detail: v.detail,
  file: v.file,
  line: v.line,
});

/**
 * The graph this process last assembled, per project: reused while `openGraph` hands back the very
 * same file records (nothing changed on disk), so a warm `graph show` costs the stats only.
 */
const assembled = new Map<string, { files: readonly GraphFileRecord[]; graph: KnowledgeGraph }>();

function assemble(key: string, files: readonly GraphFileRecord[]): KnowledgeGraph {
  const hit = assembled.get(key);
  if (hit && hit.files.length === files.length && hit.files.every((f, i) => f === files[i])) return hit.graph;
  const graph = new KnowledgeGraph(files);
  assembled.set(key, { files, graph });
  return graph;
}

/** Opens the graph and assembles it (the IO half of every graph command). */
export async function loadGraph(
  layout: WorkflowLayout,
  persist = true,
): Promise<{ graph: KnowledgeGraph; summary: GraphSummary; warnings: string[] }> {
  const opened = await openGraph(layout, { persist });
  const graph = assemble(layout.workflow, opened.files);
  return {
    graph,
    summary: {
      status: opened.status,
      nodes: graph.nodes.size,
      edges: graph.edges.length,
      reextracted: opened.reextracted.length,
    },
    warnings: opened.warnings,
  };
}

/** A node by any id or alias; unknown, ambiguous and drifted references are exit 2 with candidates. */
export function requireNode(g: KnowledgeGraph, ref: string): { node: GraphNode; alias: string | null } {
  const r = g.resolve(ref);
  if (!('state' in r)) {
    const node = g.nodes.get(r.node)!;
    const given = ref.trim();
    // Sessions, runs and candidates are named by their own ids; only knowledge ids have aliases to report.
    const alias =
      !node.entry_id || given === node.id || given === node.entry_id
        ? null
        : `resolved alias ${given} to ${node.entry_id}`;
    return { node, alias };
  }
  if (r.state === 'ambiguous') {
    throw inputError('AMBIGUOUS_KNOWLEDGE_ID', `${ref} is ambiguous: it names ${r.nodes.join(', ')}`, {
      hint: 'pass one of those ids',
      details: { ref, candidates: r.nodes },
    });
  }
  const pos = /^spec:project:(.+)-(\d{3,})$/i.exec(ref.trim());
  const file = pos ? [...g.nodes.values()].filter((n) => n.kind === 'spec' && n.file === `specs/${pos[1]}.md`) : [];
  if (file.length) {
    throw inputError(
      'DRIFTED_KNOWLEDGE_ID',
      `${ref} is a drifted positional id: .workflow/specs/${pos![1]}.md has ${file.length} entries now`,
      {
        hint: `candidates: ${file
          .slice(-3)
          .map((n) => `${n.entry_id} ("${n.label}")`)
          .join(', ')}`,
        details: { ref, candidates: file.slice(-3).map((n) => n.entry_id) },
      },
    );
  }
  throw inputError('UNKNOWN_GRAPH_NODE', `no knowledge, session, run or candidate with id ${ref}`, {
    hint: 'use an id printed by `maestro search`, `maestro spec list`, `maestro session show` or a KDC- candidate id',
  });
}

/** `--edge` values, checked. */
export function parseEdgeKinds(raw: readonly string[]): EdgeKind[] | null {
  const kinds = raw
    .flatMap((r) => r.split(','))
    .map((k) => k.trim())
    .filter(Boolean);
  if (kinds.length === 0) return null;
  const bad = kinds.filter((k) => !(EDGE_KINDS as readonly string[]).includes(k));
  if (bad.length) {
    throw inputError('GRAPH_BAD_OPTION', `unknown edge kind(s): ${bad.join(', ')}`, {
      hint: `edge kinds: ${EDGE_KINDS.join(', ')}`,
    });
  }
  return [...new Set(kinds)] as EdgeKind[];
}

export interface ShowOptions {
  depth?: number;
  edges?: readonly string[];
  readOnly?: boolean;
}

/** `maestro graph show <id>`: the node and its neighbours up to `depth` hops, with where each edge is written. */
export async function graphShow(layout: WorkflowLayout, ref: string, o: ShowOptions = {}): Promise<GraphShowResult> {
  const depth = o.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > SHOW_LIMITS.maxDepth) {
    throw inputError(
      'GRAPH_BAD_OPTION',
      `--depth must be a whole number from 1 to ${SHOW_LIMITS.maxDepth} (got ${o.depth})`,
      { hint: 'for example --depth 2' },
    );
  }
  const kinds = parseEdgeKinds(o.edges ?? []);
  const { graph, summary, warnings } = await loadGraph(layout, !o.readOnly);
  const { node, alias } = requireNode(graph, ref);
  const found = walk(graph, node.id, {
    depth,
    kinds: kinds ? new Set(kinds) : null,
    limit: SHOW_LIMITS.neighbours + 1,
    sameFileCap: SHOW_LIMITS.sameFile,
  });
  const truncated = found.length > SHOW_LIMITS.neighbours;
  return {
    schema_version: 'graph-show/1.0',
    query: ref,
    node: nodeView(node),
    resolved_alias: alias,
    depth,
    edge_kinds: kinds,
    neighbours: found
      .slice(0, SHOW_LIMITS.neighbours)
      .map((n) => ({ node: nodeView(graph.nodes.get(n.node)!), depth: n.depth, edge: edgeView(n.via) })),
    truncated,
    graph: summary,
    warnings: alias ? [...warnings, alias] : warnings,
  };
}

/** `maestro graph path <a> <b>`: the shortest chain of relations between two nodes (any direction). */
export async function graphPath(
  layout: WorkflowLayout,
  a: string,
  b: string,
  o: { edges?: readonly string[]; readOnly?: boolean } = {},
): Promise<GraphPathResult> {
  const kinds = parseEdgeKinds(o.edges ?? []);
  const { graph, summary, warnings } = await loadGraph(layout, !o.readOnly);
  const from = requireNode(graph, a);
  const to = requireNode(graph, b);
  const hops = shortestPath(graph, from.node.id, to.node.id, {
    kinds: kinds ? new Set(kinds) : null,
    maxDepth: SHOW_LIMITS.pathDepth,
  });
  const notes = [from.alias, to.alias].filter((x): x is string => x !== null);
  return {
    schema_version: 'graph-path/1.0',
    from: nodeView(from.node),
    to: nodeView(to.node),
    found: hops !== null,
    hops: (hops ?? []).map((h) => ({ node: nodeView(graph.nodes.get(h.node)!), edge: edgeView(h.via) })),
    graph: summary,
    warnings: [...warnings, ...notes],
  };
}

import type { EdgeKind } from './model.js';
import type { KnowledgeGraph, ResolvedEdge } from './query.js';

/** A finding as @maestro/audit builds it (it adds the stable id); pure data. */
export interface GraphFinding {
  priority: 'P0' | 'P1' | 'P2';
  store: 'spec' | 'knowhow' | 'pipeline';
  subtype: 'broken-chain' | 'contradicted-across-sessions' | 'active-duplicate-cluster';
  target: string;
  evidence: string;
  recommended_action: 'observe' | 'review' | 'deprecate';
  file: string;
  line: number | null;
  related: string[];
  command: string | null;
  key: string[];
}

/** Supersession links are judged by audit's link rules already; the graph adds every other chain. */
const LINK_KINDS = new Set<EdgeKind>(['supersedes', 'superseded_by']);
const USAGE = new Set<EdgeKind>(['consumed', 'cited', 'validated', 'contradicted']);

function brokenChains(g: KnowledgeGraph): GraphFinding[] {
  const out: GraphFinding[] = [];
  for (const e of g.edges) {
    if (!e.problem || LINK_KINDS.has(e.kind)) continue;
    const p = e.problem;
    const why =
      p.state === 'dangling'
        ? `names ${p.ref}, which is not in the project`
        : p.state === 'ambiguous'
          ? `names ${p.ref}, which is ambiguous (${p.nodes.join(', ')})`
          : `names ${p.ref}, a drifted positional id (${p.reason})`;
    out.push({
      priority: USAGE.has(e.kind) ? 'P2' : 'P1',
      store: e.file.startsWith('knowhow/') ? 'knowhow' : e.file.startsWith('specs/') ? 'spec' : 'pipeline',
      subtype: 'broken-chain',
      target: p.end === 'from' ? e.to : e.from,
      evidence: `${e.kind} edge at .workflow/${e.file}${e.line ? `:${e.line}` : ''} ${why}`,
      recommended_action: USAGE.has(e.kind) ? 'observe' : 'review',
      file: `.workflow/${e.file}`,
      line: e.line,
      related: [p.ref],
      command: null,
      key: [e.kind, e.file, String(e.line ?? 0), p.ref],
    });
  }
  return out;
}

function sessionOf(runNode: string): string {
  return runNode.replace(/^run:/, '').split('/')[0];
}

function contradicted(g: KnowledgeGraph): GraphFinding[] {
  const out: GraphFinding[] = [];
  for (const n of g.nodes.values()) {
    if (!n.entry_id || n.status !== 'active') continue;
    const edges = g.incoming(n.id).filter((e) => e.kind === 'contradicted' && e.fromNode?.startsWith('run:'));
    const sessions = [...new Set(edges.map((e) => sessionOf(e.fromNode!)))].sort();
    if (sessions.length < 2) continue;
    out.push({
      priority: 'P1',
      store: n.kind === 'knowhow' ? 'knowhow' : 'spec',
      subtype: 'contradicted-across-sessions',
      target: n.entry_id,
      evidence: `runs of ${sessions.length} sessions recorded it as contradicted: ${sessions.join(', ')}`,
      recommended_action: 'review',
      file: `.workflow/${n.file}`,
      line: n.line,
      related: edges.map((e) => e.fromNode!.replace(/^run:/, '')).sort(),
      command: `maestro graph show ${n.entry_id} --edge contradicted`,
      key: [],
    });
  }
  return out;
}

/** Union-find over entries a person resolved as duplicates of each other (through the candidate). */
function duplicateClusters(g: KnowledgeGraph): GraphFinding[] {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r && parent.has(r)) r = parent.get(r)!;
    return r;
  };
  const join = (a: string, b: string) => {
    for (const x of [a, b]) if (!parent.has(x)) parent.set(x, x);
    parent.set(find(a), find(b));
  };
  const via: ResolvedEdge[] = [];
  for (const e of g.edges) {
    if (e.kind !== 'resolved_as' || e.detail !== 'duplicate' || !e.fromNode || !e.toNode) continue;
    for (const p of g.incoming(e.fromNode)) {
      if (p.kind === 'promoted_from' && p.fromNode && g.nodes.get(p.fromNode)?.entry_id) {
        join(p.fromNode, e.toNode);
        via.push(e);
      }
    }
  }
  const groups = new Map<string, string[]>();
  for (const x of parent.keys()) {
    const list = groups.get(find(x)) ?? [];
    list.push(x);
    groups.set(find(x), list);
  }
  const out: GraphFinding[] = [];
  for (const members of groups.values()) {
    const active = members.map((m) => g.nodes.get(m)!).filter((n) => n.status === 'active');
    if (active.length < 2) continue;
    const ids = active.map((n) => n.entry_id!).sort();
    const first = active.find((n) => n.entry_id === ids[0])!;
    const edge = via.find((e) => members.includes(e.toNode!));
    out.push({
      priority: 'P1',
      store: first.kind === 'knowhow' ? 'knowhow' : 'spec',
      subtype: 'active-duplicate-cluster',
      target: ids[0],
      evidence: `resolved as duplicates of each other but all still active: ${ids.join(', ')}${edge ? ` (resolution at .workflow/${edge.file}:${edge.line ?? 1})` : ''}`,
      recommended_action: 'review',
      file: `.workflow/${first.file}`,
      line: first.line,
      related: ids.slice(1),
      command: `maestro ${first.kind === 'knowhow' ? 'knowhow' : 'spec'} supersede ${ids[1]} --by ${ids[0]}`,
      key: ids,
    });
  }
  return out;
}

/** Findings only the graph can see: broken chains, entries contradicted across sessions, active duplicate clusters. */
export function graphFindings(g: KnowledgeGraph): GraphFinding[] {
  return [...brokenChains(g), ...contradicted(g), ...duplicateClusters(g)];
}

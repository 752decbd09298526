import type { GraphRecord, LoadedGraph } from './graph-load.js';
import { claimStanding, type GraphUnit, renderUnit } from './graph-render.js';
import { literalTerms, matchedTerms, matchScore, termIndex } from './tokens.js';

/**
 * Task-relevant subgraphs of a pack's ontology and answer layers (standard v0.7–0.7.2): never the
 * whole graph. Seeds are the records the request matches (concepts and questions first); around
 * each seed a bounded neighbourhood is collected by kind (concept → claims, evidence, constraints,
 * coverage, relations; question → answer blocks → claims, citation targets, latest monitoring
 * run). Claims are labelled by evidence and review state: only verified (or weak) and reviewed
 * claims read as facts, forbidden ones are listed as constraints, the rest carry a warning.
 * Action types are declarative data; signals and action logs are never evidence. Pure.
 */

interface Expand {
  out: readonly string[];
  in: readonly string[];
}

/** Which neighbours a record of each kind pulls in: ids it mentions (out), records mentioning it (in). */
const EXPAND: Record<string, Expand> = {
  concept: { out: ['constraint'], in: ['claim', 'constraint', 'coverage', 'relation', 'decision-gate'] },
  question: { out: ['answer-block', 'concept', 'constraint'], in: ['monitoring-run', 'constraint'] },
  'answer-block': { out: ['claim', 'citation-target', 'constraint'], in: ['constraint'] },
  claim: { out: ['evidence', 'constraint', 'citation-target'], in: ['evidence', 'constraint', 'decision-gate'] },
  'action-type': { out: ['constraint', 'decision-gate'], in: [] },
};
const DEFAULT_EXPAND: Expand = { out: ['constraint'], in: ['constraint'] };

/** Kinds that can start a subgraph; the first group is preferred. */
const PRIMARY_SEEDS = new Set(['concept', 'question', 'record']);
const MAX_SEEDS = 3;
const MAX_NODES = 24;
const PER_KIND: Record<string, number> = { claim: 8, evidence: 6, relation: 6, coverage: 4, 'monitoring-run': 1 };

export function buildGraphUnits(graph: LoadedGraph, queryTerms: readonly string[]): GraphUnit[] {
  if (graph.records.length === 0 || literalTerms(queryTerms).length === 0) return [];
  const byId = new Map<string, GraphRecord>();
  for (const r of graph.records) if (!byId.has(r.id)) byId.set(r.id, r);
  const incoming = new Map<string, GraphRecord[]>();
  for (const r of graph.records) {
    for (const id of r.mentions) {
      if (!byId.has(id)) continue;
      const list = incoming.get(id) ?? [];
      list.push(r);
      incoming.set(id, list);
    }
  }
  const used = new Set<string>();
  const units: GraphUnit[] = [];
  const terms = queryTerms.filter((t) => !LAYER_WORDS.has(t));
  for (const seed of seeds(graph.records, literalTerms(terms).length > 0 ? terms : queryTerms, byId, incoming)) {
    if (used.has(seed.record.id)) continue;
    const near = neighbourhood(seed.record, byId, incoming);
    const nodes = [...near, ...boundariesOf(near, byId, incoming)].filter((n) => !used.has(n.id));
    for (const n of nodes) used.add(n.id);
    units.push(renderUnit(seed.record, seed.score, nodes, graph));
  }
  return units;
}

function searchText(r: GraphRecord): string {
  const parts: string[] = [r.id.replace(/[-_]/g, ' ')];
  for (const v of Object.values(r.data)) {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') parts.push(x);
  }
  return parts.join(' ');
}

/** Words that name the layer rather than its content ("which claims are approved?"): not used to seed. */
const LAYER_WORDS = new Set(['claim', 'concept', 'evidence', 'constraint', 'question', 'answer', 'ontology', 'record']);

function seeds(
  records: readonly GraphRecord[],
  queryTerms: readonly string[],
  byId: ReadonlyMap<string, GraphRecord>,
  incoming: ReadonlyMap<string, GraphRecord[]>,
) {
  const scored = records
    .map((record) => {
      const index = termIndex(searchText(record));
      return { record, score: matchScore(queryTerms, index), hits: matchedTerms(queryTerms, index).length };
    })
    .filter((s) => s.score >= 0.25 || s.hits >= 2)
    .map((s) => ({ ...s, record: entryPoint(s.record, byId, incoming) }));
  // Concepts and questions are the natural entry points; other kinds seed only on a clearly better match.
  const rankOf = (s: (typeof scored)[number]) => s.score + (PRIMARY_SEEDS.has(s.record.kind) ? 0.2 : 0);
  scored.sort((a, b) => rankOf(b) - rankOf(a) || (a.record.id < b.record.id ? -1 : 1));
  const best = scored[0] ? rankOf(scored[0]) : 0;
  const seen = new Set<string>();
  return scored
    .filter((s) => rankOf(s) >= best * 0.5 && !seen.has(s.record.id) && seen.add(s.record.id))
    .slice(0, MAX_SEEDS);
}

/**
 * A matching claim, answer block, evidence or constraint is lifted to the concept or question it
 * belongs to, so the subgraph is built around that entry point and includes the match.
 */
function entryPoint(
  r: GraphRecord,
  byId: ReadonlyMap<string, GraphRecord>,
  incoming: ReadonlyMap<string, GraphRecord[]>,
): GraphRecord {
  if (PRIMARY_SEEDS.has(r.kind)) return r;
  const out = r.mentions.map((id) => byId.get(id)).find((x) => x && (x.kind === 'concept' || x.kind === 'question'));
  if (out) return out;
  const into = incoming.get(r.id) ?? [];
  const direct = into.find((x) => x.kind === 'question' || x.kind === 'concept');
  if (direct) return direct;
  // Evidence and citation targets hang off a claim or answer block: two steps up.
  const near = [...r.mentions.map((id) => byId.get(id)).filter((x): x is GraphRecord => !!x), ...into];
  for (const mid of near.filter((x) => x.kind === 'claim' || x.kind === 'answer-block')) {
    const up = entryPoint(mid, byId, new Map());
    if (up !== mid) return up;
  }
  return r;
}

/** Breadth-first over the kind rules, bounded in depth, node count and per-kind count. */
function neighbourhood(
  seed: GraphRecord,
  byId: ReadonlyMap<string, GraphRecord>,
  incoming: ReadonlyMap<string, GraphRecord[]>,
): GraphRecord[] {
  const out: GraphRecord[] = [seed];
  const seen = new Set([seed.id]);
  const count = new Map<string, number>();
  let frontier = [seed];
  for (let depth = 0; depth < 3 && frontier.length > 0; depth++) {
    const next: GraphRecord[] = [];
    for (const node of frontier) {
      const rule = EXPAND[node.kind] ?? DEFAULT_EXPAND;
      const outs = node.mentions
        .map((id) => byId.get(id))
        .filter((r): r is GraphRecord => !!r && rule.out.includes(r.kind));
      const ins = (incoming.get(node.id) ?? []).filter((r) => rule.in.includes(r.kind));
      for (const r of [...outs, ...latestFirst(ins)]) {
        if (seen.has(r.id) || out.length >= MAX_NODES) continue;
        const n = count.get(r.kind) ?? 0;
        if (n >= (PER_KIND[r.kind] ?? MAX_NODES)) continue;
        seen.add(r.id);
        count.set(r.kind, n + 1);
        out.push(r);
        next.push(r);
      }
    }
    frontier = next;
  }
  return out;
}

/** Boundaries of one subgraph at most (beyond the per-kind caps, which must never cut them). */
const MAX_BOUNDARIES = 12;

/**
 * The boundaries of the claims a subgraph states: constraints that name one of its claims or
 * answer blocks (or the concept it is about), and forbidden claims that name one of them or the
 * same concept. A claim is never shown without the forbidden wording that limits it, however
 * many other claims the concept has. Records already in the subgraph are not repeated.
 */
function boundariesOf(
  nodes: readonly GraphRecord[],
  byId: ReadonlyMap<string, GraphRecord>,
  incoming: ReadonlyMap<string, GraphRecord[]>,
): GraphRecord[] {
  const have = new Set(nodes.map((n) => n.id));
  const anchors = new Set<string>();
  for (const n of nodes) {
    if (n.kind === 'concept' || n.kind === 'question') anchors.add(n.id);
    if (n.kind !== 'claim' && n.kind !== 'answer-block') continue;
    anchors.add(n.id);
    for (const id of n.mentions) if (byId.get(id)?.kind === 'concept') anchors.add(id);
  }
  const out: GraphRecord[] = [];
  const take = (r: GraphRecord | undefined) => {
    if (!r || have.has(r.id) || out.length >= MAX_BOUNDARIES) return;
    if (r.kind !== 'constraint' && !(r.kind === 'claim' && claimStanding(r.data).standing === 'forbidden')) return;
    have.add(r.id);
    out.push(r);
  };
  for (const a of anchors) {
    for (const id of byId.get(a)?.mentions ?? []) take(byId.get(id));
    for (const r of incoming.get(a) ?? []) take(r);
  }
  return out;
}

/** Monitoring runs newest first (only the latest is kept), everything else as written. */
function latestFirst(records: GraphRecord[]): GraphRecord[] {
  const when = (r: GraphRecord) => String(r.data.observedAt ?? r.data.observed_at ?? r.data.date ?? '');
  return [...records].sort((a, b) =>
    a.kind === 'monitoring-run' && b.kind === 'monitoring-run' ? (when(a) < when(b) ? 1 : -1) : 0,
  );
}

import { derivedId, hashJson, type Issue } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { exactDuplicateGroups } from './duplicates.js';
import { cmp, projectPath } from './finding.js';
import { analyzeLinks, type LinkAnalysis, reaches } from './links.js';
import type { AuditScope, PendingTarget, PruneAction, PrunePlan, PruneReason } from './schemas.js';

/** What the planner reads: the corpus entries and its parse issues (knowhow with broken frontmatter is never edited). */
export interface PlanInput {
  entries: readonly KnowledgeEntry[];
  issues?: readonly Issue[];
}

export function inScope(scope: AuditScope, store: string): boolean {
  return scope === 'all' || scope === store;
}

/** The finding id a plan action points at; the same derivation as `finding()`. */
export function findingIdFor(subtype: string, store: string, target: string): string {
  return derivedId('KAU-', [subtype, store, target]);
}

/** `.workflow/`-relative files whose frontmatter could not be parsed (error-level knowhow issues). */
export function brokenKnowhowFiles(issues: readonly Issue[]): Set<string> {
  const out = new Set<string>();
  for (const i of issues) {
    if (i.severity !== 'error') continue;
    const f = i.file.replace(/^\.\//, '').replace(/^\.workflow\//, '');
    if (f.startsWith('knowhow/')) out.add(f);
  }
  return out;
}

/**
 * Why an entry cannot take part in an automatic action, or null when it can. Spec edits need a
 * real sid (a derived id would dangle after `spec backfill-sid`) and a tag to carry attributes;
 * knowhow edits need readable frontmatter; nobody in a cycle or sharing an id is touched.
 */
export function notEditable(e: KnowledgeEntry, links: LinkAnalysis, broken: ReadonlySet<string>): string | null {
  if (e.store === 'spec' && e.legacy) return `${e.id} is a legacy ### entry without attributes`;
  if (e.store === 'spec' && !e.hasSid) return `${e.id} has no sid yet (run \`maestro spec backfill-sid\`)`;
  if (e.store === 'knowhow' && broken.has(e.file)) return `${e.file} has invalid frontmatter`;
  if (links.inCycle.has(e.id)) return `${e.id} is in a supersession cycle`;
  if (links.duplicateIds.has(e.id.replace(/~\d+$/, ''))) return `${e.id} is carried by more than one entry`;
  return null;
}

function action(target: KnowledgeEntry, successor: KnowledgeEntry, reason: PruneReason): PruneAction {
  const subtype = reason === 'exact-duplicate' ? 'exact-duplicate' : reason;
  return {
    id: derivedId('KPA-', [target.store, target.id, successor.id, reason]),
    store: target.store,
    action: target.store === 'spec' ? 'deprecate' : 'supersede',
    target_id: target.id,
    target_file: projectPath(target.file),
    successor_id: successor.id,
    successor_store: successor.store,
    successor_file: projectPath(successor.file),
    reason,
    finding_id: findingIdFor(subtype, target.store, target.id),
    pending_targets: [],
  };
}

/**
 * The deterministic soft-prune plan: pure, and the same corpus (in any order) gives a
 * byte-identical plan. Every action deprecates its target toward an existing successor and
 * writes BOTH sides of the link; nothing is ever deleted. Rules, in order:
 * 1. an active entry whose links name one existing successor → deprecate (unsynchronized-supersession);
 * 2. a deprecated entry whose link is written on one side only → complete it (one-sided-link);
 * 3. exact duplicates (same normalised title and content, one store, all active) → every member
 *    but the canonical one (smallest id that supersedes nothing yet is not superseded) is
 *    deprecated toward it, skipping targets already planned and any link that would close a cycle.
 * Usage, staleness and contested confidence never produce actions.
 */
export function planPrune(
  input: PlanInput,
  scope: AuditScope = 'all',
  links = analyzeLinks(input.entries),
  duplicates = exactDuplicateGroups(input.entries),
): PrunePlan {
  const broken = brokenKnowhowFiles(input.issues ?? []);
  const usable = (e: KnowledgeEntry) => inScope(scope, e.store) && notEditable(e, links, broken) === null;
  const planned = new Map<string, PruneAction>();
  for (const link of links.links) {
    const { target, successor } = link;
    const reason: PruneReason | null =
      target.status === 'active'
        ? 'unsynchronized-supersession'
        : !(link.forward && link.backward)
          ? 'one-sided-link'
          : null;
    if (reason && usable(target) && usable(successor)) planned.set(target.id, action(target, successor, reason));
  }
  const edges = new Map([...links.edges].map(([k, v]) => [k, new Set(v)]));
  for (const group of duplicates) {
    const canonical = group.find((e) => usable(e) && !planned.has(e.id) && !edges.has(e.id));
    if (!canonical) continue;
    for (const e of group) {
      if (e === canonical || e.id === canonical.id || planned.has(e.id) || !usable(e) || edges.has(e.id)) continue;
      if (reaches(edges, canonical.id, e.id)) continue;
      planned.set(e.id, action(e, canonical, 'exact-duplicate'));
      edges.set(e.id, new Set([canonical.id]));
    }
  }
  const actions = [...planned.values()].sort((a, b) => cmp(a.target_id, b.target_id) || cmp(a.id, b.id));
  return { schema_version: 'maestro-prune-plan/1.0', plan_id: planId(scope, actions), scope, actions };
}

/** sha256 of scope + actions without the pending flags, so receipts never change a plan's id. */
export function planId(scope: AuditScope, actions: readonly PruneAction[]): string {
  return hashJson({ scope, actions: actions.map(({ pending_targets: _, ...rest }) => rest) });
}

/**
 * Flags every action whose target is the match target of a pending candidate with a fresh
 * receipt (the audit-vs-promotion race maestro-flow leaves open). Pure; keeps the plan id.
 */
export function flagPendingTargets(
  plan: PrunePlan,
  pending: readonly (PendingTarget & { knowledge_id: string })[],
): PrunePlan {
  const byTarget = new Map<string, PendingTarget[]>();
  for (const p of pending) {
    const list = byTarget.get(p.knowledge_id) ?? [];
    if (
      !list.some((q) => q.candidate_id === p.candidate_id && q.session_id === p.session_id && q.run_id === p.run_id)
    ) {
      list.push({ candidate_id: p.candidate_id, session_id: p.session_id, run_id: p.run_id });
    }
    byTarget.set(p.knowledge_id, list);
  }
  const actions = plan.actions.map((a) => ({
    ...a,
    pending_targets: (byTarget.get(a.target_id) ?? [])
      .slice()
      .sort(
        (x, y) => cmp(x.session_id, y.session_id) || cmp(x.run_id, y.run_id) || cmp(x.candidate_id, y.candidate_id),
      ),
  }));
  return { ...plan, actions };
}

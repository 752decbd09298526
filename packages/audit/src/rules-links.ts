import { appendAll } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { finding, projectPath } from './finding.js';
import type { LinkAnalysis, SupersessionLink } from './links.js';
import type { Finding, PrunePlan } from './schemas.js';

const where = (e: KnowledgeEntry) => ({ file: projectPath(e.file), line: e.line });
const APPLY = 'maestro knowledge audit --prune --apply';

/**
 * Findings about supersession links and duplicates. `plan` says which of them the prune plan
 * handles (recommended action `deprecate`); the rest need a person (`review`), with the reason
 * the planner could not act given by `blocked`.
 */
export function linkFindings(
  entries: readonly KnowledgeEntry[],
  links: LinkAnalysis,
  duplicates: readonly KnowledgeEntry[][],
  plan: PrunePlan,
  blocked: (e: KnowledgeEntry) => string | null,
  inScope: (store: string) => boolean,
): Finding[] {
  const planned = new Map(plan.actions.map((a) => [a.target_id, a]));
  const out: Finding[] = [];
  for (const link of links.links) {
    if (!inScope(link.target.store)) continue;
    const f = supersessionFinding(link, planned.has(link.target.id), blocked);
    if (f) out.push(f);
  }
  appendAll(out, danglingFindings(links, inScope));
  appendAll(out, cycleFindings(entries, links, inScope));
  appendAll(out, duplicateIdFindings(links, inScope));
  appendAll(out, duplicateFindings(duplicates, planned, blocked, inScope));
  return out;
}

/** `unsynchronized-supersession` for an active target, `one-sided-link` for a half-written one. */
function supersessionFinding(
  { target, successor, forward, backward }: SupersessionLink,
  planned: boolean,
  blocked: (e: KnowledgeEntry) => string | null,
): Finding | null {
  const reasons = [blocked(target), blocked(successor)].filter((r): r is string => r !== null);
  const why = planned ? '' : reasons.map((r) => `; not planned: ${r}`).join('');
  const common = {
    priority: 'P1' as const,
    store: target.store,
    target: target.id,
    ...where(target),
    related: [successor.id],
    recommended_action: planned ? ('deprecate' as const) : ('review' as const),
    command: planned ? APPLY : null,
  };
  if (target.status === 'active') {
    const side = forward ? `its superseded-by names ${successor.id}` : `${successor.id} lists it in supersedes`;
    return finding({
      ...common,
      subtype: 'unsynchronized-supersession',
      evidence: `${target.id} is still active although ${side}${why}`,
    });
  }
  if (forward && backward) return null;
  const missing = forward
    ? `${successor.id} does not list ${target.id} in supersedes`
    : `${target.id} has no superseded-by="${successor.id}"`;
  return finding({
    ...common,
    subtype: 'one-sided-link',
    evidence: `the supersession ${target.id} → ${successor.id} is written on one side only: ${missing}${why}`,
  });
}

function danglingFindings(links: LinkAnalysis, inScope: (store: string) => boolean): Finding[] {
  const out: Finding[] = [];
  const sides = [
    [
      'dangling-superseded-by',
      links.danglingSupersededBy,
      (id: string, m: string) => `${id} has superseded-by="${m}", but no entry ${m} exists`,
    ],
    [
      'dangling-supersedes',
      links.danglingSupersedes,
      (id: string, m: string) => `${id} supersedes ${m}, but no entry ${m} exists`,
    ],
  ] as const;
  for (const [subtype, list, say] of sides) {
    for (const { entry, missing } of list) {
      if (!inScope(entry.store)) continue;
      out.push(
        finding({
          priority: 'P0',
          store: entry.store,
          subtype,
          target: entry.id,
          ...where(entry),
          evidence: say(entry.id, missing),
          related: [missing],
          recommended_action: 'review',
          // Preview with --dry-run; the repair removes only links that name no entry.
          command: 'maestro spec link repair',
          key: [missing],
        }),
      );
    }
  }
  return out;
}

function cycleFindings(
  entries: readonly KnowledgeEntry[],
  links: LinkAnalysis,
  inScope: (store: string) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const { entry, successors } of links.ambiguous) {
    if (!inScope(entry.store)) continue;
    out.push(
      finding({
        priority: 'P0',
        store: entry.store,
        subtype: 'ambiguous-supersession',
        target: entry.id,
        ...where(entry),
        evidence: `${entry.id} is claimed as superseded by ${successors.length} entries: ${successors.join(', ')}`,
        related: successors,
        recommended_action: 'review',
      }),
    );
  }
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const cycle of links.cycles) {
    const first = byId.get(cycle[0])!;
    if (!cycle.some((id) => inScope(byId.get(id)!.store))) continue;
    out.push(
      finding({
        priority: 'P0',
        store: first.store,
        subtype: 'supersession-cycle',
        target: first.id,
        ...where(first),
        evidence:
          cycle.length === 1
            ? `${first.id} supersedes itself`
            : `supersession cycle through ${cycle.join(' → ')}; none of them is current`,
        related: cycle.slice(1),
        recommended_action: 'review',
      }),
    );
  }
  return out;
}

/** Two entries with one id: edits by id would be ambiguous, so a person must fix it first. */
function duplicateIdFindings(links: LinkAnalysis, inScope: (store: string) => boolean): Finding[] {
  const out: Finding[] = [];
  for (const [id, same] of [...links.duplicateIds].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (!inScope(same[0].store)) continue;
    out.push(
      finding({
        priority: 'P0',
        store: same[0].store,
        subtype: 'duplicate-id',
        target: id,
        ...where(same[0]),
        evidence: `${same.length} entries carry the id ${id}: ${same.map((e) => `${e.file}:${e.line ?? 1}`).join(', ')}`,
        recommended_action: 'fix',
      }),
    );
  }
  return out;
}

function duplicateFindings(
  groups: readonly KnowledgeEntry[][],
  planned: ReadonlyMap<string, PrunePlan['actions'][number]>,
  blocked: (e: KnowledgeEntry) => string | null,
  inScope: (store: string) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const group of groups) {
    if (!inScope(group[0].store)) continue;
    const canonicalId = group.map((e) => planned.get(e.id)).find((a) => a?.reason === 'exact-duplicate')?.successor_id;
    const canonical = group.find((e) => e.id === canonicalId) ?? group[0];
    for (const e of group) {
      if (e === canonical) continue;
      const act = planned.get(e.id);
      const note = !act
        ? `; not planned: ${blocked(e) ?? blocked(canonical) ?? 'it already has a supersession link to settle first'}`
        : act.reason !== 'exact-duplicate'
          ? `; planned as ${act.reason} toward ${act.successor_id}`
          : '';
      out.push(
        finding({
          priority: 'P1',
          store: e.store,
          subtype: 'exact-duplicate',
          target: e.id,
          ...where(e),
          evidence: `same normalised title and content as ${canonical.id} (${canonical.file})${note}`,
          related: [canonical.id],
          recommended_action: act ? 'deprecate' : 'review',
          command: act ? APPLY : null,
        }),
      );
    }
  }
  return out;
}

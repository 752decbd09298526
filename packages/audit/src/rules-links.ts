import type { KnowledgeEntry } from '@maestro/spec';
import { finding, projectPath } from './finding.js';
import type { LinkAnalysis } from './links.js';
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
  const why = (...es: KnowledgeEntry[]) =>
    es
      .map(blocked)
      .filter((r): r is string => r !== null)
      .map((r) => `; not planned: ${r}`)
      .join('');
  for (const { target, successor, forward, backward } of links.links) {
    if (!inScope(target.store)) continue;
    const act = planned.get(target.id);
    if (target.status === 'active') {
      const side = forward ? `its superseded-by names ${successor.id}` : `${successor.id} lists it in supersedes`;
      out.push(
        finding({
          priority: 'P1',
          store: target.store,
          subtype: 'unsynchronized-supersession',
          target: target.id,
          ...where(target),
          evidence: `${target.id} is still active although ${side}${act ? '' : why(target, successor)}`,
          related: [successor.id],
          recommended_action: act ? 'deprecate' : 'review',
          command: act ? APPLY : null,
        }),
      );
    } else if (!(forward && backward)) {
      const missing = forward
        ? `${successor.id} does not list ${target.id} in supersedes`
        : `${target.id} has no superseded-by="${successor.id}"`;
      out.push(
        finding({
          priority: 'P1',
          store: target.store,
          subtype: 'one-sided-link',
          target: target.id,
          ...where(target),
          evidence: `the supersession ${target.id} → ${successor.id} is written on one side only: ${missing}${act ? '' : why(target, successor)}`,
          related: [successor.id],
          recommended_action: act ? 'deprecate' : 'review',
          command: act ? APPLY : null,
        }),
      );
    }
  }
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
  out.push(...danglingAndCycleFindings(entries, links, inScope));
  out.push(...duplicateFindings(duplicates, planned, blocked, inScope));
  return out;
}

function danglingAndCycleFindings(
  entries: readonly KnowledgeEntry[],
  links: LinkAnalysis,
  inScope: (store: string) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const { entry, missing } of links.danglingSupersededBy) {
    if (!inScope(entry.store)) continue;
    out.push(
      finding({
        priority: 'P0',
        store: entry.store,
        subtype: 'dangling-superseded-by',
        target: entry.id,
        ...where(entry),
        evidence: `${entry.id} has superseded-by="${missing}", but no entry ${missing} exists`,
        related: [missing],
        recommended_action: 'review',
        key: [missing],
      }),
    );
  }
  for (const { entry, missing } of links.danglingSupersedes) {
    if (!inScope(entry.store)) continue;
    out.push(
      finding({
        priority: 'P0',
        store: entry.store,
        subtype: 'dangling-supersedes',
        target: entry.id,
        ...where(entry),
        evidence: `${entry.id} supersedes ${missing}, but no entry ${missing} exists`,
        related: [missing],
        recommended_action: 'review',
        key: [missing],
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

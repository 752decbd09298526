import type { Disposition, Relation } from '../matcher/types.js';
import type { Choice } from '../schemas.js';

const BY_DISPOSITION: Record<Disposition, readonly Choice[]> = {
  semantic_duplicate: ['duplicate', 'related', 'unique'],
  potential_conflict: ['conflict', 'related', 'unique'],
  supersede_candidate: ['supersede', 'related', 'unique'],
  extends: ['related', 'supersede', 'unique'],
  related: ['related', 'supersede', 'unique'],
  exact_duplicate: ['unique'],
  unique: ['unique'],
};

const BY_RELATION: Record<Relation, Choice> = {
  exact_duplicate: 'duplicate',
  semantic_duplicate: 'duplicate',
  extends: 'related',
  related: 'related',
  potential_conflict: 'conflict',
  supersede_candidate: 'supersede',
};

/**
 * The resolutions a reviewer is offered for a verdict: those of its disposition, then every
 * relation some match's evidence supports (a candidate listed as a duplicate of one entry and in
 * conflict with another can be resolved either way), `unique` last. One source for every surface.
 */
export function offeredChoices(v: {
  disposition: Disposition;
  canonical_id: string | null;
  matches: readonly { knowledge_id: string; relation: Relation }[];
}): OfferedChoice[] {
  const out: OfferedChoice[] = BY_DISPOSITION[v.disposition]
    .filter((c) => c !== 'unique')
    .map((choice) => ({ choice, target: v.canonical_id }));
  for (const m of v.matches) {
    const choice = BY_RELATION[m.relation];
    if (!out.some((o) => o.choice === choice)) out.push({ choice, target: m.knowledge_id });
  }
  out.push({ choice: 'unique', target: null });
  return out;
}

/** One offered resolution and the entry it is about (null for `unique`). */
export interface OfferedChoice {
  choice: Choice;
  target: string | null;
}

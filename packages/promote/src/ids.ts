import { knowhowIdFor } from '@maestro/spec';

/**
 * Planned ids are a pure function of the candidate, so a rerun after a crash and two racing
 * promoters always aim at the same entry. The date is the candidate's `first_recorded_at` date
 * (its first 10 characters, as maestro-flow does); the suffix is the candidate id's 16 hex.
 */
export interface PlannedIds {
  /** `S-YYYYMMDD-<16hex>`: the spec entry's sid. */
  sid: string;
  /** `tip-YYYYMMDD-<16hex>` and its file `knowhow/TIP-YYYYMMDD-<16hex>.md`. */
  tipExplicitId: string;
  tipFile: string;
  /** `knowhow-tip-yyyymmdd-<16hex>`: the knowhow entry's id (the corpus identity). */
  tipId: string;
  /** `doc-YYYYMMDD-<16hex>` / `knowhow/DOC-YYYYMMDD-<16hex>.md` for spec content over 2048 characters. */
  docExplicitId: string;
  docFile: string;
}

export function plannedIds(candidate: { candidate_id: string; first_recorded_at: string }): PlannedIds {
  const date = candidate.first_recorded_at.slice(0, 10).replace(/-/g, '');
  const hex = candidate.candidate_id.replace(/^KDC-/, '');
  const tipFile = `knowhow/TIP-${date}-${hex}.md`;
  return {
    sid: `S-${date}-${hex}`,
    tipExplicitId: `tip-${date}-${hex}`,
    tipFile,
    tipId: knowhowIdFor(tipFile.slice('knowhow/'.length)),
    docExplicitId: `doc-${date}-${hex}`,
    docFile: `knowhow/DOC-${date}-${hex}.md`,
  };
}

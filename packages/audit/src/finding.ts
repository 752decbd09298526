import { derivedId, normalizeText } from '@maestro/core';
import type { Finding, FindingStore, Priority, RecommendedAction } from './schemas.js';

/** Evidence is capped like maestro-flow's (500 characters), so one damaged file cannot flood a report. */
export const EVIDENCE_MAX = 500;

export interface FindingInput {
  priority: Priority;
  store: FindingStore;
  subtype: string;
  target: string;
  evidence: string;
  recommended_action: RecommendedAction;
  file?: string | null;
  line?: number | null;
  related?: readonly string[];
  command?: string | null;
  /** Extra identity parts when one target can have several findings of a subtype (e.g. a code path). */
  key?: readonly string[];
}

/**
 * Builds a finding with its stable id: `KAU-` + 10 hex of sha256(subtype, store, target, key...).
 * The id does not depend on evidence wording, counts or order, so it survives re-runs.
 */
export function finding(input: FindingInput): Finding {
  const evidence =
    input.evidence.length > EVIDENCE_MAX ? `${input.evidence.slice(0, EVIDENCE_MAX - 1)}…` : input.evidence;
  return {
    id: derivedId('KAU-', [input.subtype, input.store, input.target, ...(input.key ?? [])]),
    priority: input.priority,
    store: input.store,
    subtype: input.subtype,
    target: input.target,
    file: input.file ?? null,
    line: input.line ?? null,
    evidence,
    related: [...(input.related ?? [])],
    recommended_action: input.recommended_action,
    command: input.command ?? null,
  };
}

const STORE_ORDER: Record<FindingStore, number> = { spec: 0, knowhow: 1, pipeline: 2, usage: 3 };

/**
 * maestro-flow's order: priority, then store, then normalised target, then id; findings on the same
 * target (several problems in one file) are in line order, so a reader can walk the file top down.
 */
export function sortFindings(findings: Finding[]): Finding[] {
  const keyed = findings.map((f) => ({ f, t: normalizeText(f.target) }));
  keyed.sort(
    (a, b) =>
      cmp(a.f.priority, b.f.priority) ||
      STORE_ORDER[a.f.store] - STORE_ORDER[b.f.store] ||
      cmp(a.t, b.t) ||
      (a.f.line ?? 0) - (b.f.line ?? 0) ||
      cmp(a.f.id, b.f.id),
  );
  return keyed.map((k) => k.f);
}

/** Code-unit comparison: locale-independent, so output is byte-stable across machines. */
export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `.workflow/`-relative corpus path → project-relative path. */
export function projectPath(workflowRelative: string): string {
  return `.workflow/${workflowRelative}`;
}

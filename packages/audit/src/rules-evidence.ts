import type { KnowledgeEntry } from '@maestro/spec';
import { cmp, finding, projectPath } from './finding.js';
import type { EntryEvidence, EvidenceSummary, Finding } from './schemas.js';

/**
 * Knowledge confidence from evidence, not exposure (seed 002 §1). Only the judgement signals a
 * run records explicitly count: `validated` and `cited` raise confidence, `contradicted` lowers
 * it. `consumed` (a load) and the search / injection exposure counters never count. Each signal
 * counts once per distinct session, so one busy session cannot vouch for a rule on its own.
 */
export const EVIDENCE_SIGNALS = ['validated', 'cited', 'contradicted'] as const;
export type EvidenceSignal = (typeof EVIDENCE_SIGNALS)[number];

/** One recorded judgement: a run of a session said this about an entry. */
export interface EvidenceRow {
  knowledge_id: string;
  session_id: string;
  run_id: string;
  signal: EvidenceSignal;
}

/** Below this confidence, an entry with at least one contradiction is a finding. One contradiction and no support gives 1/3. */
export const CONTRADICTED_BELOW = 0.35;
/** A citation is weaker support than a validation. */
export const CITED_WEIGHT = 0.5;

/**
 * Evidence confidence in [0, 1]: a Beta(1, 1) prior updated by distinct sessions,
 * (1 + v + 0.5·c) / (2 + v + 0.5·c + x), where v = sessions that validated, c = sessions that
 * only cited, x = sessions that contradicted. No evidence gives 0.5.
 */
export function evidenceConfidence(validated: number, cited: number, contradicted: number): number {
  const support = validated + CITED_WEIGHT * cited;
  return Math.round(((1 + support) / (2 + support + contradicted)) * 1000) / 1000;
}

/** Per-entry evidence from the rows (pure), entries with any evidence only, sorted by id. */
export function knowledgeEvidence(rows: readonly EvidenceRow[]): EntryEvidence[] {
  const byId = new Map<string, Record<EvidenceSignal, Set<string>> & { runs: Set<string> }>();
  for (const r of rows) {
    let e = byId.get(r.knowledge_id);
    if (!e) {
      e = { validated: new Set(), cited: new Set(), contradicted: new Set(), runs: new Set() };
      byId.set(r.knowledge_id, e);
    }
    e[r.signal].add(r.session_id);
    if (r.signal === 'contradicted') e.runs.add(`${r.session_id}/${r.run_id}`);
  }
  return [...byId.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([id, e]) => {
      const cited = [...e.cited].filter((s) => !e.validated.has(s)).length;
      return {
        knowledge_id: id,
        validated_sessions: e.validated.size,
        cited_sessions: cited,
        contradicted_sessions: e.contradicted.size,
        confidence: evidenceConfidence(e.validated.size, cited, e.contradicted.size),
        contradicted_runs: [...e.runs].sort(),
      };
    });
}

export const EVIDENCE_NOTE =
  'confidence counts validated/cited/contradicted signals per distinct session; search hits, injections and loads never count';

/** The report's `evidence` block and its findings (pure). */
export function evidenceSummary(
  entries: readonly KnowledgeEntry[],
  rows: readonly EvidenceRow[],
  within: (store: string) => boolean,
): { summary: EvidenceSummary; findings: Finding[] } {
  const by_entry = knowledgeEvidence(rows);
  const findings = evidenceFindings(entries, by_entry, within);
  return {
    summary: {
      entries: by_entry.length,
      supported: by_entry.filter((e) => e.confidence > 0.5).length,
      contradicted: by_entry.filter((e) => e.contradicted_sessions > 0).length,
      below_threshold: findings.length,
      by_entry,
      note: EVIDENCE_NOTE,
    },
    findings,
  };
}

/** A P1 finding per active entry whose evidence confidence fell below the threshold through contradictions. */
export function evidenceFindings(
  entries: readonly KnowledgeEntry[],
  evidence: readonly EntryEvidence[],
  within: (store: string) => boolean,
): Finding[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: Finding[] = [];
  for (const ev of evidence) {
    const e = byId.get(ev.knowledge_id);
    if (e?.status !== 'active' || !within(e.store)) continue;
    if (ev.contradicted_sessions === 0 || ev.confidence >= CONTRADICTED_BELOW) continue;
    const [firstSession] = ev.contradicted_runs[0].split('/');
    out.push(
      finding({
        priority: 'P1',
        store: e.store,
        subtype: 'contradicted-by-runs',
        target: e.id,
        file: projectPath(e.file),
        line: e.line ?? null,
        evidence: `evidence confidence ${ev.confidence} (below ${CONTRADICTED_BELOW}): contradicted in ${ev.contradicted_sessions} session(s), validated in ${ev.validated_sessions}, cited in ${ev.cited_sessions}; runs: ${ev.contradicted_runs.join(', ')}`,
        related: ev.contradicted_runs,
        recommended_action: 'review',
        command: `maestro session show ${firstSession}`,
      }),
    );
  }
  return out;
}

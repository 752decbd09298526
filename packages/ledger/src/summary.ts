import type { Issue } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { readDeltaFile } from './delta.js';
import { runPaths } from './paths.js';
import { listRuns } from './run.js';
import type {
  CandidateStatus,
  InputSource,
  KnowledgeDelta,
  LedgerCandidate,
  RunRecord,
  SessionRecord,
  Signal,
} from './schemas.js';
import { readSession } from './session.js';
import { displayPath, issueFromError } from './validate.js';

export type CandidateStage = 'observed' | 'corroborated';

/** One candidate across the session's runs. */
export interface SummaryCandidate extends LedgerCandidate {
  /** Runs whose ledger holds it, sorted. */
  run_ids: string[];
  /** `corroborated` when more than one distinct run staged it, else `observed`. */
  stage: CandidateStage;
}

/** One (knowledge_id, signal, source) input across the session's runs. */
export interface SummaryInput {
  knowledge_id: string;
  signal: Signal;
  source: InputSource;
  count: number;
  run_ids: string[];
  first_recorded_at: string;
  last_recorded_at: string;
  evidence: string[];
}

export interface SummaryRun {
  run_id: string;
  status: RunRecord['status'];
  command: string;
  /** True when the run has a knowledge-delta.json. */
  has_ledger: boolean;
}

export interface SessionSummary {
  schema_version: 'session-knowledge-summary/1.0';
  session_id: string;
  session_status: SessionRecord['status'];
  runs: SummaryRun[];
  candidates: SummaryCandidate[];
  inputs: SummaryInput[];
  counts: {
    candidates: number;
    observed: number;
    corroborated: number;
    pending: number;
    promoting: number;
    promoted: number;
    rejected: number;
  };
  /** Runs skipped because their run.json or ledger is damaged; they never count as corroboration. */
  problems: Issue[];
}

const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

/**
 * Aggregates ledgers (pure). Ledgers are taken in the given order (the first decides title,
 * action and, absent promotion, status). Status precedence: `promoted` from any ledger wins, then
 * `promoting`, else the first ledger's status. Occurrences are summed, evidence and runs unioned.
 * Sorted by run count desc, occurrences desc, id asc.
 */
export function aggregateCandidates(ledgers: readonly KnowledgeDelta[]): SummaryCandidate[] {
  const byId = new Map<string, SummaryCandidate>();
  for (const delta of ledgers) {
    for (const c of delta.candidates) {
      const seen = byId.get(c.candidate_id);
      if (!seen) {
        byId.set(c.candidate_id, { ...structuredClone(c), run_ids: [delta.run_id], stage: 'observed' });
        continue;
      }
      seen.occurrences += c.occurrences;
      seen.evidence_refs = union(seen.evidence_refs, c.evidence_refs);
      seen.run_ids = union(seen.run_ids, [delta.run_id]);
      if (c.first_recorded_at < seen.first_recorded_at) seen.first_recorded_at = c.first_recorded_at;
      if (c.last_recorded_at > seen.last_recorded_at) seen.last_recorded_at = c.last_recorded_at;
      if (rank(c.status) > rank(seen.status)) {
        seen.status = c.status;
        seen.promoted_id = c.promoted_id;
        seen.promotion_receipt = c.promotion_receipt ?? null;
        seen.rejection = c.rejection ?? null;
      }
    }
  }
  const out = [...byId.values()];
  for (const c of out) {
    c.run_ids.sort();
    c.stage = c.run_ids.length > 1 ? 'corroborated' : 'observed';
  }
  return out.sort(
    (a, b) =>
      b.run_ids.length - a.run_ids.length ||
      b.occurrences - a.occurrences ||
      (a.candidate_id < b.candidate_id ? -1 : a.candidate_id > b.candidate_id ? 1 : 0),
  );
}

/** Only promoted and promoting override what the first ledger says. */
function rank(status: CandidateStatus): number {
  return status === 'promoted' ? 2 : status === 'promoting' ? 1 : 0;
}

/** Aggregates inputs by (knowledge_id, signal, source) across ledgers (pure). */
export function aggregateInputs(ledgers: readonly KnowledgeDelta[]): SummaryInput[] {
  const byKey = new Map<string, SummaryInput>();
  for (const delta of ledgers) {
    for (const i of delta.inputs) {
      const key = `${i.knowledge_id}\u0000${i.signal}\u0000${i.source}`;
      const seen = byKey.get(key);
      if (!seen) {
        byKey.set(key, {
          knowledge_id: i.knowledge_id,
          signal: i.signal,
          source: i.source,
          count: i.count,
          run_ids: [delta.run_id],
          first_recorded_at: i.first_recorded_at,
          last_recorded_at: i.last_recorded_at,
          evidence: [...(i.evidence ?? [])],
        });
        continue;
      }
      seen.count += i.count;
      seen.run_ids = union(seen.run_ids, [delta.run_id]).sort();
      seen.evidence = union(seen.evidence, i.evidence ?? []);
      if (i.first_recorded_at < seen.first_recorded_at) seen.first_recorded_at = i.first_recorded_at;
      if (i.last_recorded_at > seen.last_recorded_at) seen.last_recorded_at = i.last_recorded_at;
    }
  }
  return [...byKey.values()].sort((a, b) =>
    `${a.knowledge_id}\u0000${a.signal}\u0000${a.source}` < `${b.knowledge_id}\u0000${b.signal}\u0000${b.source}`
      ? -1
      : 1,
  );
}

/**
 * The session's knowledge across its valid runs. An unknown or damaged session.json throws the
 * named error; a run whose run.json is invalid (or names another run) or whose ledger is damaged
 * is reported in `problems` and skipped, so it can neither hide nor fake corroboration.
 */
export function summarizeSession(layout: WorkflowLayout, sessionId: string): SessionSummary {
  const session = readSession(layout, sessionId);
  const { runs, problems } = listRuns(layout, sessionId);
  const ledgers: KnowledgeDelta[] = [];
  const summaryRuns: SummaryRun[] = [];
  for (const run of runs) {
    try {
      const { delta, exists } = readDeltaFile(layout, sessionId, run.run_id);
      ledgers.push(delta);
      summaryRuns.push({ run_id: run.run_id, status: run.status, command: run.command, has_ledger: exists });
    } catch (err) {
      problems.push(issueFromError(err, displayPath(layout.root, runPaths(layout, sessionId, run.run_id).delta)));
    }
  }
  const candidates = aggregateCandidates(ledgers);
  const count = (f: (c: SummaryCandidate) => boolean) => candidates.filter(f).length;
  return {
    schema_version: 'session-knowledge-summary/1.0',
    session_id: sessionId,
    session_status: session.status,
    runs: summaryRuns,
    candidates,
    inputs: aggregateInputs(ledgers),
    counts: {
      candidates: candidates.length,
      observed: count((c) => c.stage === 'observed'),
      corroborated: count((c) => c.stage === 'corroborated'),
      pending: count((c) => c.status === 'pending'),
      promoting: count((c) => c.status === 'promoting'),
      promoted: count((c) => c.status === 'promoted'),
      rejected: count((c) => c.status === 'rejected'),
    },
    problems,
  };
}

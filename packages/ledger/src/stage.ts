import { candidateId, inputError, refusedError } from '@maestro/core';
import {
  ACTIONS,
  type CandidateAction,
  INPUT_SOURCES,
  type InputSource,
  type KnowledgeDelta,
  type LedgerCandidate,
  SIGNALS,
  type Signal,
  type SourceKind,
  TARGETS,
} from './schemas.js';

/** What staging needs; validated by `checkStageInput`. */
export interface StageInput {
  target: 'spec' | 'knowhow';
  action: CandidateAction;
  title: string;
  content: string;
  category: string | null;
  source_kind: SourceKind;
  evidence_refs: string[];
}

export interface StageOutcome {
  candidate: LedgerCandidate;
  /** True when identical content was already staged in this ledger (occurrences went up). */
  reused: boolean;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], what: string, code: string, hint: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw inputError(code, `${what} must be one of ${allowed.join(', ')} (got "${value}")`, { hint });
}

export const parseTarget = (v: string) =>
  oneOf(v, TARGETS, 'the target', 'INVALID_TARGET', 'e.g. `maestro knowledge stage spec "<title>" "<rule>" ...`');
export const parseAction = (v: string) =>
  oneOf(v, ACTIONS, '--action', 'INVALID_ACTION', 'propose for new knowledge; supersede or contest for changes');
export const parseSignal = (v: string) =>
  oneOf(
    v,
    SIGNALS,
    '--signal',
    'INVALID_SIGNAL',
    'consumed = used, cited = referenced, validated / contradicted = checked',
  );
export const parseSource = (v: string) =>
  oneOf(
    v,
    INPUT_SOURCES,
    '--source',
    'INVALID_SOURCE',
    'manual (default) unless it came from load, search or injection',
  );

export { splitList } from './list.js';

/** Rejects empty titles and content (exit 2, with the fix). */
export function checkStageInput(input: StageInput): StageInput {
  const title = input.title.trim();
  if (!title) {
    throw inputError('EMPTY_TITLE', 'the candidate title is empty', {
      hint: 'pass a short title as the second argument, e.g. `maestro knowledge stage spec "Use UTC" "..."`',
    });
  }
  if (!input.content.trim()) {
    throw inputError('EMPTY_CONTENT', 'the candidate content is empty', {
      hint: 'pass the content as the third argument, or with --content-file <file|->',
    });
  }
  const category = input.category?.trim() || null;
  return { ...input, title, category, evidence_refs: [...new Set(input.evidence_refs)] };
}

/**
 * Stages a candidate into a ledger (pure; mutates and returns `delta`). The id is
 * `candidateId(target, content)`. Restaging identical content bumps `occurrences`, sets
 * `last_recorded_at` and unions evidence; the title, category and content stay as first staged.
 * Restaging it with another action is refused (exit 1) with the commands to use instead.
 * With `onceFor`, a restage whose evidence already holds that ref changes nothing, so replaying
 * a handoff (e.g. after a crash) never double-counts.
 */
export function stageInto(delta: KnowledgeDelta, input: StageInput, at: string, onceFor?: string): StageOutcome {
  const id = candidateId(input.target, input.content);
  const existing = delta.candidates.find((c) => c.candidate_id === id);
  if (existing) {
    if (existing.action !== input.action) throw actionConflict(id, existing.action, input.action, delta.session_id);
    if (onceFor !== undefined && existing.evidence_refs.includes(onceFor)) return { candidate: existing, reused: true };
    existing.occurrences += 1;
    existing.last_recorded_at = at;
    existing.evidence_refs = [...new Set([...existing.evidence_refs, ...input.evidence_refs])];
    return { candidate: existing, reused: true };
  }
  const candidate: LedgerCandidate = {
    candidate_id: id,
    target: input.target,
    action: input.action,
    title: input.title,
    content: input.content,
    category: input.category,
    source_kind: input.source_kind,
    evidence_refs: [...input.evidence_refs],
    occurrences: 1,
    first_recorded_at: at,
    last_recorded_at: at,
    status: 'pending',
    promoted_id: null,
    promotion_receipt: null,
  };
  delta.candidates.push(candidate);
  return { candidate, reused: false };
}

export function actionConflict(id: string, existing: string, wanted: string, sessionId: string) {
  return refusedError(
    'CANDIDATE_ACTION_CONFLICT',
    `candidate ${id} already exists in session ${sessionId} with action ${existing}; cannot restage the same content as ${wanted}`,
    {
      hint: `resolve or promote it instead of restaging: \`maestro knowledge review ${sessionId}\`, then \`maestro knowledge promote ${sessionId} --candidate ${id}\``,
      details: { candidate_id: id, action: existing, requested: wanted },
    },
  );
}

export interface RecordInput {
  knowledge_ids: string[];
  signal: Signal;
  source: InputSource;
  evidence: string[];
}

/**
 * Records inputs (pure; mutates and returns the touched inputs). Keyed by (knowledge_id,
 * signal, source): a repeat increments `count`, sets `last_recorded_at` and unions evidence.
 */
export function recordInto(delta: KnowledgeDelta, input: RecordInput, at: string) {
  const touched = [];
  for (const knowledge_id of input.knowledge_ids) {
    let row = delta.inputs.find(
      (i) => i.knowledge_id === knowledge_id && i.signal === input.signal && i.source === input.source,
    );
    if (row) {
      row.count += 1;
      row.last_recorded_at = at;
      if (input.evidence.length || row.evidence)
        row.evidence = [...new Set([...(row.evidence ?? []), ...input.evidence])];
    } else {
      row = {
        knowledge_id,
        signal: input.signal,
        source: input.source,
        count: 1,
        first_recorded_at: at,
        last_recorded_at: at,
        ...(input.evidence.length ? { evidence: [...input.evidence] } : {}),
      };
      delta.inputs.push(row);
    }
    touched.push(row);
  }
  return touched;
}

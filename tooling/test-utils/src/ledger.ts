import { candidateId } from '@maestro/core';
import type { Tree } from './tmp.js';

/**
 * Builders for `.workflow/sessions/` trees (session.json, run.json, knowledge-delta.json) in the
 * formats of @maestro/ledger, written as plain JSON so tests can also corrupt them at will.
 */

export interface CandidateSpec {
  content: string;
  target?: 'spec' | 'knowhow';
  title?: string;
  action?: 'propose' | 'reaffirm' | 'supersede' | 'contest';
  category?: string | null;
  source_kind?: 'decision' | 'constraint' | 'manual';
  evidence_refs?: string[];
  occurrences?: number;
  status?: 'pending' | 'promoting' | 'promoted' | 'rejected';
  promoted_id?: string | null;
}

export interface RunSpec {
  runId: string;
  status?: 'running' | 'completed' | 'sealed';
  command?: string;
  candidates?: CandidateSpec[];
  /** Extra files in the run folder, e.g. `report.md`. */
  files?: Tree;
}

export interface SessionSpec {
  sessionId: string;
  title?: string;
  status?: 'running' | 'sealed';
  at?: string;
  runs?: RunSpec[];
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

export function ledgerCandidate(c: CandidateSpec, at: string) {
  const target = c.target ?? 'spec';
  return {
    candidate_id: candidateId(target, c.content),
    target,
    action: c.action ?? 'propose',
    title: c.title ?? c.content.slice(0, 40),
    content: c.content,
    category: c.category ?? null,
    source_kind: c.source_kind ?? 'manual',
    evidence_refs: c.evidence_refs ?? [],
    occurrences: c.occurrences ?? 1,
    first_recorded_at: at,
    last_recorded_at: at,
    status: c.status ?? 'pending',
    promoted_id: c.promoted_id ?? null,
    promotion_receipt: null,
  };
}

/** A tree (keys relative to the project root) holding one session, its runs and their ledgers. */
export function sessionTree(spec: SessionSpec): Tree {
  const at = spec.at ?? '2026-01-02T00:00:00.000Z';
  const base = `.workflow/sessions/${spec.sessionId}`;
  const status = spec.status ?? 'running';
  const tree: Tree = {
    [`${base}/session.json`]: json({
      schema_version: 'maestro-session/1.0',
      session_id: spec.sessionId,
      title: spec.title ?? '',
      status,
      created_at: at,
      updated_at: at,
      revision: 0,
      lifecycle: {
        sealed_at: status === 'sealed' ? at : null,
        seal_summary: null,
        promoted_spec_ids: [],
        promoted_knowhow_ids: [],
      },
    }),
  };
  for (const run of spec.runs ?? []) {
    const dir = `${base}/runs/${run.runId}`;
    const runStatus = run.status ?? 'sealed';
    tree[`${dir}/run.json`] = json({
      schema_version: 'maestro-run/1.0',
      run_id: run.runId,
      session_id: spec.sessionId,
      command: run.command ?? 'run',
      status: runStatus,
      created_at: at,
      updated_at: at,
      completed_at: runStatus === 'running' ? null : at,
      sealed_at: runStatus === 'sealed' ? at : null,
      summary: null,
      revision: 0,
    });
    if (run.candidates) {
      tree[`${dir}/knowledge-delta.json`] = json({
        schema_version: 'run-knowledge-delta/1.0',
        session_id: spec.sessionId,
        run_id: run.runId,
        revision: 1,
        created_at: at,
        updated_at: at,
        inputs: [],
        candidates: run.candidates.map((c) => ledgerCandidate(c, at)),
      });
    }
    for (const [name, content] of Object.entries(run.files ?? {})) tree[`${dir}/${name}`] = content;
  }
  return tree;
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId, fixedRuntime } from '@maestro/core';
import { runPaths } from '@maestro/ledger';
import { type CandidateSpec, type RunSpec, sessionTree, type Tree, tmpProject } from '@maestro/test-utils';
import type { ReceiptCheck, ReceiptSource, ReceiptVerdict } from './model.js';

/** Test fixtures: a project with one session, hand-written receipts and a receipt source that reads them. */

export const S = '20260102-promo';
export const R1 = '20260102-001-plan';
export const R2 = '20260102-002-build';
export const NOW = '2026-03-04T05:06:07.000Z';
export const runtime = () => fixedRuntime(NOW);

export const cid = (content: string, target: 'spec' | 'knowhow' = 'spec') => candidateId(target, content);

export function verdict(candidate_id: string, over: Partial<ReceiptVerdict> = {}): ReceiptVerdict {
  return {
    candidate_id,
    disposition: 'unique',
    promotion_eligibility: 'eligible',
    canonical_id: null,
    reaffirms: null,
    resolution: null,
    ...over,
  };
}

/** A receipt file the fake source reads; `stale` makes its check stale. */
export function receiptFile(verdicts: ReceiptVerdict[], stale = false): string {
  return `${JSON.stringify({ schema_version: 'knowledge-reconciliation/1.0', stale, candidates: verdicts }, null, 2)}\n`;
}

/** Reads `knowledge-reconciliation.json` as written by `receiptFile`; missing → missing. */
export const fileReceipts: ReceiptSource = {
  async check(layout, sessionId, runIds) {
    const out = new Map<string, ReceiptCheck>();
    for (const runId of runIds) {
      let text: string;
      try {
        text = readFileSync(runPaths(layout, sessionId, runId).receipt, 'utf8');
      } catch {
        out.set(runId, { state: 'missing' });
        continue;
      }
      const r = JSON.parse(text) as { stale: boolean; candidates: ReceiptVerdict[] };
      out.set(
        runId,
        r.stale ? { state: 'stale', reasons: ['corpus_fingerprint'] } : { state: 'fresh', verdicts: r.candidates },
      );
    }
    return out;
  },
};

export interface ProjectSpec {
  runs: (RunSpec & { verdicts?: ReceiptVerdict[] | 'auto'; stale?: boolean })[];
  files?: Tree;
}

/**
 * A project with session S. `verdicts: 'auto'` (the default) writes a receipt calling every
 * candidate of the run unique and eligible; `undefined` with `candidates` absent writes none.
 */
export function project(spec: ProjectSpec): string {
  const tree: Tree = { ...sessionTree({ sessionId: S, runs: spec.runs }), ...(spec.files ?? {}) };
  for (const run of spec.runs) {
    const list = run.verdicts ?? 'auto';
    const verdicts =
      list === 'auto' ? (run.candidates ?? []).map((c: CandidateSpec) => verdict(cid(c.content, c.target))) : list;
    tree[`.workflow/sessions/${S}/runs/${run.runId}/knowledge-reconciliation.json`] = receiptFile(verdicts, run.stale);
  }
  return tmpProject(tree);
}

export const read = (root: string, rel: string) => readFileSync(join(root, '.workflow', rel), 'utf8');

export function ledger(root: string, runId: string = R1) {
  return JSON.parse(read(root, `sessions/${S}/runs/${runId}/knowledge-delta.json`)) as {
    revision: number;
    candidates: {
      candidate_id: string;
      status: string;
      promoted_id: string | null;
      promotion_receipt?: { outcome: string; promoted_at: string; content_hash: string } | null;
    }[];
  };
}

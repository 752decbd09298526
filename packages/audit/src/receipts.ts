import { relative } from 'node:path';
import { inputError, isMaestroError, parseJsonText } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout } from '@maestro/fs';
import { runPaths } from '@maestro/ledger';

/** What the pending-target guard needs from a reconciliation receipt. */
export interface ReceiptView {
  candidates: { candidate_id: string; canonical_id: string | null; matches: { knowledge_id: string }[] }[];
}

/**
 * Reads receipts and judges their freshness. The audit takes it as a parameter so the guard
 * works with @maestro/reconcile's reader and fence check, or with a test double.
 */
export interface ReceiptSource {
  /** The run's receipt, or null when it has none. Throws a MaestroError when the file is damaged. */
  read(layout: WorkflowLayout, sessionId: string, runId: string): ReceiptView | null;
  /** True when the receipt's freshness fences still hold. */
  fresh(layout: WorkflowLayout, sessionId: string, runId: string): boolean;
}

/**
 * Reads `runs/<run>/knowledge-reconciliation.json` (`knowledge-reconciliation/1.0`) directly,
 * checking only what the guard uses. Without a fence check it treats every readable receipt as
 * fresh: for a guard that only *skips* prune actions, over-flagging is the safe side.
 */
export const fileReceipts: ReceiptSource = {
  read(layout, sessionId, runId) {
    const path = runPaths(layout, sessionId, runId).receipt;
    const text = readTextIfExists(path);
    if (text === null) return null;
    const file = relative(layout.root, path);
    return receiptView(parseJsonText(text, file), file);
  },
  fresh: () => true,
};

/** The guard's view of a parsed receipt; a shape it cannot use is a damaged file (exit 2 if thrown). */
export function receiptView(raw: unknown, file: string): ReceiptView {
  const bad = (what: string) =>
    inputError('RECEIPT_INVALID', `${file} is not a valid knowledge-reconciliation.json: ${what}`, {
      hint: 'regenerate it with `maestro knowledge review <session> --refresh`',
      location: { file },
    });
  const r = raw as { schema_version?: unknown; candidates?: unknown };
  if (!r || typeof r !== 'object' || r.schema_version !== 'knowledge-reconciliation/1.0') {
    throw bad('schema_version is not knowledge-reconciliation/1.0');
  }
  if (!Array.isArray(r.candidates)) throw bad('candidates is not a list');
  const candidates = r.candidates.map((c: unknown, i: number) => {
    const x = c as { candidate_id?: unknown; canonical_id?: unknown; matches?: unknown };
    if (!x || typeof x.candidate_id !== 'string') throw bad(`candidates[${i}].candidate_id is missing`);
    if (!Array.isArray(x.matches)) throw bad(`candidates[${i}].matches is not a list`);
    const matches = x.matches
      .map((m: unknown) => (m as { knowledge_id?: unknown })?.knowledge_id)
      .filter((k: unknown): k is string => typeof k === 'string')
      .map((knowledge_id: string) => ({ knowledge_id }));
    return {
      candidate_id: x.candidate_id,
      canonical_id: typeof x.canonical_id === 'string' ? x.canonical_id : null,
      matches,
    };
  });
  return { candidates };
}

/** A reader error as a one-line message for a finding (never rethrown: the audit goes on). */
export function problemMessage(err: unknown): string {
  if (isMaestroError(err)) return err.message;
  throw err;
}

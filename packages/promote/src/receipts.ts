import { checkFreshness, computeCorpusFingerprint } from '@maestro/reconcile';
import type { ReceiptCheck, ReceiptSource } from './model.js';

/**
 * Receipts through @maestro/reconcile: its reader (a damaged receipt throws its named error,
 * exit 2) and its fence check — candidate snapshot, corpus fingerprint (incremental, computed
 * once for all runs), matcher revision. Promotion never writes or regenerates a receipt.
 */
export const reconcileReceipts: ReceiptSource = {
  async check(layout, sessionId, runIds) {
    const out = new Map<string, ReceiptCheck>();
    if (runIds.length === 0) return out;
    const { fingerprint } = await computeCorpusFingerprint(layout);
    for (const runId of runIds) {
      const report = await checkFreshness(layout, sessionId, runId, { fingerprint });
      if (report.state === 'fresh' && report.receipt) {
        out.set(runId, { state: 'fresh', verdicts: report.receipt.candidates });
      } else if (report.state === 'stale') out.set(runId, { state: 'stale', reasons: report.reasons });
      else out.set(runId, { state: 'missing' });
    }
    return out;
  },
};

import { checkReceipts } from '@maestro/reconcile';
import type { ReceiptSource } from './model.js';

/**
 * Receipts through @maestro/reconcile: its reader (a damaged receipt throws its named error,
 * exit 2) and its fence check — candidate snapshot, corpus fingerprint (incremental, computed
 * once for all runs), matcher revision. A receipt made against an older corpus is revalidated
 * and, when no verdict can change, written back refreshed (promotion calls this under the corpus
 * lock); otherwise it is stale and promotion refuses. Promotion never regenerates a receipt.
 */
export const reconcileReceipts: ReceiptSource = {
  async check(layout, sessionId, runIds, context) {
    if (runIds.length === 0) return new Map();
    return checkReceipts(layout, sessionId, runIds, { revalidate: 'write', now: context?.now });
  },
};

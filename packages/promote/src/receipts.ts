import { environmentError } from '@maestro/core';
import type { ReceiptSource } from './model.js';

/**
 * Receipts through @maestro/reconcile: its reader and its fence check (candidate snapshot, corpus
 * fingerprint, matcher revision). Promotion never writes or regenerates a receipt.
 */
export const reconcileReceipts: ReceiptSource = {
  check() {
    throw environmentError('RECONCILE_UNAVAILABLE', 'receipt freshness checks are not available yet');
  },
};

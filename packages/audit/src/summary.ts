import { existsSync } from 'node:fs';
import { inputError, type Runtime, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { AuditKnowledgeOptions } from './audit.js';
import type { ReceiptSource } from './receipts.js';
import { AUDIT_SCOPES } from './schemas.js';
import {
  type AuditSummary,
  type InputDigests,
  readInputDigests,
  type StoredInputs,
  storedInputs,
  storedSummary,
} from './stored.js';

/**
 * `@maestro/audit/summary`: what the gate reads from an audit, and the stored results it reuses,
 * without loading the audit itself (graph, corpus parser, rules) unless no stored result holds.
 */

export type { AuditSummary, InputDigests } from './stored.js';
export { readInputDigests, saveValue, storedValue, storeWarnings } from './stored.js';

/** Refuses flag combinations that make no sense (exit 2: usage). */
export function checkAuditOptions(o: AuditKnowledgeOptions): void {
  if (o.scope !== undefined && !AUDIT_SCOPES.includes(o.scope)) {
    throw inputError('INVALID_SCOPE', `--scope must be one of ${AUDIT_SCOPES.join(', ')} (got "${o.scope}")`, {
      hint: 'e.g. `maestro knowledge audit --scope spec`',
    });
  }
  if (o.apply && !o.prune) {
    throw inputError('APPLY_REQUIRES_PRUNE', '--apply requires --prune', {
      hint: 'review the plan with `maestro knowledge audit --prune`, then add --apply',
    });
  }
  if (o.includePendingTargets && !o.apply) {
    throw inputError(
      'PENDING_TARGETS_REQUIRES_APPLY',
      '--include-pending-targets only makes sense with --prune --apply',
      {
        hint: 'use `maestro knowledge audit --prune --apply --include-pending-targets`',
      },
    );
  }
}

/**
 * The counts and P0 findings of a whole audit (what the gate reads): from the stored result when
 * no input changed (see `reuse`), else from a full audit, which is then stored.
 */
export async function auditSummary(
  layout: WorkflowLayout,
  options: Omit<AuditKnowledgeOptions, 'prune' | 'apply' | 'includePendingTargets'> & {
    /** The input digests the caller took already (`readInputDigests`), so files are stat'ed once. */
    digests?: InputDigests | null;
    /** The receipt reader, loaded only when the audit has to run (when `receipts` is not given). */
    loadReceipts?: () => Promise<ReceiptSource>;
  } = {},
): Promise<AuditSummary> {
  const { digests, loadReceipts, ...rest } = options;
  const report = { ...rest, prune: false, apply: false };
  checkAuditOptions(report);
  if (!existsSync(layout.workflow)) {
    throw inputError('NO_WORKFLOW', `no .workflow/ directory in ${layout.root}`, {
      hint: 'run `maestro init` there first, or pass --workflow-root <project dir>',
    });
  }
  const runtime: Runtime = options.runtime ?? systemRuntime;
  const { options: o, stored } = prepareReuse(layout, report, digests);
  const hit = stored ? storedSummary(stored, runtime.now()) : null;
  if (hit) return hit;
  const [{ computeAudit }, { summaryOf }] = await Promise.all([import('./audit.js'), import('./stored.js')]);
  const receipts = o.receipts ?? (loadReceipts ? await loadReceipts() : undefined);
  return summaryOf(await computeAudit(layout, { ...o, receipts }, runtime, stored));
}

/**
 * Reads the exposure counters once (they are an input of the key) and computes the key of the
 * stored result, or null when reuse is off or the store cannot be used.
 */
export function prepareReuse(
  layout: WorkflowLayout,
  options: AuditKnowledgeOptions,
  digests?: InputDigests | null,
): { options: AuditKnowledgeOptions; stored: StoredInputs | null } {
  if (options.reuse === undefined) return { options, stored: null };
  const read = options.exposure?.(layout);
  const o: AuditKnowledgeOptions = { ...options, exposure: read ? () => read : undefined };
  const exposure = read
    ? {
        counts: read.counts ? [...read.counts].sort((a, b) => (a[0] < b[0] ? -1 : 1)) : null,
        warning: read.warning ?? null,
      }
    : null;
  const stored = storedInputs(
    layout,
    {
      tag: options.reuse,
      scope: options.scope ?? 'all',
      prune: options.prune === true,
      exposure,
    },
    digests === undefined ? readInputDigests(layout) : digests,
  );
  return { options: o, stored };
}

import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inputError, type Runtime, systemRuntime } from '@maestro/core';
import { findLeftoverTemps, type LockOptions, type WorkflowLayout, withCorpusLock } from '@maestro/fs';
import { type GraphFinding, graphFindings, KnowledgeGraph, openGraph } from '@maestro/graph';
import { type LoadedCorpus, loadCorpusFiles, recoverSpecEdit, resolveEntryRef } from '@maestro/spec';
import { type ApplyOptions, applyPrunePlan } from './apply.js';
import { listBackups } from './backups.js';
import { readPipeline } from './read-pipeline.js';
import { fileReceipts, type ReceiptSource } from './receipts.js';
import { type AuditInput, buildAudit } from './report.js';
import { readRestoreIntent, recoverRestore } from './restore-journal.js';
import { type CodeRef, codePathsToCheck } from './rules-corpus.js';
import type { AuditReport, AuditScope } from './schemas.js';
import { type StoredInputs, saveReport, storedReport, validUntil } from './stored.js';
import { checkAuditOptions, prepareReuse } from './summary.js';

export interface AuditKnowledgeOptions {
  scope?: AuditScope;
  /** Compute the deterministic soft-prune plan. */
  prune?: boolean;
  /** Apply the plan (requires `prune`): backup, atomic writes, audit log, rollback on failure. */
  apply?: boolean;
  includePendingTargets?: boolean;
  runtime?: Runtime;
  /** Receipt reader and freshness check for the pending-target guard. */
  receipts?: ReceiptSource;
  /**
   * Reads the exposure counters (search impressions per knowledge id), e.g. @maestro/search's
   * `readExposure`. Absent, or `counts: null` → exposure is not judged, and the report says so.
   */
  exposure?: (layout: WorkflowLayout) => { counts: ReadonlyMap<string, number> | null; warning?: string | null };
  /** Test-only fault injection before each action's writes. */
  beforeAction?: ApplyOptions['beforeAction'];
  lock?: LockOptions;
  /**
   * Reuse a stored result when no input changed (store section `audit`; never with `apply`).
   * The value names what the caller passes as `receipts` (e.g. `reconcile/<matcher revision>`),
   * so results made with another receipt reader are never mixed up. Absent → always computed.
   */
  reuse?: string;
}

/**
 * `maestro knowledge audit`: reads the corpus once, the session ledgers and receipts, the
 * backups and (when given) the exposure counters; returns the findings, and with `prune` the
 * plan; with `apply` it holds the corpus lock from the read to the last write and applies.
 * Read-only otherwise: without `apply` nothing is written, not even a lock file.
 */
export async function auditKnowledge(
  layout: WorkflowLayout,
  options: AuditKnowledgeOptions = {},
): Promise<AuditReport> {
  checkAuditOptions(options);
  if (!existsSync(layout.workflow)) {
    throw inputError('NO_WORKFLOW', `no .workflow/ directory in ${layout.root}`, {
      hint: 'run `maestro init` there first, or pass --workflow-root <project dir>',
    });
  }
  const runtime = options.runtime ?? systemRuntime;
  if (!options.apply) {
    const { options: o, stored } = prepareReuse(layout, options);
    const hit = stored ? storedReport(stored, runtime.now()) : null;
    return hit ?? computeAudit(layout, o, runtime, stored);
  }
  return withCorpusLock(
    layout,
    async () => {
      // Finish a half-done multi-file spec edit first, so the plan never sees half an edit.
      await recoverSpecEdit(layout);
      // Likewise a restore that was killed: finish it to the backup's bytes before planning.
      await recoverRestore(layout);
      const graph = await graphPart(layout);
      const { input, loaded } = readAuditInput(layout, options, runtime);
      const report = withNotes(
        buildAudit({ ...input, graphFindings: graph.findings }, { prune: true }),
        graph.warnings,
      );
      const applied = await applyPrunePlan(layout, loaded, report.prune_plan!, {
        runtime,
        includePendingTargets: options.includePendingTargets,
        beforeAction: options.beforeAction,
      });
      return { ...report, applied };
    },
    options.lock,
  );
}

export { auditSummary, checkAuditOptions } from './summary.js';

/**
 * The whole read-only audit. The graph goes first and is dropped before the corpus is read, so
 * the two are never in memory together. With `stored`, the result is saved for reuse (without
 * the notes about the stored graph itself: a reused result never reads it).
 */
export async function computeAudit(
  layout: WorkflowLayout,
  options: AuditKnowledgeOptions,
  runtime: Runtime,
  stored: StoredInputs | null,
): Promise<AuditReport> {
  const graph = await graphPart(layout);
  const { input, loaded } = readAuditInput(layout, options, runtime);
  const report = buildAudit({ ...input, graphFindings: graph.findings }, { prune: options.prune });
  if (stored) {
    const refs = new Map((input.codeRefs ?? []).map((r) => [r.path, r.exists]));
    saveReport(stored, report, {
      now: input.now,
      validUntil: validUntil(loaded.corpus.entries, input.now),
      codeRefs: [...refs].map(([path, exists]) => ({ path, exists })),
    });
  }
  return withNotes(report, graph.warnings);
}

function withNotes(report: AuditReport, notes: readonly string[]): AuditReport {
  return notes.length ? { ...report, notes: [...report.notes, ...notes] } : report;
}

/**
 * The findings only the knowledge graph can see. Read-only: the stored graph is used where it is
 * fresh and changed files are extracted in memory; audit never writes it. Only the findings are
 * kept: the graph itself is garbage once this returns.
 */
async function graphPart(layout: WorkflowLayout): Promise<{ findings: GraphFinding[]; warnings: string[] }> {
  const opened = await openGraph(layout, { persist: false });
  return { findings: graphFindings(new KnowledgeGraph(opened.files)), warnings: opened.warnings };
}

/** Every reader of the audit, once each. */
export function readAuditInput(
  layout: WorkflowLayout,
  options: AuditKnowledgeOptions,
  runtime: Runtime,
): { input: AuditInput; loaded: LoadedCorpus } {
  const loaded = loadCorpusFiles(layout);
  const notes: string[] = [];
  const pipeline = readPipeline(layout, options.receipts ?? fileReceipts, (id, recordedAt) => {
    const r = resolveEntryRef(loaded.corpus, id, { recordedAt });
    return r.kind === 'entry' ? r.entry.id : id;
  });
  const read = options.exposure?.(layout);
  const exposure = read?.counts ?? null;
  if (read?.warning) notes.push(read.warning);
  if (!exposure) notes.push('exposure counters are not available; exposure concentration was not judged');
  const backups = listBackups(layout).backups;
  for (const b of backups) if (b.state === 'damaged') notes.push(`backup ${b.backup_id}: ${b.problem}`);
  return {
    loaded,
    input: {
      scope: options.scope ?? 'all',
      now: runtime.now(),
      entries: loaded.corpus.entries,
      issues: loaded.corpus.issues,
      files: loaded.corpus.files.map((f) => f.path),
      codeRefs: readCodeRefs(layout, loaded),
      pipeline: pipeline.snapshot,
      usage: { exposure, consumption: pipeline.consumption },
      evidence: pipeline.evidence,
      interruptedBackups: backups.filter((b) => b.state === 'applying').map((b) => b.backup_id),
      interruptedRestore: pendingRestore(layout, notes),
      leftoverTemps: findLeftoverTemps(layout.workflow).map((t) => relative(layout.root, t.path)),
      notes,
    },
  };
}

/** The backup of a pending restore intent; a damaged intent is still reported (and noted). */
function pendingRestore(layout: WorkflowLayout, notes: string[]): string | null {
  try {
    return readRestoreIntent(layout)?.backup_id ?? null;
  } catch (err) {
    notes.push((err as Error).message);
    return '(damaged restore intent)';
  }
}

/** Each in-project `codePaths` entry of each knowhow document, with whether it exists. */
export function readCodeRefs(layout: WorkflowLayout, loaded: LoadedCorpus): CodeRef[] {
  const out: CodeRef[] = [];
  for (const k of loaded.knowhow) {
    const raw = k.model.data?.codePaths;
    const list = Array.isArray(raw)
      ? raw.filter((x): x is string => typeof x === 'string')
      : typeof raw === 'string'
        ? [raw]
        : [];
    for (const path of codePathsToCheck(list)) {
      out.push({ id: k.entry.id, file: k.file, path, exists: existsSync(join(layout.root, path)) });
    }
  }
  return out;
}

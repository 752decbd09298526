import type { Issue } from '@maestro/core';
import type { GraphFinding } from '@maestro/graph';
import type { KnowledgeEntry } from '@maestro/spec';
import { exactDuplicateGroups } from './duplicates.js';
import { finding, sortFindings } from './finding.js';
import { analyzeLinks } from './links.js';
import { brokenKnowhowFiles, flagPendingTargets, inScope, notEditable, planPrune } from './plan.js';
import { type CodeRef, codeRefFindings, entryFindings, issueFindings, staleFindings } from './rules-corpus.js';
import { type EvidenceRow, evidenceSummary } from './rules-evidence.js';
import { linkFindings } from './rules-links.js';
import { EMPTY_PIPELINE, type PipelineSnapshot, pipelineFindings, pipelineTotals } from './rules-pipeline.js';
import { type UsageSnapshot, usageFindings } from './rules-usage.js';
import type { AuditReport, AuditScope, Finding, PrunePlan } from './schemas.js';

/** Everything the pure audit reads. The readers (`readAuditInput`) build it from disk. */
export interface AuditInput {
  scope: AuditScope;
  now: Date;
  entries: readonly KnowledgeEntry[];
  issues: readonly Issue[];
  /** Corpus files relative to `.workflow/`. */
  files: readonly string[];
  codeRefs?: readonly CodeRef[];
  pipeline?: PipelineSnapshot;
  usage?: UsageSnapshot;
  /** Validated / cited / contradicted judgements from the run ledgers. */
  evidence?: readonly EvidenceRow[];
  /** Backups whose apply never finished (state `applying`). */
  interruptedBackups?: readonly string[];
  /** The backup of a `knowledge restore` that stopped before it finished (its intent is pending). */
  interruptedRestore?: string | null;
  /** Temp files interrupted writes left under `.workflow/` (relative to the project root). */
  leftoverTemps?: readonly string[];
  notes?: readonly string[];
  /** Findings from the knowledge graph (broken chains, cross-session contradictions, duplicate clusters). */
  graphFindings?: readonly GraphFinding[];
}

export interface AuditOptions {
  prune?: boolean;
}

/**
 * The whole audit as a pure function: findings from every rule, sorted, and (with `prune`) the
 * deterministic soft-prune plan with pending-target flags. `applied` is left null; the applier
 * fills it in.
 */
export function buildAudit(input: AuditInput, options: AuditOptions = {}): AuditReport {
  const scope = input.scope;
  const within = (store: string) => inScope(scope, store);
  const links = analyzeLinks(input.entries);
  const duplicates = exactDuplicateGroups(input.entries);
  const rawPlan = planPrune({ entries: input.entries, issues: input.issues }, scope, links, duplicates);
  const pipeline = input.pipeline ?? EMPTY_PIPELINE;
  const usage = usageFindings(input.entries, input.usage ?? { exposure: null, consumption: null });
  const broken = brokenKnowhowFiles(input.issues);
  const evidence = evidenceSummary(input.entries, input.evidence ?? [], within);
  const findings: Finding[] = [
    ...linkFindings(input.entries, links, duplicates, rawPlan, (e) => notEditable(e, links, broken), within),
    ...entryFindings(input.entries, new Set(input.files), input.now, within, broken),
    ...staleFindings(input.entries, input.now, within),
    ...issueFindings(input.issues, within),
    ...codeRefFindings(input.codeRefs ?? [], within),
    ...pipelineFindings(pipeline),
    ...usage.findings,
    ...evidence.findings,
    ...(input.interruptedBackups ?? []).map(interruptedFinding),
    ...(input.interruptedRestore ? [interruptedRestoreFinding(input.interruptedRestore)] : []),
    ...(input.leftoverTemps ?? []).map(leftoverTempFinding),
    ...(input.graphFindings ?? []).filter((f) => f.store === 'pipeline' || within(f.store)).map((f) => finding(f)),
  ];
  const sorted = sortFindings(findings);
  const plan: PrunePlan | null = options.prune ? flagPendingTargets(rawPlan, pipeline.pendingTargets) : null;
  return {
    schema_version: 'maestro-knowledge-audit/1.0',
    scope,
    generated_at: input.now.toISOString(),
    spec: within('spec') ? specStats(input.entries) : null,
    knowhow: within('knowhow') ? knowhowStats(input.entries, broken) : null,
    pipeline: pipelineTotals(pipeline),
    usage: { exposure: usage.exposure, consumption: usage.consumption },
    evidence: evidence.summary,
    counts: {
      P0: sorted.filter((f) => f.priority === 'P0').length,
      P1: sorted.filter((f) => f.priority === 'P1').length,
      P2: sorted.filter((f) => f.priority === 'P2').length,
    },
    findings: sorted,
    prune_plan: plan,
    applied: null,
    notes: [...(input.notes ?? [])],
    safety: { usage_only_never_pruned: true, physical_delete: false, apply_requires_prune: true },
  };
}

function interruptedFinding(backupId: string): Finding {
  return finding({
    priority: 'P0',
    store: 'pipeline',
    subtype: 'interrupted-apply',
    target: backupId,
    file: `.workflow/.trash/${backupId}`,
    evidence: `an audit apply stopped before it finished; the corpus may hold part of its edits (backup ${backupId})`,
    recommended_action: 'review',
    command: `maestro knowledge restore ${backupId}`,
  });
}

function interruptedRestoreFinding(backupId: string): Finding {
  return finding({
    priority: 'P0',
    store: 'pipeline',
    subtype: 'interrupted-restore',
    target: backupId,
    file: '.workflow/.knowledge-restore.intent.json',
    evidence: `a knowledge restore stopped before it finished; the corpus holds part of backup ${backupId}`,
    recommended_action: 'review',
    command: `maestro knowledge restore ${backupId}`,
  });
}

function leftoverTempFinding(path: string): Finding {
  return finding({
    priority: 'P2',
    store: 'pipeline',
    subtype: 'leftover-temp-file',
    target: path,
    file: path,
    evidence: `${path} is the temp file of a write that was killed before its rename; its target was never changed by it`,
    recommended_action: 'observe',
  });
}

function specStats(entries: readonly KnowledgeEntry[]) {
  const s = { total: 0, active: 0, deprecated: 0, contested: 0, without_sid: 0, legacy: 0 };
  for (const e of entries) {
    if (e.store !== 'spec') continue;
    s.total++;
    if (e.status === 'active') s.active++;
    else s.deprecated++;
    if (e.confidence === 'contested') s.contested++;
    if (!e.hasSid) s.without_sid++;
    if (e.legacy) s.legacy++;
  }
  return s;
}

function knowhowStats(entries: readonly KnowledgeEntry[], broken: ReadonlySet<string>) {
  const s = { total: 0, active: 0, deprecated: 0, invalid: 0 };
  for (const e of entries) {
    if (e.store !== 'knowhow') continue;
    s.total++;
    if (e.status === 'active') s.active++;
    else s.deprecated++;
    if (broken.has(e.file)) s.invalid++;
  }
  return s;
}

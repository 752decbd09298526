import { SpecHealthOutput } from '@maestro/spec/schemas';
import { z } from 'zod';

/**
 * Everything this package persists or prints. Finding, plan and log field names follow
 * maestro-flow's `knowledge-audit/1.0` (snake_case, `KAU-`/`KPA-`/`AUD-` ids) so the two tools'
 * audit logs read the same; additions are documented per field.
 */

export const PRIORITIES = ['P0', 'P1', 'P2'] as const;
export const FINDING_STORES = ['spec', 'knowhow', 'pipeline', 'usage'] as const;
export const RECOMMENDED_ACTIONS = ['observe', 'review', 'deprecate', 'fix'] as const;
export const AUDIT_SCOPES = ['spec', 'knowhow', 'all'] as const;
export const PRUNE_REASONS = ['unsynchronized-supersession', 'one-sided-link', 'exact-duplicate'] as const;
export const BACKUP_STATES = ['applying', 'applied', 'rolled-back', 'restored'] as const;

const Iso = z.iso.datetime({ offset: true });
const Hex64 = z.string().regex(/^[a-f0-9]{64}$/);
const Store = z.enum(['spec', 'knowhow']);

export const FindingSchema = z.strictObject({
  id: z
    .string()
    .regex(/^KAU-[a-f0-9]{10}$/)
    .describe('KAU- + 10 hex of sha256(subtype, store, target, key)'),
  priority: z.enum(PRIORITIES),
  store: z.enum(FINDING_STORES),
  subtype: z.string().describe('e.g. exact-duplicate, supersession-cycle, invalid-knowledge-ledger'),
  target: z.string().describe('the knowledge id, session, file or counter the finding is about'),
  file: z.string().nullable().describe('project-relative path of the file to look at, when there is one'),
  line: z.number().int().nullable(),
  evidence: z.string().max(500),
  related: z.array(z.string()).describe('other ids involved: successor, canonical, cycle members, ...'),
  recommended_action: z.enum(RECOMMENDED_ACTIONS),
  command: z.string().nullable().describe('the next command to run, when one helps'),
});

export const PendingTargetSchema = z.strictObject({
  candidate_id: z.string(),
  session_id: z.string(),
  run_id: z.string(),
});

export const PruneActionSchema = z.strictObject({
  id: z.string().regex(/^KPA-[a-f0-9]{10}$/),
  store: Store.describe("the target's store"),
  action: z.enum(['deprecate', 'supersede']).describe('deprecate for specs, supersede for knowhow; both sides always'),
  target_id: z.string(),
  target_file: z.string().describe('project-relative'),
  successor_id: z.string(),
  successor_store: Store,
  successor_file: z.string().describe('project-relative'),
  reason: z.enum(PRUNE_REASONS),
  finding_id: z.string(),
  pending_targets: z
    .array(PendingTargetSchema)
    .describe(
      'pending candidates with a fresh receipt that match target_id; --apply skips the action unless --include-pending-targets',
    ),
});

export const PrunePlanSchema = z
  .strictObject({
    schema_version: z.literal('maestro-prune-plan/1.0'),
    plan_id: z.string().describe('sha256 of the canonical JSON of scope + actions; equal corpora give equal ids'),
    scope: z.enum(AUDIT_SCOPES),
    actions: z.array(PruneActionSchema),
  })
  .describe('The deterministic soft-prune plan of `maestro knowledge audit --prune`');

const UsageStats = z.strictObject({
  available: z.boolean(),
  events: z.number().int(),
  entries: z.number().int().describe('active entries counted'),
  top10_share: z.number().nullable(),
  gini: z.number().nullable(),
});

export const EntryEvidenceSchema = z.strictObject({
  knowledge_id: z.string(),
  validated_sessions: z.number().int().describe('distinct sessions with a run that recorded `validated`'),
  cited_sessions: z.number().int().describe('distinct sessions that cited it without validating it'),
  contradicted_sessions: z.number().int().describe('distinct sessions with a run that recorded `contradicted`'),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe('(1 + v + 0.5·c) / (2 + v + 0.5·c + x) over distinct sessions; 0.5 without evidence'),
  contradicted_runs: z.array(z.string()).describe('<session>/<run> of every run that contradicted it'),
});

export const EvidenceSummarySchema = z.strictObject({
  entries: z.number().int().describe('entries with any validated, cited or contradicted signal'),
  supported: z.number().int().describe('entries with confidence above 0.5'),
  contradicted: z.number().int().describe('entries contradicted at least once'),
  below_threshold: z.number().int().describe('active entries contradicted below the finding threshold (0.35)'),
  by_entry: z.array(EntryEvidenceSchema),
  note: z.string(),
});

export const AppliedSchema = z.strictObject({
  count: z.number().int(),
  audit_id: z.string().nullable(),
  backup_id: z.string().nullable(),
  backup_dir: z.string().nullable().describe('project-relative'),
  applied_actions: z.array(z.string()),
  skipped_pending_targets: z.array(z.string()).describe('action ids skipped because their target is a pending match'),
});

export const AuditReportSchema = z
  .strictObject({
    schema_version: z.literal('maestro-knowledge-audit/1.0'),
    scope: z.enum(AUDIT_SCOPES),
    generated_at: Iso,
    spec: z
      .strictObject({
        total: z.number().int(),
        active: z.number().int(),
        deprecated: z.number().int(),
        contested: z.number().int(),
        without_sid: z.number().int(),
        legacy: z.number().int(),
      })
      .nullable(),
    knowhow: z
      .strictObject({
        total: z.number().int(),
        active: z.number().int(),
        deprecated: z.number().int(),
        invalid: z.number().int(),
      })
      .nullable(),
    pipeline: z.strictObject({
      sessions: z.number().int(),
      runs: z.number().int(),
      ledgers: z.number().int(),
      receipts: z.number().int().describe('receipts read for the pending-target guard (runs with pending candidates)'),
      invalid_files: z.number().int(),
      pending_observed: z.number().int(),
      pending_corroborated: z.number().int(),
      promoting: z.number().int(),
      promoted: z.number().int(),
      rejected: z.number().int(),
    }),
    usage: z.strictObject({ exposure: UsageStats, consumption: UsageStats }),
    evidence: EvidenceSummarySchema.describe('knowledge confidence from run-ledger judgements (never from exposure)'),
    counts: z.strictObject({ P0: z.number().int(), P1: z.number().int(), P2: z.number().int() }),
    findings: z.array(FindingSchema),
    prune_plan: PrunePlanSchema.nullable().describe('null without --prune'),
    applied: AppliedSchema.nullable().describe('null without --apply'),
    notes: z.array(z.string()).describe('what the audit could not look at, e.g. missing exposure counters'),
    safety: z.strictObject({
      usage_only_never_pruned: z.literal(true),
      physical_delete: z.literal(false),
      apply_requires_prune: z.literal(true),
    }),
  })
  .describe('maestro knowledge audit --json');

const LogBase = { audit_id: z.string(), backup_id: z.string(), backup_path: z.string() };

export const AuditLogLineSchema = z
  .discriminatedUnion('event', [
    z.strictObject({
      event: z.literal('apply'),
      ...LogBase,
      action_id: z.string(),
      store: Store,
      target_id: z.string(),
      successor_id: z.string(),
      action: z.enum(['deprecate', 'supersede']),
      reason: z.enum(PRUNE_REASONS),
      applied_at: Iso,
    }),
    z.strictObject({
      event: z.literal('rollback'),
      ...LogBase,
      error: z.string(),
      files: z.array(z.string()),
      at: Iso,
    }),
    z.strictObject({
      event: z.literal('restore'),
      ...LogBase,
      files: z.array(z.string()),
      forced: z.boolean(),
      changed_since_apply: z.array(z.string()),
      at: Iso,
    }),
  ])
  .describe('One line of .workflow/.knowledge-audit/audit-log.jsonl');

export const BackupFileSchema = z.strictObject({
  path: z.string().describe('project-relative'),
  before_sha256: Hex64,
  after_sha256: Hex64.describe('each file is written once, straight from before to after'),
});

export const AuditBackupManifestSchema = z
  .strictObject({
    schema_version: z.literal('maestro-audit-backup/1.0'),
    backup_id: z.string(),
    audit_id: z.string(),
    plan_id: z.string(),
    created_at: Iso,
    state: z.enum(BACKUP_STATES),
    updated_at: Iso,
    actions: z.array(z.string()),
    files: z.array(BackupFileSchema),
  })
  .describe('.workflow/.trash/knowledge-audit-<stamp>/audit-backup.json');

export const BackupListSchema = z
  .strictObject({
    schema_version: z.literal('maestro-audit-backups/1.0'),
    backups: z.array(
      z.strictObject({
        backup_id: z.string(),
        dir: z.string().describe('project-relative'),
        created_at: Iso.nullable(),
        state: z.enum([...BACKUP_STATES, 'damaged']),
        audit_id: z.string().nullable(),
        actions: z.number().int(),
        files: z.array(z.string()),
        problem: z.string().nullable(),
      }),
    ),
  })
  .describe('maestro knowledge audit --backups --json');

export const RestoreResultSchema = z
  .strictObject({
    schema_version: z.literal('maestro-audit-restore/1.0'),
    backup_id: z.string(),
    restored: z.boolean(),
    files: z.array(z.string()).describe('files put back (empty when refused)'),
    changed_since_apply: z
      .array(z.string())
      .describe('files edited after the apply; restore refuses them without --force'),
    forced: z.boolean(),
    already_restored: z
      .boolean()
      .describe('the backup was restored before and every file still holds its backed-up bytes: nothing was written'),
  })
  .describe('maestro knowledge restore --json');

export type Priority = (typeof PRIORITIES)[number];
export type FindingStore = (typeof FINDING_STORES)[number];
export type RecommendedAction = (typeof RECOMMENDED_ACTIONS)[number];
export type AuditScope = (typeof AUDIT_SCOPES)[number];
export type PruneReason = (typeof PRUNE_REASONS)[number];
export type BackupState = (typeof BACKUP_STATES)[number];
export type Finding = z.infer<typeof FindingSchema>;
export type PendingTarget = z.infer<typeof PendingTargetSchema>;
export type PruneAction = z.infer<typeof PruneActionSchema>;
export type PrunePlan = z.infer<typeof PrunePlanSchema>;
export type AuditReport = z.infer<typeof AuditReportSchema>;
export type Applied = z.infer<typeof AppliedSchema>;
export type UsageStats = z.infer<typeof UsageStats>;
export type EntryEvidence = z.infer<typeof EntryEvidenceSchema>;
export type EvidenceSummary = z.infer<typeof EvidenceSummarySchema>;
export type AuditLogLine = z.infer<typeof AuditLogLineSchema>;
export type AuditBackupManifest = z.infer<typeof AuditBackupManifestSchema>;
export type BackupList = z.infer<typeof BackupListSchema>;
export type RestoreResult = z.infer<typeof RestoreResultSchema>;

export const SpecHealthEvidenceOutput = SpecHealthOutput.extend({
  evidence: EvidenceSummarySchema.describe('spec entries only'),
  evidence_findings: z.array(FindingSchema).describe('spec entries contradicted below the threshold, with their runs'),
}).describe('maestro spec health --json: the corpus counts plus knowledge confidence from run-ledger evidence');

/** Every schema this package publishes in schemas/, by file name. */
export const jsonSchemas = {
  'audit-report': AuditReportSchema,
  'audit-prune-plan': PrunePlanSchema,
  'audit-log-line': AuditLogLineSchema,
  'audit-backup-manifest': AuditBackupManifestSchema,
  'audit-backup-list': BackupListSchema,
  'audit-restore-result': RestoreResultSchema,
  'spec-health-evidence-output': SpecHealthEvidenceOutput,
};

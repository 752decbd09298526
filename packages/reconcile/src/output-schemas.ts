import { z } from 'zod';
import {
  CHOICES,
  DISPOSITIONS,
  DroppedResolutionSchema,
  ELIGIBILITIES,
  FRESHNESS,
  MatchSchema,
  ReceiptSchema,
  ResolutionSchema,
} from './schemas.js';

const IssueSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  hint: z.string().optional(),
});

const RunResultSchema = z.object({
  run_id: z.string(),
  before: z.enum([...FRESHNESS, 'corrupt']),
  after: z.enum(FRESHNESS),
  reasons: z.array(z.string()),
  regenerated: z.boolean(),
  revalidated: z
    .strictObject({ from: z.string(), added: z.number().int(), changed: z.number().int(), removed: z.number().int() })
    .nullable()
    .optional()
    .describe(
      'set when a receipt made against an older corpus was found to hold: the old fingerprint and the entry delta',
    ),
  candidates: z.number().int(),
  carried_over: z.number().int(),
  dropped: z.number().int(),
  corrupt_copy: z.string().nullable(),
});

const Disposition = z.enum(DISPOSITIONS);
const Eligibility = z.enum(ELIGIBILITIES);

export const ReviewOutput = z
  .object({
    schema_version: z.literal('knowledge-review/1.0'),
    session_id: z.string(),
    session_status: z.string(),
    matcher_revision: z.string(),
    corpus_fingerprint: z.string(),
    runs: z.array(RunResultSchema),
    counts: z.object({
      candidates: z.number().int(),
      fresh: z.number().int(),
      stale: z.number().int(),
      missing: z.number().int(),
      review_required: z.number().int(),
      eligible: z.number().int(),
      suppressed: z.number().int(),
      promoted: z.number().int(),
    }),
    candidates: z.array(
      z.object({
        candidate_id: z.string(),
        title: z.string(),
        target: z.enum(['spec', 'knowhow']),
        action: z.string(),
        category: z.string().nullable(),
        status: z.enum(['pending', 'promoting', 'promoted', 'rejected', 'draft']),
        stage: z.enum(['observed', 'corroborated']),
        run_ids: z.array(z.string()),
        occurrences: z.number().int(),
        first_recorded_at: z.string().nullable(),
        content_snippet: z.string(),
        evidence_refs: z.array(z.string()),
        freshness: z.enum(FRESHNESS),
        stale_runs: z.array(z.string()),
        disposition: Disposition.nullable(),
        promotion_eligibility: Eligibility.nullable(),
        canonical_id: z.string().nullable(),
        reaffirms: z.string().nullable(),
        resolution: ResolutionSchema.nullable(),
        canonical: z
          .object({
            id: z.string(),
            title: z.string().nullable(),
            status: z.enum(['active', 'deprecated', 'missing']),
            superseded_by: z.string().nullable(),
            file: z.string().nullable(),
            line: z.number().int().nullable(),
          })
          .nullable(),
        matches: z.array(
          MatchSchema.pick({
            knowledge_id: true,
            title: true,
            target: true,
            relation: true,
            scores: true,
            evidence: true,
            source_path: true,
            source_line: true,
          }).extend({ composite: z.number() }),
        ),
        dropped_resolution: DroppedResolutionSchema.nullable(),
        next: z.object({
          refresh: z.string().nullable(),
          resolve: z.array(z.string()),
          offers: z.array(
            z.object({ choice: z.enum(CHOICES), contest: z.boolean(), meaning: z.string(), command: z.string() }),
          ),
          promote: z.string().nullable(),
        }),
      }),
    ),
    problems: z.array(IssueSchema),
  })
  .describe('maestro knowledge review <session> --json');

export const ResolutionOutput = z
  .object({
    schema_version: z.literal('knowledge-resolution/1.0'),
    session_id: z.string(),
    choice: z.enum(CHOICES),
    contest: z.boolean().describe('with choice conflict: the target was marked contested (--contest)'),
    reason: z.string(),
    resolved: z.array(
      z.object({
        candidate_id: z.string(),
        disposition: Disposition,
        promotion_eligibility: Eligibility,
        canonical_id: z.string().nullable(),
        affected_runs: z.array(z.string()),
        conflict_marked: z.boolean(),
        ledger_status: z.enum(['pending', 'promoting', 'promoted', 'rejected']),
      }),
    ),
    warnings: z.array(z.string()),
  })
  .describe('maestro knowledge review <session> --resolve ... | --all-as ... --json');

const BacklogChange = z.object({
  session_id: z.string(),
  candidate_id: z.string(),
  run_ids: z.array(z.string()),
  reason: z.string(),
});

export const BacklogOutput = z
  .object({
    schema_version: z.literal('knowledge-backlog/1.0'),
    generated_at: z.string(),
    items: z.array(
      z.object({
        session_id: z.string(),
        candidate_id: z.string(),
        title: z.string(),
        target: z.enum(['spec', 'knowhow']),
        status: z.enum(['pending', 'promoting', 'promoted', 'rejected']),
        stage: z.enum(['observed', 'corroborated']),
        run_ids: z.array(z.string()),
        first_recorded_at: z.string(),
        age_days: z.number().int(),
        freshness: z.enum(FRESHNESS),
        disposition: Disposition.nullable(),
        promotion_eligibility: Eligibility.nullable(),
        canonical_id: z.string().nullable(),
        command: z.string(),
      }),
    ),
    counts: z.object({
      sessions: z.number().int(),
      pending: z.number().int(),
      observed: z.number().int(),
      corroborated: z.number().int(),
      review_required: z.number().int(),
      unreconciled: z.number().int(),
    }),
    expired: z.array(BacklogChange),
    restored: z.array(BacklogChange),
    problems: z.array(IssueSchema),
  })
  .describe('maestro knowledge backlog --json');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'knowledge-reconciliation': ReceiptSchema,
  'knowledge-review-output': ReviewOutput,
  'knowledge-resolution-output': ResolutionOutput,
  'knowledge-backlog-output': BacklogOutput,
};

import { z } from 'zod';

/**
 * The persisted formats this package owns. One generation each: readers accept exactly these
 * shapes and nothing else. `knowledge-delta.json` is field-compatible with maestro-flow's
 * `run-knowledge-delta/1.0` and, like it, strict (unknown keys are a damaged file).
 * `session.json` and `run.json` keep keys they do not know, so another tool's additions survive
 * our rewrites.
 */

export const SESSION_ID_PATTERN = /^\d{8}-[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const RUN_ID_PATTERN = /^\d{8}-\d{3}-[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CANDIDATE_ID = /^KDC-[a-f0-9]{16}$/;
const HEX64 = /^[a-f0-9]{64}$/;

const Iso = z.iso.datetime({ offset: true });
const NonEmpty = z.string().trim().min(1);

export const SIGNALS = ['consumed', 'cited', 'validated', 'contradicted'] as const;
export const INPUT_SOURCES = ['load', 'search', 'injection', 'manual'] as const;
export const TARGETS = ['spec', 'knowhow'] as const;
export const ACTIONS = ['propose', 'reaffirm', 'supersede', 'contest'] as const;
/** `memory`: staged by `maestro memory promote` from a private memory record (evidence `memory:<agent>/<id>`). */
export const SOURCE_KINDS = ['decision', 'constraint', 'manual', 'memory'] as const;
export const CANDIDATE_STATUSES = ['pending', 'promoting', 'promoted', 'rejected'] as const;
export const SESSION_STATUSES = ['running', 'sealed'] as const;
export const RUN_STATUSES = ['running', 'completed', 'sealed'] as const;

export const SessionRecordSchema = z
  .looseObject({
    schema_version: z.literal('maestro-session/1.0'),
    session_id: z.string().regex(SESSION_ID_PATTERN),
    title: z.string(),
    status: z.enum(SESSION_STATUSES),
    created_at: Iso,
    updated_at: Iso,
    /** Incremented on every write of session.json. */
    revision: z.number().int().min(0),
    lifecycle: z.strictObject({
      sealed_at: Iso.nullable(),
      seal_summary: z.string().nullable(),
      promoted_spec_ids: z.array(z.string()),
      promoted_knowhow_ids: z.array(z.string()),
    }),
  })
  .describe('.workflow/sessions/<session>/session.json');

export const RunRecordSchema = z
  .looseObject({
    schema_version: z.literal('maestro-run/1.0'),
    run_id: z.string().regex(RUN_ID_PATTERN),
    session_id: z.string().regex(SESSION_ID_PATTERN),
    command: z.string().min(1),
    /** running → completed → sealed; a sealed run is immutable. */
    status: z.enum(RUN_STATUSES),
    created_at: Iso,
    updated_at: Iso,
    completed_at: Iso.nullable(),
    sealed_at: Iso.nullable(),
    summary: z.string().nullable(),
    revision: z.number().int().min(0),
  })
  .describe('.workflow/sessions/<session>/runs/<run>/run.json');

export const LedgerInputSchema = z.strictObject({
  knowledge_id: NonEmpty,
  signal: z.enum(SIGNALS),
  source: z.enum(INPUT_SOURCES),
  count: z.number().int().min(1),
  first_recorded_at: Iso,
  last_recorded_at: Iso,
  evidence: z.array(z.string()).optional(),
});

export const PromotionReceiptSchema = z.strictObject({
  outcome: z.enum(['created', 'reaffirmed']),
  promoted_at: Iso,
  content_hash: z.string().regex(HEX64),
});

export const RejectionSchema = z
  .strictObject({ reason: z.string(), at: Iso })
  .describe('why a candidate was soft-rejected; clearing it (status back to pending) reverses the rejection');

export const LedgerCandidateSchema = z.strictObject({
  candidate_id: z.string().regex(CANDIDATE_ID),
  target: z.enum(TARGETS),
  action: z.enum(ACTIONS),
  title: NonEmpty,
  content: NonEmpty,
  category: z.string().nullable(),
  source_kind: z.enum(SOURCE_KINDS),
  evidence_refs: z.array(z.string()),
  occurrences: z.number().int().min(1),
  first_recorded_at: Iso,
  last_recorded_at: Iso,
  status: z.enum(CANDIDATE_STATUSES),
  promoted_id: z.string().nullable(),
  promotion_receipt: PromotionReceiptSchema.nullable().optional(),
  rejection: RejectionSchema.nullable().optional(),
});

export const KnowledgeDeltaSchema = z
  .strictObject({
    schema_version: z.literal('run-knowledge-delta/1.0'),
    session_id: NonEmpty,
    run_id: NonEmpty,
    revision: z.number().int().min(0),
    created_at: Iso,
    updated_at: Iso,
    inputs: z.array(LedgerInputSchema),
    candidates: z.array(LedgerCandidateSchema),
  })
  .describe('.workflow/sessions/<session>/runs/<run>/knowledge-delta.json (run-knowledge-delta/1.0)');

export type SessionRecord = z.infer<typeof SessionRecordSchema>;
export type RunRecord = z.infer<typeof RunRecordSchema>;
export type LedgerInput = z.infer<typeof LedgerInputSchema>;
export type LedgerCandidate = z.infer<typeof LedgerCandidateSchema>;
export type PromotionReceipt = z.infer<typeof PromotionReceiptSchema>;
export type KnowledgeDelta = z.infer<typeof KnowledgeDeltaSchema>;
export type Signal = (typeof SIGNALS)[number];
export type InputSource = (typeof INPUT_SOURCES)[number];
export type CandidateAction = (typeof ACTIONS)[number];
export type SourceKind = (typeof SOURCE_KINDS)[number];
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

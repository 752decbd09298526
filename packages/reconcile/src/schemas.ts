import { z } from 'zod';

/**
 * Persisted formats and `--json` outputs of @maestro/reconcile. The receipt is field-compatible
 * with maestro-flow's `knowledge-reconciliation/1.0`; our additions are optional fields, and
 * `matcher_revision` is any string (compared as a freshness fence, never a literal that throws).
 */

const Hex64 = z.string().regex(/^[a-f0-9]{64}$/);
const CandidateId = z.string().regex(/^KDC-[a-f0-9]{16}$/);
const Iso = z.string().min(1);
const Score = z.number().min(0).max(1);

export const DISPOSITIONS = [
  'unique',
  'exact_duplicate',
  'semantic_duplicate',
  'extends',
  'related',
  'potential_conflict',
  'supersede_candidate',
] as const;
export const ELIGIBILITIES = ['eligible', 'review_required', 'suppressed'] as const;
export const CHOICES = ['duplicate', 'related', 'conflict', 'supersede', 'unique'] as const;
export const FRESHNESS = ['missing', 'stale', 'fresh'] as const;

export const MatchSchema = z.object({
  knowledge_id: z.string().min(1),
  target: z.enum(['spec', 'knowhow']),
  title: z.string(),
  relation: z.enum(DISPOSITIONS).exclude(['unique']),
  scores: z.object({
    lexical: Score,
    semantic: Score,
    title: Score,
    relation: Score,
    stance: Score,
    composite: Score,
  }),
  novelty: Score,
  evidence: z.array(z.string()),
  target_content_hash: z.string(),
  source_path: z.string(),
  source_line: z.number().int().nullable(),
});

export const ResolutionSchema = z.object({
  status: z.enum(['automatic', 'confirmed']),
  reason: z.string(),
  resolved_at: Iso,
  /** Ours: the human choice, and the content it was made about (for carry-over). */
  choice: z.enum(CHOICES).optional(),
  target_id: z.string().nullable().optional(),
  candidate_content_hash: Hex64.optional(),
  target_content_hash: z.string().nullable().optional(),
  /**
   * Ours: with choice `conflict`, true when the person left the question open and the target was
   * marked contested (`--contest`). Absent: the existing rule stands, untouched.
   */
  contested: z.boolean().optional(),
  /** Ours: set when the resolution was carried into a regenerated receipt. */
  carried_over_at: Iso.optional(),
});

export const ReceiptCandidateSchema = z.object({
  candidate_id: CandidateId,
  disposition: z.enum(DISPOSITIONS),
  promotion_eligibility: z.enum(ELIGIBILITIES),
  canonical_id: z.string().nullable(),
  matches: z.array(MatchSchema),
  resolution: ResolutionSchema.nullable(),
  /** Ours: the entry a `reaffirm` candidate reaffirms (promotion records `reaffirmed`, no new entry). */
  reaffirms: z.string().nullable().optional(),
  /** Ours: contentHash of the candidate content when the verdict was made. */
  content_hash: Hex64.optional(),
});

export const DroppedResolutionSchema = z.object({
  candidate_id: CandidateId,
  choice: z.enum(CHOICES).nullable(),
  target_id: z.string().nullable(),
  reason: z.string(),
  resolved_at: Iso,
  dropped_because: z.enum(['candidate-changed', 'target-changed', 'target-missing', 'new-evidence']),
  dropped_at: Iso,
});

export const CorpusDeltaSchema = z.object({
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
});

export const RevalidatedFromSchema = z
  .object({
    corpus_fingerprint: Hex64,
    delta: CorpusDeltaSchema,
    revalidated_at: Iso,
  })
  .describe('the corpus state this receipt was made against before it was revalidated, and what changed since');

export const ReceiptSchema = z
  .object({
    schema_version: z.literal('knowledge-reconciliation/1.0'),
    session_id: z.string().min(1),
    run_id: z.string().min(1),
    candidate_snapshot_hash: Hex64,
    corpus_fingerprint: Hex64,
    matcher_revision: z.string().min(1),
    generated_at: Iso,
    retrieval: z.object({
      mode: z.enum(['lexical-kg', 'hybrid']),
      embedding_used: z.boolean(),
      candidate_limit: z.number().int(),
      identity_documents: z.number().int(),
      semantic_documents: z.number().int(),
      relation_documents: z.number().int(),
    }),
    counts: z.object({
      candidates: z.number().int(),
      unique: z.number().int(),
      duplicates: z.number().int(),
      related: z.number().int(),
      conflicts: z.number().int(),
      review_required: z.number().int(),
      suppressed: z.number().int(),
    }),
    candidates: z.array(ReceiptCandidateSchema),
    /** Ours: confirmed resolutions a regeneration could not keep, and why (the review view shows them). */
    dropped_resolutions: z.array(DroppedResolutionSchema).optional(),
    /**
     * Ours: the hash of every corpus entry the fingerprint covered (id → 16 hex, see `entryHash`), so
     * a later corpus state can be compared entry by entry on any clone.
     */
    corpus_entries: z.record(z.string(), z.string().regex(/^[a-f0-9]{16}$/)).optional(),
    /** Ours: set when the receipt was carried to a newer corpus without a verdict changing. */
    revalidated_from: RevalidatedFromSchema.optional(),
  })
  .describe('.workflow/sessions/<session>/runs/<run>/knowledge-reconciliation.json (knowledge-reconciliation/1.0)');

export type Receipt = z.infer<typeof ReceiptSchema>;
export type ReceiptCandidate = z.infer<typeof ReceiptCandidateSchema>;
export type ReceiptResolution = z.infer<typeof ResolutionSchema>;
export type DroppedResolution = z.infer<typeof DroppedResolutionSchema>;
export type CorpusDelta = z.infer<typeof CorpusDeltaSchema>;
export type RevalidatedFrom = z.infer<typeof RevalidatedFromSchema>;
export type Choice = (typeof CHOICES)[number];
export type Freshness = (typeof FRESHNESS)[number];

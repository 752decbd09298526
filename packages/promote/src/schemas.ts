import { z } from 'zod';

/**
 * The formats this package owns: the `--json` result of `maestro knowledge promote`
 * (`knowledge-promotion-result/1.0`) and the promotion intent journal
 * (`.workflow/.promote-commit.intent.json`, a `maestro-commit-intent/1.0` whose `meta` is ours).
 */

const Target = z.enum(['spec', 'knowhow']);
const Outcome = z.enum(['created', 'reaffirmed']);

export const SKIP_REASONS = ['review_required', 'suppressed', 'conflict', 'rejected', 'unsealed_run'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export const PromotedItem = z.object({
  candidate_id: z.string(),
  target: Target,
  title: z.string(),
  outcome: Outcome.describe('created: a new entry was written; reaffirmed: an existing entry was confirmed'),
  promoted_id: z.string().describe('spec sid (S-YYYYMMDD-<16hex>) or knowhow id (knowhow-tip-YYYYMMDD-<16hex>)'),
  replayed: z
    .boolean()
    .describe(
      'true when the entry was already written by an interrupted or concurrent promotion and only completed now',
    ),
  file: z.string().describe('the file holding the entry, relative to .workflow/'),
  doc_file: z
    .string()
    .nullable()
    .describe('knowhow/DOC-….md holding the full text when the content exceeded 2048 characters'),
  supersedes: z.string().nullable().describe('the entry this one superseded (now deprecated), if any'),
  run_ids: z.array(z.string()),
  stage: z.enum(['observed', 'corroborated']),
});

export const AlreadyPromotedItem = z.object({
  candidate_id: z.string(),
  promoted_id: z.string().nullable(),
  outcome: Outcome.nullable(),
  promoted_at: z.string().nullable(),
});

export const SkippedItem = z.object({
  candidate_id: z.string(),
  title: z.string(),
  disposition: z.string().nullable(),
  canonical_id: z.string().nullable(),
  reason: z.string().describe('why it was not promoted'),
  command: z.string().describe('the command that would unblock it'),
});

export const PromotionWarning = z.object({
  code: z.string(),
  candidate_id: z.string().nullable(),
  message: z.string(),
});

export const PromotionResultSchema = z
  .object({
    schema_version: z.literal('knowledge-promotion-result/1.0'),
    session_id: z.string(),
    selection: z.enum(['all', 'explicit']),
    promoted: z.array(PromotedItem),
    already_promoted: z.array(AlreadyPromotedItem),
    skipped: z
      .object(
        Object.fromEntries(SKIP_REASONS.map((r) => [r, z.array(SkippedItem)])) as Record<
          SkipReason,
          z.ZodArray<typeof SkippedItem>
        >,
      )
      .describe('candidates left pending (or rejected), grouped by reason'),
    warnings: z.array(PromotionWarning).describe('e.g. observed_only: promoted although only one run staged it'),
    recovered: z
      .object({ intent_id: z.string(), session_id: z.string(), candidate_ids: z.array(z.string()) })
      .nullable()
      .describe('an interrupted promotion this command completed first'),
    files: z.array(z.string()).describe('files written, relative to .workflow/'),
  })
  .describe('maestro knowledge promote --json (knowledge-promotion-result/1.0)');

export type PromotionResult = z.infer<typeof PromotionResultSchema>;
export type PromotedEntry = z.infer<typeof PromotedItem>;
export type AlreadyPromotedEntry = z.infer<typeof AlreadyPromotedItem>;
export type SkippedEntry = z.infer<typeof SkippedItem>;
export type PromotionWarningEntry = z.infer<typeof PromotionWarning>;

const Changes = z.record(z.string(), z.string().nullable());

export const FileOpSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('append-entry'), sid: z.string(), block: z.string() }),
  z.object({ kind: z.literal('set-attributes'), id: z.string(), changes: Changes }),
  z.object({ kind: z.literal('create-document'), text: z.string(), explicit_id: z.string(), content_hash: z.string() }),
  z.object({ kind: z.literal('deprecate-document'), superseded_by: z.string() }),
  z.object({
    kind: z.literal('mark-promoted'),
    candidate_id: z.string(),
    promoted_id: z.string(),
    receipt: z.object({ outcome: Outcome, promoted_at: z.string(), content_hash: z.string() }),
  }),
  z.object({ kind: z.literal('add-promoted-ids'), spec: z.array(z.string()), knowhow: z.array(z.string()) }),
]);

export const FilePlanSchema = z.object({
  path: z.string().describe('relative to .workflow/'),
  kind: z.enum(['spec', 'knowhow', 'ledger', 'session']),
  before_sha256: z.string().nullable().describe('sha256 of the file when planned; null when it did not exist'),
  ops: z.array(FileOpSchema).describe('re-applied to the current text when the file changed since planning'),
});

export const PromotionIntentMetaSchema = z.object({
  kind: z.literal('knowledge-promotion/1.0'),
  session_id: z.string(),
  at: z.string().describe('the promotion time: promoted_at, updated_at of ledgers and session.json'),
  files: z.array(FilePlanSchema),
  promoted: z.array(PromotedItem),
});

export const PromotionIntentSchema = z
  .object({
    schema_version: z.literal('maestro-commit-intent/1.0'),
    id: z.string(),
    created_at: z.string(),
    writes: z.array(
      z.union([
        z.object({ path: z.string(), sha256: z.string(), content: z.string() }),
        z
          .object({ path: z.string(), replay: z.literal('ops') })
          .describe(
            'a spec file: its bytes are rebuilt from meta.files[].ops applied to the text they were planned on',
          ),
      ]),
    ),
    meta: PromotionIntentMetaSchema,
  })
  .describe(
    '.workflow/.promote-commit.intent.json: a promotion planned under the corpus lock, rolled forward on rerun',
  );

export type FileOp = z.infer<typeof FileOpSchema>;
export type FilePlan = z.infer<typeof FilePlanSchema>;
export type PromotionIntentMeta = z.infer<typeof PromotionIntentMetaSchema>;

export const jsonSchemas = {
  'knowledge-promotion-result': PromotionResultSchema,
  'knowledge-promotion-intent': PromotionIntentSchema,
};

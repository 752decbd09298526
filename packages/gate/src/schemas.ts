import { z } from 'zod';

export const GATE_REASONS = [
  'invalid-session',
  'invalid-run',
  'missing-receipt',
  'stale-receipt',
  'corrupt-receipt',
  'review-required',
  'promotion-in-progress',
  'half-applied-commit',
  'audit-p0',
] as const;

export const GateReasonSchema = z.strictObject({
  code: z.enum(GATE_REASONS),
  message: z.string(),
  session_id: z.string().nullable(),
  run_id: z.string().nullable(),
  target: z.string().nullable().describe('candidate id, knowledge id or file the reason is about'),
  command: z.string().nullable().describe('the command that clears this reason'),
});

export const GateSessionSchema = z.strictObject({
  session_id: z.string(),
  runs_checked: z.number().int().describe('runs with open candidates, whose receipts must be fresh'),
  fresh: z.number().int(),
  stale: z.number().int(),
  missing: z.number().int(),
  review_required: z.number().int().describe('pending candidates whose verdict needs a person and has none yet'),
  promoting: z.number().int(),
});

export const GateOutput = z
  .strictObject({
    schema_version: z.literal('knowledge-gate/1.0'),
    ok: z.boolean(),
    generated_at: z.string(),
    max_pending_review: z.number().int(),
    selection: z
      .strictObject({
        mode: z.enum(['all', 'sessions', 'changed-since']),
        ref: z.string().nullable().describe('the git ref of --changed-since'),
        changed_sessions: z
          .array(z.string())
          .nullable()
          .describe('sessions with files changed since the ref (deleted ones included; only existing ones are gated)'),
      })
      .describe('which sessions were gated'),
    review_required_total: z.number().int(),
    sessions: z.array(GateSessionSchema),
    audit: z.strictObject({ p0: z.number().int(), p1: z.number().int(), p2: z.number().int() }),
    reasons: z.array(GateReasonSchema),
  })
  .describe('maestro knowledge gate --json: exit 0 when ok, 1 with every reason and the command that clears it');

export type GateReason = z.infer<typeof GateReasonSchema>;
export type GateSession = z.infer<typeof GateSessionSchema>;
export type GateResult = z.infer<typeof GateOutput>;

/** Every zod schema this package publishes in schemas/, by file name. */
export const jsonSchemas = { 'knowledge-gate-output': GateOutput };

import { z } from 'zod';
import {
  INPUT_SOURCES,
  KnowledgeDeltaSchema,
  LedgerCandidateSchema,
  LedgerInputSchema,
  RUN_STATUSES,
  RunRecordSchema,
  SESSION_STATUSES,
  SessionRecordSchema,
  SIGNALS,
  TARGETS,
} from './schemas.js';

/** Schemas of the `--json` outputs of the session, run, knowledge stage/record and load commands. */

export const IssueSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
});

export const SummaryCandidateSchema = LedgerCandidateSchema.extend({
  run_ids: z.array(z.string()).describe('runs whose ledger holds the candidate'),
  stage: z.enum(['observed', 'corroborated']).describe('corroborated when more than one run staged it'),
});

export const SummaryInputSchema = z.object({
  knowledge_id: z.string(),
  signal: z.enum(SIGNALS),
  source: z.enum(INPUT_SOURCES),
  count: z.number().int(),
  run_ids: z.array(z.string()),
  first_recorded_at: z.string(),
  last_recorded_at: z.string(),
  evidence: z.array(z.string()),
});

export const SessionSummarySchema = z
  .object({
    schema_version: z.literal('session-knowledge-summary/1.0'),
    session_id: z.string(),
    session_status: z.enum(SESSION_STATUSES),
    runs: z.array(
      z.object({ run_id: z.string(), status: z.enum(RUN_STATUSES), command: z.string(), has_ledger: z.boolean() }),
    ),
    candidates: z.array(SummaryCandidateSchema),
    inputs: z.array(SummaryInputSchema),
    counts: z.object({
      candidates: z.number().int(),
      observed: z.number().int(),
      corroborated: z.number().int(),
      pending: z.number().int(),
      promoting: z.number().int(),
      promoted: z.number().int(),
      rejected: z.number().int(),
    }),
    problems: z.array(IssueSchema),
  })
  .describe('a session’s knowledge across its valid runs (summarizeSession)');

export const KnowledgeBacklogSchema = z.object({
  pending_candidates: z.number().int(),
  promoting_candidates: z.number().int(),
  promoted_candidates: z.number().int(),
  rejected_candidates: z.number().int(),
  corroborated_candidates: z.number().int(),
  review_required_candidates: z.number().int(),
  unreconciled_candidates: z.number().int(),
  review_command: z.string(),
});

export const SessionListOutput = z
  .object({
    sessions: z.array(SessionRecordSchema.extend({ run_count: z.number().int(), unsealed_runs: z.number().int() })),
    problems: z.array(IssueSchema),
  })
  .describe('maestro session list --json');

export const SessionShowOutput = z
  .object({
    session: SessionRecordSchema,
    runs: z.array(RunRecordSchema),
    summary: SessionSummarySchema,
    knowledge: KnowledgeBacklogSchema,
    problems: z.array(IssueSchema),
  })
  .describe('maestro session show --json');

export const SessionSealOutput = z
  .object({
    session_id: z.string(),
    status: z.literal('sealed'),
    sealed_at: z.string(),
    already_sealed: z.boolean(),
    run_count: z.number().int(),
    knowledge: KnowledgeBacklogSchema,
    problems: z.array(IssueSchema),
  })
  .describe('maestro session seal --json');

export const RunCompleteOutput = z
  .object({
    session_id: z.string(),
    run_id: z.string(),
    status: z.enum(RUN_STATUSES),
    summary: z.string().nullable(),
    report: z.object({
      file: z.string(),
      found: z.boolean(),
      decisions: z.number().int(),
      constraints: z.number().int(),
      staged_items: z.array(z.string()),
    }),
    knowledge: z.object({
      schema_version: z.literal('knowledge-candidate-receipt/1.0'),
      staged_candidate_ids: z.array(z.string()),
      staged_count: z.number().int(),
      review_command: z.string(),
      promote_template: z.string(),
    }),
    skipped: z.array(z.object({ item_id: z.string(), candidate_id: z.string(), reason: z.string() })),
  })
  .describe('maestro run complete --json');

export const RunSealOutput = z
  .object({
    session_id: z.string(),
    run_id: z.string(),
    status: z.literal('sealed'),
    sealed_at: z.string(),
    already_sealed: z.boolean(),
  })
  .describe('maestro run seal --json');

export const KnowledgeStageOutput = z
  .object({
    session_id: z.string(),
    run_id: z.string(),
    candidate_id: z.string(),
    reused: z.boolean().describe('identical content was already staged in this run; occurrences went up'),
    occurrences: z.number().int(),
    title: z.string(),
    signal_recorded: z.number().int(),
    unknown_ids: z.array(z.string()),
    resolved_aliases: z
      .array(z.string())
      .describe('"resolved alias X to Y" for each maestro-flow id form given instead of a canonical id'),
  })
  .describe('maestro knowledge stage --json');

export const KnowledgeRecordOutput = z
  .object({
    session_id: z.string(),
    run_id: z.string(),
    recorded: z.number().int(),
    signal: z.enum(SIGNALS),
    source: z.enum(INPUT_SOURCES),
    inputs: z.array(LedgerInputSchema),
    unknown_ids: z.array(z.string()),
    resolved_aliases: z
      .array(z.string())
      .describe('"resolved alias X to Y" for each maestro-flow id form given instead of a canonical id'),
  })
  .describe('maestro knowledge record --json');

export const LoadOutput = z
  .object({
    entries: z.array(
      z.object({
        id: z.string(),
        graphId: z.string().describe('stable knowledge-graph node id (`maestro graph show`)'),
        aliases: z
          .array(z.string())
          .describe('other ids this entry answers to (maestro-flow forms; positional ones drift)'),
        store: z.enum(TARGETS),
        title: z.string(),
        category: z.string().nullable(),
        status: z.enum(['active', 'deprecated']),
        type: z.string().nullable(),
        keywords: z.array(z.string()),
        confidence: z.string().nullable(),
        supersedes: z.array(z.string()),
        superseded_by: z.string().nullable(),
        file: z.string(),
        line: z.number().int().nullable(),
        content_hash: z.string(),
        content: z.string(),
      }),
    ),
    recorded: z
      .object({
        session_id: z.string(),
        run_id: z.string(),
        signal: z.literal('consumed'),
        source: z.literal('load'),
        count: z.number().int(),
      })
      .nullable(),
    resolved_aliases: z
      .array(z.string())
      .describe('"resolved alias X to Y" for each maestro-flow id form given instead of a canonical id'),
  })
  .describe('maestro load --json');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'session-record': SessionRecordSchema,
  'run-record': RunRecordSchema,
  'run-knowledge-delta': KnowledgeDeltaSchema,
  'session-knowledge-summary': SessionSummarySchema,
  'session-create-output': SessionRecordSchema.describe('maestro session create --json (the new session.json)'),
  'session-list-output': SessionListOutput,
  'session-show-output': SessionShowOutput,
  'session-seal-output': SessionSealOutput,
  'run-start-output': RunRecordSchema.describe('maestro run start --json (the new run.json)'),
  'run-complete-output': RunCompleteOutput,
  'run-seal-output': RunSealOutput,
  'knowledge-stage-output': KnowledgeStageOutput,
  'knowledge-record-output': KnowledgeRecordOutput,
  'load-output': LoadOutput,
};

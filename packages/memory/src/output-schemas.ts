import { z } from 'zod';
import { MEMORY_KINDS, MemoryRecordSchema, MemoryRulesSchema, NeverRuleSchema } from './schemas.js';

const StoreInfo = z.strictObject({
  dir: z.string().describe('the store directory (private to the user: 0700, files 0600)'),
  project_key: z.string().describe('<folder slug>-<16 hex of sha256(realpath of the project root)>'),
  agent: z.string(),
});

export const MemoryRecordOutput = z
  .strictObject({ store: StoreInfo, record: MemoryRecordSchema })
  .describe('maestro memory add|show --json');

export const MemoryUpdateOutput = z
  .strictObject({
    store: StoreInfo,
    record: MemoryRecordSchema,
    changed: z.array(z.enum(['text', 'kind', 'confidence'])),
  })
  .describe('maestro memory update --json');

export const MemorySuggestion = z.strictObject({
  id: z.string(),
  kind: z.enum(MEMORY_KINDS),
  text: z.string(),
  sessions: z.number().int().describe('distinct sessions it was recalled in'),
  recall_count: z.number().int(),
  confidence: z.number(),
  command: z.string().describe('the command that would stage it for review (nothing is promoted automatically)'),
});

export const MemoryListOutput = z
  .strictObject({
    store: StoreInfo,
    total: z.number().int().describe('records in the store'),
    records: z.array(MemoryRecordSchema).describe('the records the filters kept, newest first'),
    suggestions: z.array(MemorySuggestion).nullable().describe('with --suggest: memories worth promoting; else null'),
  })
  .describe('maestro memory list --json');

export const MemoryDeleteOutput = z
  .strictObject({ store: StoreInfo, deleted: z.array(z.string()) })
  .describe('maestro memory delete --json');

export const MemoryRulesOutput = z
  .strictObject({
    store: StoreInfo,
    rules: MemoryRulesSchema,
    builtin: z.array(NeverRuleSchema).describe('secret rules that always apply'),
  })
  .describe('maestro memory rules set|show --json');

export const MemoryRecallOutput = z
  .strictObject({
    store: StoreInfo,
    prompt: z.string(),
    threshold: z.number().min(0).max(1),
    hits: z.array(
      z.strictObject({
        id: z.string(),
        kind: z.enum(MEMORY_KINDS),
        text: z.string(),
        relevance: z.number().min(0).max(1).describe('idf-weighted term overlap / the smaller side, 0–1'),
        confidence: z.number(),
        matched: z.array(z.string()),
      }),
    ),
    recorded: z.boolean().describe('recall counts and times were updated (false with --no-record or no hit)'),
  })
  .describe('maestro memory recall --json');

const Change = z.discriminatedUnion('change', [
  z.strictObject({
    change: z.literal('merge'),
    kept: z.string(),
    removed: z.string(),
    similarity: z.number(),
    text: z.string(),
  }),
  z.strictObject({
    change: z.literal('supersede'),
    kept: z.string(),
    removed: z.string(),
    similarity: z.number(),
    reason: z.enum(['negation', 'changed value']),
    text: z.string(),
    removed_text: z.string(),
  }),
  z.strictObject({ change: z.literal('decay'), id: z.string(), from: z.number(), to: z.number() }),
  z.strictObject({ change: z.literal('forget'), id: z.string(), confidence: z.number(), text: z.string() }),
]);

export const MemoryConsolidateOutput = z
  .strictObject({
    store: StoreInfo,
    dry_run: z.boolean(),
    before: z.number().int(),
    after: z.number().int(),
    changes: z.array(Change),
    written: z.boolean(),
  })
  .describe('maestro memory consolidate --json');

export const MemoryPromoteOutput = z
  .strictObject({
    store: StoreInfo,
    session_id: z.string(),
    run_id: z.string(),
    run_started: z.boolean().describe('true when no --run was given and a run was started for the promotion'),
    staged: z.array(
      z.strictObject({
        memory_id: z.string(),
        candidate_id: z.string(),
        action: z.enum(['propose', 'contest', 'supersede']),
        against: z.string().nullable(),
        reused: z.boolean(),
      }),
    ),
    next: z.string().describe('the review command'),
  })
  .describe('maestro memory promote --json');

export type StoreInfoData = z.infer<typeof StoreInfo>;
export type MemoryRecallOutputData = z.infer<typeof MemoryRecallOutput>;
export type MemoryConsolidateOutputData = z.infer<typeof MemoryConsolidateOutput>;
export type MemoryPromoteOutputData = z.infer<typeof MemoryPromoteOutput>;
export type MemoryListOutputData = z.infer<typeof MemoryListOutput>;

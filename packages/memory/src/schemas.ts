import { z } from 'zod';

/**
 * The private memory store's files (one generation each) and the `--json` outputs of
 * `maestro memory …`. The store lives outside `.workflow/` (see location.ts) and is never read
 * by search, packs, the gate or another agent.
 */

export const MEMORY_KINDS = ['task_state', 'decision', 'preference', 'experience'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
export const MEMORY_ID_PATTERN = /^M-[0-9a-z]{10}$/;

const Iso = z.iso.datetime({ offset: true });
const Unit = z.number().min(0).max(1);

export const MemoryScopeSchema = z.strictObject({
  session: z.string().nullable(),
  run: z.string().nullable(),
  path: z.string().nullable(),
});

export const MemorySourceSchema = z.strictObject({
  kind: z.enum(['manual', 'prompt', 'run']).describe('manual: typed by a person; prompt: a hook; run: an agent run'),
  prompt: z.string().nullable().describe('the prompt the fact came from, when a hook wrote it'),
  session: z.string().nullable(),
  run: z.string().nullable(),
});

export const HISTORY_ACTIONS = ['created', 'updated', 'merged', 'superseded', 'decayed', 'promoted'] as const;

export const MemoryHistorySchema = z.strictObject({
  at: Iso,
  action: z.enum(HISTORY_ACTIONS),
  /** The text before this change (updated), or the merged / superseded record's text. */
  text: z.string().nullable(),
  /** The record merged into or superseded by this one. */
  from_id: z.string().nullable(),
  confidence: Unit.nullable(),
  note: z.string().nullable(),
});

export const MemoryPromotionSchema = z.strictObject({
  at: Iso,
  session_id: z.string(),
  run_id: z.string(),
  candidate_id: z.string(),
  action: z.enum(['propose', 'contest', 'supersede']),
  against: z.string().nullable().describe('the shared rule a correction contests or supersedes'),
});

export const MemoryRecordSchema = z.strictObject({
  id: z.string().regex(MEMORY_ID_PATTERN),
  kind: z.enum(MEMORY_KINDS),
  text: z.string().min(1),
  scope: MemoryScopeSchema,
  created_at: Iso,
  updated_at: Iso,
  last_recalled_at: Iso.nullable(),
  recall_count: z.number().int().min(0),
  /** Distinct sessions the record was recalled in (at most 50 kept): the basis of `--suggest`. */
  recalled_sessions: z.array(z.string()),
  confidence: Unit,
  /** When `confidence` was last decayed; decay runs from here, so consolidating twice never double-counts. */
  decayed_at: Iso,
  source: MemorySourceSchema,
  /** A correction of shared knowledge: the rule's id. */
  corrects: z.string().nullable(),
  promotions: z.array(MemoryPromotionSchema),
  history: z.array(MemoryHistorySchema),
});

export const MemoryFileSchema = z
  .strictObject({
    schema_version: z.literal('maestro-memory/1.0'),
    project_key: z.string(),
    agent: z.string(),
    revision: z.number().int().min(0),
    updated_at: Iso,
    records: z.array(MemoryRecordSchema),
  })
  .describe('<memory dir>/<project key>/<agent>/memories.json (mode 0600)');

export const NeverRuleSchema = z.strictObject({
  id: z.string().regex(/^(?:builtin|R)-[a-z0-9-]+$/),
  pattern: z.string().min(1).describe('a JavaScript regular expression, matched case-insensitively'),
  reason: z.string(),
});

export const MemoryRulesSchema = z
  .strictObject({
    schema_version: z.literal('maestro-memory-rules/1.0'),
    remember: z.array(z.enum(MEMORY_KINDS)).describe('kinds that may be stored; others are refused'),
    never: z.array(NeverRuleSchema).describe('patterns refused at write time, besides the built-in secret rules'),
    updated_at: Iso.nullable(),
  })
  .describe('<memory dir>/<project key>/<agent>/rules.json (mode 0600)');

export type MemoryRecord = z.infer<typeof MemoryRecordSchema>;
export type MemoryFile = z.infer<typeof MemoryFileSchema>;
export type MemoryRules = z.infer<typeof MemoryRulesSchema>;
export type NeverRule = z.infer<typeof NeverRuleSchema>;
export type MemoryHistory = z.infer<typeof MemoryHistorySchema>;

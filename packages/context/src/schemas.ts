import { PackResolveOutput } from '@maestro/packs';
import { z } from 'zod';

export const ContextBlockOutput = z.object({
  name: z.string().describe('recalled-knowledge, packs (the pack catalog and wrappers) or recalled-memories'),
  tokens: z.number().int(),
  ids: z.array(z.string()).describe('entry ids (recalled-knowledge), pack names (packs) or memory ids'),
});

export const RecallOutput = z.object({
  top_score: z.number().nullable().describe('search score of the best hit, null when nothing matched at all'),
  floor: z.number().nullable().describe('the score a hit needed to be recalled'),
  left: z
    .array(
      z.object({
        id: z.string(),
        score: z.number(),
        reason: z.enum(['below-floor', 'limit', 'duplicate', 'budget']),
      }),
    )
    .describe('hits not recalled, strongest first, with why'),
  cut: z.array(z.string()).describe('recalled entries whose text was cut to fit (maestro load prints them whole)'),
  contested: z.array(z.string()).describe('recalled entries shown with their contested flag'),
});

export const ContextOutput = PackResolveOutput.extend({
  session_id: z.string().nullable().describe('--session, when given (attribution only)'),
  run_id: z.string().nullable().describe('--run, when given; context never records consumption on it'),
  exposure_recorded: z.boolean().describe('the included spec ids were counted as shown (exposure only)'),
  blocks: z.array(ContextBlockOutput).describe('the blocks of `context`, in order (empty ones left out)'),
  recall: RecallOutput,
  recalled_memories: z
    .strictObject({ agent: z.string(), ids: z.array(z.string()) })
    .optional()
    .describe(
      "the calling agent's private memories appended after the knowledge, in <recalled-memories> (maestro context always sets it)",
    ),
}).describe('maestro context --json');

export type ContextOutputData = z.infer<typeof ContextOutput>;

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = { 'context-output': ContextOutput };

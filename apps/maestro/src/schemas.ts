import { ExpansionSchema } from '@maestro/graph';
import { ContextOutput } from '@maestro/packs';
import { SearchOutputSchema } from '@maestro/search';
import { z } from 'zod';

export const ErrorOutput = z
  .object({
    schema_version: z.literal('maestro-error/1.0'),
    error: z.object({
      code: z.string(),
      message: z.string(),
      exit_code: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      hint: z.string().nullable(),
      location: z
        .object({ file: z.string(), line: z.number().int().optional(), column: z.number().int().optional() })
        .nullable(),
    }),
  })
  .describe('What any command prints on stdout with --json when it fails (exit 1, 2 or 3)');

/** `search --expand` / `context --expand`: the plain output plus the graph neighbours of the top hits. */
export const SearchExpandedOutput = SearchOutputSchema.extend({ expanded: ExpansionSchema }).describe(
  'maestro search --expand --json',
);
export const ContextExpandedOutput = ContextOutput.extend({ expanded: ExpansionSchema }).describe(
  'maestro context --expand --json',
);

/** Schemas owned by the CLI itself. */
export const jsonSchemas = {
  'error-output': ErrorOutput,
  'search-expanded-output': SearchExpandedOutput,
  'context-expanded-output': ContextExpandedOutput,
};

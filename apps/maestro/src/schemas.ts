import { ContextOutput } from '@maestro/context';
import { ExpansionSchema } from '@maestro/graph';
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

export const VersionOutput = z
  .object({
    schema_version: z.literal('maestro-version/1.0'),
    name: z.literal('@maestro/cli'),
    version: z.string().describe('the semver of the maestro CLI package (released through changesets)'),
    node: z.string().describe('the Node.js version running it, e.g. v20.20.2'),
  })
  .describe('maestro --version --json (also -v, -V, version)');

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
  'version-output': VersionOutput,
  'search-expanded-output': SearchExpandedOutput,
  'context-expanded-output': ContextExpandedOutput,
};

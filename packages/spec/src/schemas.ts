import { z } from 'zod';

export const InitOutput = z
  .object({
    root: z.string().describe('the project root that holds .workflow/'),
    created: z.array(z.string()).describe('paths created, relative to .workflow/'),
    existing: z.array(z.string()).describe('paths that already existed and were left untouched'),
  })
  .describe('maestro init --json');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'init-output': InitOutput,
};

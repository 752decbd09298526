import { z } from 'zod';

export const ReviewServeOutput = z
  .object({
    schema_version: z.literal('review-serve/1.0'),
    url: z.string().describe('open once: carries the one-time token, exchanged for a cookie'),
    origin: z.string().describe('http://127.0.0.1:<port>'),
    port: z.number().int(),
    workflow: z.string().describe('the .workflow/ directory the page reviews'),
  })
  .describe('maestro review serve --json: printed once the page listens; the command then runs until stopped');

export type ReviewServeInfo = z.infer<typeof ReviewServeOutput>;

/** Every zod schema this package publishes in schemas/, by file name. */
export const jsonSchemas = { 'review-serve-output': ReviewServeOutput };

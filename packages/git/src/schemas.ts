import { z } from 'zod';

const ConflictSchema = z.strictObject({
  key: z.string().describe('the entry sid (or title:/legacy: key), the knowhow file, prose or text'),
  kind: z.enum(['both-edited', 'both-added', 'edited-and-deleted', 'prose']),
});

export const MergeDriverOutput = z
  .strictObject({
    schema_version: z.literal('maestro-merge/1.0'),
    path: z.string(),
    kind: z.enum(['spec', 'knowhow', 'text']),
    clean: z.boolean(),
    conflicts: z.array(ConflictSchema),
    counts: z
      .strictObject({
        entries: z.number().int(),
        ours: z.number().int(),
        theirs: z.number().int(),
        deleted: z.number().int(),
      })
      .nullable(),
    fallback: z.string().nullable().describe("why git's text merge was used instead of the entry merge"),
  })
  .describe('maestro merge-driver --json: exit 0 when clean, 1 when conflict markers were left');

export const GitSetupOutput = z
  .strictObject({
    schema_version: z.literal('maestro-git-setup/1.0'),
    action: z.enum(['install', 'uninstall', 'status']),
    changed: z.boolean(),
    repository: z.string(),
    attributes_file: z.string(),
    attributes: z.array(z.strictObject({ line: z.string(), present: z.boolean() })),
    driver: z.string().nullable(),
    effective: z.string().nullable().describe('git check-attr merge for a spec file'),
    installed: z.boolean(),
  })
  .describe('maestro git install|uninstall|status --json');

export type MergeDriverOutputT = z.infer<typeof MergeDriverOutput>;
export type GitSetupOutputT = z.infer<typeof GitSetupOutput>;

/** Every zod schema this package publishes in schemas/, by file name. */
export const jsonSchemas = { 'merge-driver-output': MergeDriverOutput, 'git-setup-output': GitSetupOutput };

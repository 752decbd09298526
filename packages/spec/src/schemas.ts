import { z } from 'zod';

export const InitOutput = z
  .object({
    root: z.string().describe('the project root that holds .workflow/'),
    created: z.array(z.string()).describe('paths created, relative to .workflow/'),
    existing: z.array(z.string()).describe('paths that already existed (left untouched unless listed in updated)'),
    updated: z.array(z.string()).describe('existing files that gained missing lines (.gitignore), none removed'),
  })
  .describe('maestro init --json');

/** A parse problem, located in a file relative to the project root. */
export const IssueSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
});

const Conflict = z.object({ marker: z.string(), note: z.string().nullable(), date: z.string().nullable() }).nullable();

/** An entry in list outputs: everything but the content. */
export const EntrySummary = z.object({
  id: z.string().describe('sid, derived D-… id, or knowhow-… id'),
  store: z.enum(['spec', 'knowhow']),
  title: z.string(),
  category: z.string().nullable(),
  keywords: z.array(z.string()),
  description: z.string().nullable(),
  date: z.string().nullable(),
  status: z.enum(['active', 'deprecated']),
  confidence: z.string().nullable(),
  supersedes: z.array(z.string()),
  supersededBy: z.string().nullable(),
  ref: z.string().nullable(),
  source: z.string().nullable(),
  file: z.string().describe('relative to .workflow/'),
  line: z.number().int().nullable(),
  contentHash: z.string(),
  legacy: z.boolean(),
  hasSid: z.boolean(),
  type: z.string().nullable(),
  conflict: Conflict,
});

/** A full entry (show outputs). */
export const EntryFull = EntrySummary.extend({
  content: z.string(),
  titleSource: z.string().optional(),
  attributes: z.record(z.string(), z.string()).optional(),
  explicitId: z.string().nullable().optional(),
});

export const SpecListOutput = z
  .object({
    entries: z.array(EntrySummary),
    count: z.number().int(),
    issues: z.array(IssueSchema).describe('parse problems (also printed on stderr as warnings)'),
  })
  .describe('maestro spec list --json');

export const SpecShowOutput = z.object({ entry: EntryFull }).describe('maestro spec show --json');

export const SpecAddOutput = z
  .object({
    ok: z.literal(true),
    duplicate: z.boolean().describe('true: a same-title entry exists in the target file; nothing was written'),
    file: z.string(),
    category: z.string(),
    title: z.string(),
    sid: z.string().nullable(),
    redirected: z.boolean().describe('content over 2048 characters went to a DOC knowhow document'),
    knowhowRef: z.string().nullable(),
  })
  .describe('maestro spec add --json');

export const SupersedeOutput = z
  .object({ old: z.string(), new: z.string(), changed: z.boolean(), files: z.array(z.string()) })
  .describe('maestro spec supersede / knowhow supersede --json');

export const EntryEditOutput = z
  .object({ id: z.string(), file: z.string(), changed: z.boolean() })
  .describe('maestro spec deprecate --json');

export const ConflictOutput = EntryEditOutput.extend({ marker: z.string().nullable() }).describe(
  'maestro spec conflict mark|clear --json',
);

const LinkRepairItem = z.object({
  id: z.string(),
  store: z.enum(['spec', 'knowhow']),
  file: z.string(),
  line: z.number().int().nullable(),
  attribute: z.enum(['supersedes', 'superseded-by']),
  missing: z.string().describe('the id the link names, which no entry has'),
});

export const LinkRepairOutput = z
  .object({
    dryRun: z.boolean(),
    repairs: z.array(LinkRepairItem).describe('links removed (or, with dryRun, that would be)'),
    files: z.array(z.string()).describe('files written (or that would be), relative to .workflow/'),
    skipped: z.array(LinkRepairItem).describe('links on legacy entries, which have no attributes to edit'),
  })
  .describe('maestro spec link repair --json');

export const BackfillOutput = z
  .object({
    count: z.number().int(),
    assigned: z.array(
      z.object({ previousId: z.string(), sid: z.string(), file: z.string(), line: z.number().int().nullable() }),
    ),
    legacySkipped: z.number().int(),
  })
  .describe('maestro spec backfill-sid --json');

export const HistoryOutput = z
  .object({
    id: z.string(),
    store: z.enum(['spec', 'knowhow']),
    chain: z.array(
      z.object({
        id: z.string(),
        title: z.string(),
        file: z.string(),
        line: z.number().int().nullable(),
        status: z.enum(['active', 'deprecated']),
        current: z.boolean(),
        supersedes: z.array(z.string()),
        supersededBy: z.string().nullable(),
      }),
    ),
    broken: z.array(z.object({ from: z.string(), to: z.string(), attribute: z.enum(['supersedes', 'superseded-by']) })),
    cyclic: z.boolean(),
  })
  .describe('maestro spec history / knowhow history --json (oldest first)');

const Dangling = z.object({ id: z.string(), missing: z.string(), file: z.string(), line: z.number().int().nullable() });

export const SpecHealthOutput = z
  .object({
    total: z.number().int(),
    active: z.number().int(),
    deprecated: z.number().int(),
    contested: z.number().int(),
    lowConfidence: z.number().int(),
    withSid: z.number().int(),
    withoutSid: z.number().int(),
    legacy: z.number().int(),
    chains: z.number().int(),
    danglingSupersedes: z.array(Dangling),
    danglingSupersededBy: z.array(Dangling),
    cyclicSids: z.array(z.string()),
    contestedStale: z.number().int(),
    avgFreshness: z.number(),
    staleActive: z.number().int(),
    issues: z.object({ errors: z.number().int(), warnings: z.number().int() }),
    leftoverTemps: z
      .array(z.string())
      .describe(
        'temp files (relative to .workflow/) left by interrupted writes; the next write of each file removes them',
      ),
    unindexedProse: z
      .array(
        z.object({
          file: z.string().describe('relative to .workflow/'),
          line: z.number().int().describe('first line of body text'),
          chars: z.number().int().describe('characters of body text, headings and blank lines not counted'),
        }),
      )
      .describe(
        'spec files holding text but no <spec-entry> block: search, context and the matcher never see that text',
      ),
    capped: z
      .object({
        limit: z.number().int().describe('characters of one entry that search, context and the matcher index'),
        entries: z.array(
          z.object({
            id: z.string(),
            store: z.enum(['spec', 'knowhow']),
            file: z.string(),
            line: z.number().int().nullable(),
            chars: z.number().int(),
          }),
        ),
      })
      .describe('spec entries and knowhow documents longer than the limit: only their start is indexed'),
  })
  .describe('maestro spec health --json');

export const KnowhowAddOutput = z
  .object({ id: z.string(), file: z.string(), type: z.string(), title: z.string(), replayed: z.boolean() })
  .describe('maestro knowhow add --json');

export const KnowhowListOutput = z
  .object({ entries: z.array(EntrySummary), count: z.number().int(), issues: z.array(IssueSchema) })
  .describe('maestro knowhow list --json');

export const KnowhowShowOutput = z.object({ entry: EntryFull }).describe('maestro knowhow show --json');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'init-output': InitOutput,
  'spec-list-output': SpecListOutput,
  'spec-show-output': SpecShowOutput,
  'spec-add-output': SpecAddOutput,
  'spec-supersede-output': SupersedeOutput,
  'spec-deprecate-output': EntryEditOutput,
  'spec-conflict-output': ConflictOutput,
  'spec-backfill-sid-output': BackfillOutput,
  'spec-link-repair-output': LinkRepairOutput,
  'spec-history-output': HistoryOutput,
  'spec-health-output': SpecHealthOutput,
  'knowhow-add-output': KnowhowAddOutput,
  'knowhow-list-output': KnowhowListOutput,
  'knowhow-show-output': KnowhowShowOutput,
  'knowhow-supersede-output': SupersedeOutput,
  'knowhow-history-output': HistoryOutput,
};

import { z } from 'zod';
import { ACTIVATIONS, PACK_PROFILES, PACK_SCOPES, PACK_STATUSES, PACK_TRUST_LEVELS, RUNTIME_MODES } from './model.js';

/** `--json` shapes of the `maestro pack …` commands and `maestro context`. */
const Severity = z.enum(['info', 'warning', 'error']);

export const PackFinding = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  file: z.string().describe('relative to the pack root'),
  field: z.string().optional().describe('frontmatter key or JSON path'),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  message: z.string(),
  hint: z.string().optional(),
});

export const Diagnostic = z.object({
  severity: Severity,
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
});

const Trust = z.object({
  declared: z.enum(PACK_TRUST_LEVELS).nullable().describe('what the pack claims'),
  effective: z.enum(PACK_TRUST_LEVELS).describe('what this client grants (scope, workspace trust, approval)'),
});

export const PackValidateOutput = z
  .object({
    ok: z.boolean(),
    status: z.enum(['passed', 'needs-review', 'failed']),
    command: z.literal('validate'),
    pack: z.string().describe('absolute pack directory'),
    name: z.string().nullable(),
    errors: z.number().int(),
    warnings: z.number().int(),
    findings: z.array(PackFinding),
  })
  .describe('maestro pack validate --json');

export const PackListEntry = z.object({
  name: z.string(),
  description: z.string().nullable().describe('null when the frontmatter is unusable'),
  type: z.string().nullable(),
  status: z.enum(PACK_STATUSES).nullable(),
  profile: z.enum(PACK_PROFILES).nullable(),
  runtime_mode: z.enum(RUNTIME_MODES).nullable(),
  grounding: z.string().nullable(),
  version: z.string().nullable(),
  trust: Trust,
  scope: z.enum(PACK_SCOPES),
  home_scope: z
    .enum(PACK_SCOPES)
    .nullable()
    .describe('the scope whose root holds it (differs from scope for explicit paths)'),
  location: z.string().describe('absolute path of KNOWLEDGE.md'),
  root: z.string(),
  state: z.enum(['active', 'shadowed', 'disabled', 'invalid']),
  explicit: z.boolean(),
  metadata_only: z.boolean().describe('untrusted workspace pack: metadata is shown, content is never used'),
  shadowed_by: z.string().nullable(),
  errors: z.number().int(),
  warnings: z.number().int(),
});

export const ScopeScanOutput = z.object({
  scope: z.enum(PACK_SCOPES),
  dir: z.string(),
  exists: z.boolean(),
  dirs_scanned: z.number().int(),
  packs: z.number().int(),
  truncated: z.enum(['depth', 'dirs']).nullable(),
  ignored: z.number().int().describe('directories skipped because a .gitignore excludes them'),
});

export const PackListOutput = z
  .object({
    workspace_trusted: z.boolean(),
    scopes: z.array(ScopeScanOutput),
    packs: z.array(PackListEntry).describe('every pack found, in precedence order'),
    diagnostics: z.array(Diagnostic),
  })
  .describe('maestro pack list --json');

export const ResolvedPackOutput = z.object({
  name: z.string(),
  activation: z.enum(ACTIVATIONS),
  scope: z.enum(PACK_SCOPES),
  location: z.string(),
  status: z.enum(PACK_STATUSES),
  trust: Trust,
  grounding: z.string(),
  profile: z.enum(PACK_PROFILES),
  runtime_mode: z.enum(RUNTIME_MODES),
  wrapper_order: z.number().int().nullable().describe('1-based position of its wrapper; null when nothing fitted'),
  tokens: z.number().int(),
  guide: z
    .array(z.string())
    .describe('the guide tier included: KNOWLEDGE.md (its body), or KNOWLEDGE.md#<section> when cut to fit'),
  selected_files: z.array(z.string()).describe('context units: files, sections (#id), subgraphs (#record-id), anchors'),
  selected_documents: z.array(z.string()),
  selected_splits: z.array(z.string()),
  source_anchors: z.array(z.string()),
  warnings: z.array(z.string()),
});

export const PendingOutput = z.object({
  name: z.string(),
  reason: z.enum(['needs-confirmation', 'needs-approval']),
  status: z.string(),
  scope: z.string(),
  location: z.string(),
  hint: z.string(),
});

export const SkippedOutput = z.object({
  name: z.string(),
  reason: z.enum(['archived', 'ready-alternative-preferred', 'activation-limit']),
  message: z.string(),
});

export const SpecOutput = z.object({ id: z.string(), title: z.string(), category: z.string().nullable() });

export const PackResolveOutput = z
  .object({
    query: z.string(),
    budget: z.number().int(),
    token_estimate: z.number().int().describe('CJK-aware estimate of `context`; never above budget'),
    context: z.string().describe('the wrapped context to hand to the model'),
    wrapper_order: z.array(z.string()),
    evidence_requested: z.boolean(),
    packs: z.array(ResolvedPackOutput),
    specs: z.array(SpecOutput).describe('project specs included (maestro context only; empty for pack resolve)'),
    pending: z.array(PendingOutput).describe('matched but not used until confirmed or approved'),
    skipped: z.array(SkippedOutput),
    missing: z.array(z.string()).describe('query terms no activated pack or spec mentions'),
    recommendation: z.literal('ask_user_or_mark_unknown').nullable(),
    catalog: z
      .object({
        listed: z.array(z.string()).describe('packs listed in the <available_knowledge_packs> block, by name'),
        omitted: z.array(z.string()).describe('activatable packs left out to stay within the budget'),
        tokens: z.number().int(),
      })
      .nullable()
      .describe('the model-facing catalog block at the start of `context` (--catalog), else null'),
    diagnostics: z.array(Diagnostic),
    record: z.string().nullable().describe('context-resolution record written with --record'),
  })
  .describe('maestro pack resolve --json and maestro context --json');

export const ContextOutput = PackResolveOutput.extend({
  session_id: z.string().nullable().describe('--session, when given (attribution only)'),
  run_id: z.string().nullable().describe('--run, when given; context never records consumption on it'),
  exposure_recorded: z.boolean().describe('the included spec ids were counted as shown (exposure only)'),
  recalled_memories: z
    .strictObject({ agent: z.string(), ids: z.array(z.string()) })
    .describe("the calling agent's private memories appended after the knowledge, in <recalled-memories>"),
}).describe('maestro context --json');

export const PackEvalOutput = z
  .object({
    ok: z.boolean(),
    status: z.enum(['passed', 'failed']),
    command: z.literal('eval'),
    pack: z.string(),
    suite: z.string(),
    results: z.array(
      z.object({
        id: z.string(),
        prompt: z.string(),
        expected: z.enum(['select', 'reject', 'warn']),
        actual: z.enum(['select', 'reject', 'warn']),
        passed: z.boolean(),
      }),
    ),
    summary: z.object({
      passed: z.number().int(),
      failed: z.number().int(),
      total: z.number().int(),
      pass_rate: z.number(),
    }),
  })
  .describe('maestro pack eval --json');

export const PackBuildOutput = z
  .object({
    pack: z.string().describe('absolute directory of the built pack'),
    name: z.string(),
    entries: z.number().int(),
    specs: z.number().int(),
    knowhow: z.number().int(),
    files: z.array(z.object({ path: z.string(), operation: z.enum(['created', 'updated', 'deleted', 'unchanged']) })),
    run: z.string().describe('the compile-run record, relative to the pack'),
    valid: z.boolean().describe('the built pack passed `maestro pack validate`'),
  })
  .describe('maestro pack build --json');

export const PackGuideOutput = z
  .object({
    name: z.string(),
    location: z.string(),
    status: z.enum(PACK_STATUSES),
    trust: z.enum(PACK_TRUST_LEVELS).describe('effective trust'),
    profile: z.enum(PACK_PROFILES),
    runtime_mode: z.enum(RUNTIME_MODES),
    budget: z.number().int(),
    context: z.string().describe("the <knowledge_pack_guide> block ('' when even the wrapper does not fit)"),
    token_estimate: z.number().int(),
    guide: z.array(z.string()).describe('KNOWLEDGE.md, or the KNOWLEDGE.md#<section> parts kept to fit'),
    resources: z
      .array(z.object({ kind: z.enum(['runtime', 'primary', 'evidence']), path: z.string() }))
      .describe('listed, never read'),
    warnings: z.array(z.string()),
  })
  .describe('maestro pack guide --json');

const CatalogEntryOutput = z.object({
  name: z.string(),
  description: z.string(),
  type: z.string(),
  status: z.enum(PACK_STATUSES),
  trust: z.enum(PACK_TRUST_LEVELS).describe('effective trust'),
  profile: z.string(),
  runtime_mode: z.string(),
  primary_document: z.string().nullable(),
  location: z.string(),
  activation: z.enum(['available', 'needs-approval', 'needs-confirmation']),
});

export const PackCatalogOutput = z
  .object({
    budget: z.number().int(),
    context: z.string().describe("the <available_knowledge_packs> block ('' when no pack can be activated)"),
    token_estimate: z.number().int(),
    packs: z.array(CatalogEntryOutput).describe('the packs listed in the block'),
    omitted: z.array(z.string()).describe('activatable packs left out to stay within the budget'),
    diagnostics: z.array(Diagnostic),
  })
  .describe('maestro pack catalog --json');

export type PackGuideOutputData = z.infer<typeof PackGuideOutput>;
export type PackCatalogOutputData = z.infer<typeof PackCatalogOutput>;
export type PackValidateOutputData = z.infer<typeof PackValidateOutput>;
export type PackListOutputData = z.infer<typeof PackListOutput>;
export type PackResolveOutputData = z.infer<typeof PackResolveOutput>;
export type ContextOutputData = z.infer<typeof ContextOutput>;
export type PackEvalOutputData = z.infer<typeof PackEvalOutput>;
export type PackBuildOutputData = z.infer<typeof PackBuildOutput>;

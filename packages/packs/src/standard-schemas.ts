import { z } from 'zod';
import {
  ACTIVATIONS,
  PACK_GROUNDINGS,
  PACK_PROFILES,
  PACK_STATUSES,
  PACK_TRUST_LEVELS,
  RUNTIME_MODES,
} from './model.js';

/**
 * The Agent Knowledge standard's record schemas (v0.4 + v0.6 extensions), written from its field
 * lists: every object is closed (`additionalProperties: false`), as in the standard. Validation
 * reports an unknown field as a warning, not an error (see validate-json.ts).
 */
const nonEmpty = z.string().min(1);
const runStatus = z.enum(['passed', 'needs-review', 'stale', 'disputed', 'failed']);
const severity = z.enum(['info', 'warning', 'error']);
const packStatus = z.enum(PACK_STATUSES);

const Warning = z.strictObject({ severity, path: z.string().optional(), message: z.string() });

const BuilderSkill = z.strictObject({
  name: nonEmpty,
  version: z.string().optional(),
  digest: z.string().optional(),
  source: z.string().optional(),
});

export const CompileRun = z
  .strictObject({
    run_id: nonEmpty,
    trigger: z.enum(['ingest', 'source-change', 'manual', 'scheduled', 'migration']),
    status: runStatus,
    inputs: z.array(z.strictObject({ path: z.string(), sha256: z.string().optional() })),
    outputs: z.array(
      z.strictObject({ path: z.string(), operation: z.enum(['created', 'updated', 'deleted', 'unchanged']) }),
    ),
    compiler: z
      .strictObject({ tool: z.string().optional(), version: z.string().optional(), model: z.string().optional() })
      .optional(),
    diagnostics: z.array(z.strictObject({ severity, path: z.string(), message: z.string() })).optional(),
    review: z.strictObject({ required: z.boolean(), reason: z.string() }).optional(),
    profile: z.enum(PACK_PROFILES).optional(),
    runtime_mode: z.enum(RUNTIME_MODES).optional(),
    primary_document: z.string().optional(),
    builder_skill: BuilderSkill.optional(),
    documents: z
      .array(
        z.strictObject({
          path: z.string(),
          role: z.enum(['primary', 'supporting', 'export']).optional(),
          status: packStatus.optional(),
          sha256: z.string().optional(),
        }),
      )
      .optional(),
    chapters: z
      .array(
        z.strictObject({
          id: z.string(),
          title: z.string(),
          coverage: z.enum(['full', 'partial', 'missing', 'conflict']),
          document: z.string().optional(),
          path: z.string().optional(),
          tokens: z.number().int().optional(),
          source_anchors: z.array(z.string()).optional(),
          warnings: z.array(Warning).optional(),
        }),
      )
      .optional(),
    quality_issues: z.array(z.string()).optional(),
    interview_questions: z.array(z.string()).optional(),
  })
  .describe('Agent Knowledge compile run record (runs/compile-<timestamp>.json)');

export const SourceMap = z
  .strictObject({
    claims: z.array(
      z.strictObject({
        claim_id: nonEmpty,
        text: nonEmpty,
        status: z.enum(['confirmed', 'inferred', 'disputed', 'stale', 'missing', 'source-required']),
        source: z.strictObject({ path: z.string(), anchor: z.string().optional() }),
        compiled_into: z.array(z.string()).optional(),
        document: z.string().optional(),
        section_id: z.string().optional(),
      }),
    ),
    document_sections: z
      .array(
        z.strictObject({
          document: z.string(),
          section_id: nonEmpty,
          title: nonEmpty,
          source_anchors: z.array(z.string()).optional(),
          compiled_into: z.array(z.string()).optional(),
        }),
      )
      .optional(),
  })
  .describe('Agent Knowledge source map (indexes/source-map.json)');

export const SelectionEval = z
  .strictObject({
    pack_name: nonEmpty,
    cases: z
      .array(
        z.strictObject({
          id: z.string(),
          prompt: z.string(),
          expected: z.enum(['select', 'reject', 'warn']),
          reason: z.string().optional(),
          expected_warnings: z.array(z.string()).optional(),
        }),
      )
      .min(1),
  })
  .describe('Agent Knowledge selection eval suite (evals/discovery.{train,validation}.json)');

export const ActivatedPackRecord = z.strictObject({
  name: nonEmpty,
  activation: z.enum(ACTIVATIONS),
  selected_files: z.array(z.string()),
  status: packStatus.optional(),
  trust: z.enum(PACK_TRUST_LEVELS).optional(),
  grounding: z.enum(PACK_GROUNDINGS).optional(),
  source_anchors: z.array(z.string()).optional(),
  warnings: z.array(Warning).optional(),
  profile: z.enum(PACK_PROFILES).optional(),
  runtime_mode: z.enum(RUNTIME_MODES).optional(),
  selected_documents: z.array(z.string()).optional(),
  selected_splits: z.array(z.string()).optional(),
  wrapper_order: z.number().int().optional(),
  builder_skill: z
    .strictObject({ name: nonEmpty, version: z.string().optional(), digest: z.string().optional() })
    .optional(),
});

export const ContextResolution = z
  .strictObject({
    run_id: nonEmpty,
    query: nonEmpty,
    status: runStatus,
    activated_packs: z.array(ActivatedPackRecord).min(1),
    resolver: z
      .strictObject({ tool: z.string().optional(), version: z.string().optional(), strategy: z.string().optional() })
      .optional(),
    missing: z.array(z.string()).optional(),
    token_estimate: z.number().int().optional(),
    wrapper_order: z.array(z.string()).optional(),
  })
  .describe('Agent Knowledge context-resolution record (runs/context-<timestamp>.json)');

export type CompileRunRecord = z.infer<typeof CompileRun>;
export type SourceMapFile = z.infer<typeof SourceMap>;
export type SelectionEvalSuite = z.infer<typeof SelectionEval>;
export type ContextResolutionRecord = z.infer<typeof ContextResolution>;

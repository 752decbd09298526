import { z } from 'zod';
import { SkillCandidateSchema, SkillCandidatesFile } from './candidates.js';
import { SkillEvaluationRecord, SkillEvidence } from './evaluate.js';
import { FILE_KINDS, SKILL_SCOPES } from './model.js';
import { SkillStateSchema } from './store.js';

/** `--json` shapes of the `maestro skill …` commands. */
const File = z.object({ path: z.string(), sha256: z.string(), size: z.number().int(), kind: z.enum(FILE_KINDS) });
const Finding = z.object({
  severity: z.enum(['error', 'warning']),
  code: z.string(),
  file: z.string().describe('relative to the skill folder'),
  field: z.string().optional(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  message: z.string(),
  hint: z.string().optional(),
});
const Diagnostic = z.object({
  severity: z.enum(['info', 'warning']),
  code: z.string(),
  message: z.string(),
  path: z.string(),
});
const CatalogSkill = z.object({
  name: z.string(),
  description: z.string().nullable(),
  scope: z.enum(SKILL_SCOPES),
  location: z.string().describe('absolute path of SKILL.md'),
  version: z.number().int().nullable(),
  governed: z.boolean(),
  disabled: z.boolean(),
});

export const SkillValidateOutput = z
  .object({
    ok: z.boolean(),
    dir: z.string(),
    name: z.string().nullable(),
    errors: z.number().int(),
    warnings: z.number().int(),
    findings: z.array(Finding),
    files: z.array(File).describe('every file, hashed; scripts are listed and never executed'),
    manifest_hash: z.string(),
  })
  .describe('maestro skill validate --json');

export const SkillListOutput = z
  .object({ skills: z.array(CatalogSkill), hidden: z.number().int(), diagnostics: z.array(Diagnostic) })
  .describe('maestro skill list --json');

export const SkillSearchOutput = z
  .object({ query: z.string(), hits: z.array(CatalogSkill.extend({ score: z.number() })) })
  .describe('maestro skill search --json');

export const SkillLoadOutput = z
  .object({
    name: z.string(),
    version: z.number().int().nullable(),
    scope: z.enum(SKILL_SCOPES),
    location: z.string(),
    instructions: z.string(),
    resources: z.array(z.object({ path: z.string(), kind: z.string(), size: z.number().int() })),
    rendered: z.string().describe('the <skill_content> block for the agent'),
  })
  .describe('maestro skill load --json');

export const SkillStageOutput = z
  .object({ session_id: z.string(), run_id: z.string(), candidate: SkillCandidateSchema, reused: z.boolean() })
  .describe('maestro skill stage --json');

export const SkillReleaseOutput = z
  .object({
    name: z.string(),
    version: z.number().int(),
    previous: z.number().int().nullable(),
    candidate_id: z.string(),
    replayed: z.boolean(),
    recovered: z.boolean().describe('a killed earlier commit was rolled forward first'),
    backup: z.string().nullable().describe('where replaced working-copy files were backed up'),
    working_copy: z.string(),
  })
  .describe('maestro skill release --json');

export const SkillRollbackOutput = z
  .object({
    name: z.string(),
    from: z.number().int().nullable(),
    to: z.number().int(),
    changed: z.boolean(),
    recovered: z.boolean(),
    backup: z.string().nullable(),
  })
  .describe('maestro skill rollback --json');

export const SkillToggleOutput = z
  .object({ name: z.string(), disabled: z.boolean(), changed: z.boolean() })
  .describe('maestro skill disable|enable --json');

export const SkillStatusOutput = z
  .object({
    name: z.string(),
    governed: z.boolean(),
    current: z.number().int().nullable(),
    disabled: z.boolean(),
    versions: z.array(
      z.object({
        version: z.number().int(),
        candidate_id: z.string(),
        released_at: z.string(),
        released_by: z.string(),
        reason: z.string(),
        session_id: z.string(),
        run_id: z.string(),
        evaluation: z.object({
          id: z.string(),
          passed: z.number().int(),
          failed: z.number().int(),
          pass_rate: z.number(),
        }),
      }),
    ),
    history: SkillStateSchema.shape.history,
    candidates: z.array(
      z.object({
        candidate_id: z.string(),
        session_id: z.string(),
        run_id: z.string(),
        run_status: z.string(),
        staged_at: z.string(),
        verdict: z.string(),
        explanation: z.string(),
        released_as: z.number().int().nullable(),
        evaluation: z
          .object({
            id: z.string(),
            passed: z.boolean(),
            pass_count: z.number().int(),
            fail_count: z.number().int(),
            evaluated_at: z.string(),
          })
          .nullable(),
      }),
    ),
    working_copy: z.object({ path: z.string(), exists: z.boolean(), drift: z.array(z.string()) }),
    pending_commit: z.boolean().describe('a killed release/rollback awaits roll-forward (any skill write finishes it)'),
  })
  .describe('maestro skill status --json');

/** Every zod schema this package publishes as JSON Schema in schemas/, by file name. */
export const jsonSchemas = {
  'skill-state': SkillStateSchema,
  'skill-candidates': SkillCandidatesFile,
  'skill-evidence': SkillEvidence,
  'skill-evaluation': SkillEvaluationRecord,
  'skill-validate-output': SkillValidateOutput,
  'skill-list-output': SkillListOutput,
  'skill-search-output': SkillSearchOutput,
  'skill-load-output': SkillLoadOutput,
  'skill-stage-output': SkillStageOutput,
  'skill-evaluate-output': SkillEvaluationRecord.describe('maestro skill evaluate --json'),
  'skill-release-output': SkillReleaseOutput,
  'skill-rollback-output': SkillRollbackOutput,
  'skill-toggle-output': SkillToggleOutput,
  'skill-status-output': SkillStatusOutput,
};

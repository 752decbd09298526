import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inputError, parseJsonText, type Runtime, sha256 } from '@maestro/core';
import { type WorkflowLayout, withLock, writeJsonAtomic } from '@maestro/fs';
import { z } from 'zod';
import { findCandidate } from './candidates.js';
import { skillPaths } from './store.js';

const Outcome = z.enum(['success', 'failure']);

/** The evidence file `skill evaluate` reads: what each case expected and what the run observed. */
export const SkillEvidence = z
  .object({
    schema_version: z.literal('maestro-skill-evidence/1.0'),
    skill: z.string().describe('the skill name the evidence is about'),
    candidate: z.string().optional().describe('the candidate id it was produced with (checked when given)'),
    cases: z
      .array(
        z.object({
          id: z.string().min(1),
          input: z.unknown().describe('what the skill was given (recorded, not interpreted)'),
          expected: z.object({
            outcome: Outcome,
            contains: z.array(z.string()).optional().describe('substrings the output must contain'),
            not_contains: z.array(z.string()).optional().describe('substrings the output must not contain'),
            exit_code: z.number().int().optional(),
          }),
          observed: z.object({
            outcome: Outcome,
            output: z.string().optional(),
            exit_code: z.number().int().optional(),
            run: z.string().optional().describe('the run that observed it'),
          }),
        }),
      )
      .min(1, 'an evaluation needs at least one case'),
  })
  .describe('maestro skill evaluate --evidence: cases with inputs, expected outcomes and observations');
export type SkillEvidenceData = z.infer<typeof SkillEvidence>;

export const SkillEvaluationRecord = z
  .object({
    schema_version: z.literal('maestro-skill-evaluation/1.0'),
    id: z.string(),
    skill: z.string(),
    candidate_id: z.string(),
    manifest_hash: z.string(),
    evaluated_at: z.string(),
    evidence_file: z.string(),
    evidence_sha256: z.string(),
    passed: z.boolean().describe('every case passed'),
    pass_count: z.number().int(),
    fail_count: z.number().int(),
    cases: z.array(z.object({ id: z.string(), passed: z.boolean(), reasons: z.array(z.string()) })),
  })
  .describe('.workflow/skills/<name>/evaluations/<candidate>.json: the latest evaluation of a candidate');
export type SkillEvaluation = z.infer<typeof SkillEvaluationRecord>;

type Case = SkillEvidenceData['cases'][number];

/** Pure: why a case failed (empty when it passed). */
export function judgeCase(c: Case): string[] {
  const reasons: string[] = [];
  if (c.observed.outcome !== c.expected.outcome)
    reasons.push(`expected ${c.expected.outcome}, observed ${c.observed.outcome}`);
  const output = c.observed.output ?? '';
  for (const s of c.expected.contains ?? []) if (!output.includes(s)) reasons.push(`output lacks "${s}"`);
  for (const s of c.expected.not_contains ?? []) if (output.includes(s)) reasons.push(`output contains "${s}"`);
  if (c.expected.exit_code !== undefined && c.observed.exit_code !== c.expected.exit_code)
    reasons.push(`expected exit code ${c.expected.exit_code}, observed ${c.observed.exit_code ?? 'none'}`);
  return reasons;
}

export function readEvidence(file: string): { evidence: SkillEvidenceData; text: string } {
  if (!existsSync(file))
    throw inputError('EVIDENCE_NOT_FOUND', `${file} does not exist`, { hint: 'give the evidence JSON file' });
  const text = readFileSync(file, 'utf8');
  const parsed = SkillEvidence.safeParse(parseJsonText(text, file));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw inputError('EVIDENCE_INVALID', `${file}: ${first?.path.join('.') || '(root)'}: ${first?.message}`, {
      hint: 'see schemas/skill-evidence.schema.json for the format',
      location: { file },
    });
  }
  return { evidence: parsed.data, text };
}

export function evaluationPath(layout: WorkflowLayout, name: string, candidateId: string): string {
  return join(skillPaths(layout, name).evaluations, `${candidateId}.json`);
}

export function readEvaluation(layout: WorkflowLayout, name: string, candidateId: string): SkillEvaluation | null {
  const file = evaluationPath(layout, name, candidateId);
  if (!existsSync(file)) return null;
  const parsed = SkillEvaluationRecord.safeParse(parseJsonText(readFileSync(file, 'utf8'), file));
  if (!parsed.success) {
    throw inputError('SKILL_EVALUATION_DAMAGED', `${file} is not a valid evaluation record`, {
      hint: `evaluate again: \`maestro skill evaluate ${name} --candidate ${candidateId} --evidence <file>\``,
      location: { file },
    });
  }
  return parsed.data;
}

/**
 * `maestro skill evaluate`: judges every case of the evidence file and records the result for the
 * candidate (the newest evaluation replaces the previous one; the evidence hash is kept).
 */
export async function evaluateSkill(
  layout: WorkflowLayout,
  req: { name: string; candidate: string; evidence: string },
  runtime: Runtime,
): Promise<SkillEvaluation> {
  const located = findCandidate(layout, req.name, req.candidate);
  const { evidence, text } = readEvidence(req.evidence);
  if (evidence.skill !== req.name) {
    throw inputError(
      'EVIDENCE_MISMATCH',
      `${req.evidence} is evidence for skill "${evidence.skill}", not "${req.name}"`,
      {
        hint: 'pass the evidence file of this skill',
      },
    );
  }
  if (evidence.candidate !== undefined && evidence.candidate !== req.candidate) {
    throw inputError(
      'EVIDENCE_MISMATCH',
      `${req.evidence} was produced with candidate ${evidence.candidate}, not ${req.candidate}`,
      {
        hint: `evaluate that candidate, or produce evidence with ${req.candidate}`,
      },
    );
  }
  const cases = evidence.cases.map((c) => {
    const reasons = judgeCase(c);
    return { id: c.id, passed: reasons.length === 0, reasons };
  });
  const failCount = cases.filter((c) => !c.passed).length;
  const at = runtime.now().toISOString();
  const record: SkillEvaluation = {
    schema_version: 'maestro-skill-evaluation/1.0',
    id: `SKE-${sha256(`${req.candidate}\u0000${sha256(text)}\u0000${at}`).slice(0, 16)}`,
    skill: req.name,
    candidate_id: req.candidate,
    manifest_hash: located.candidate.manifest_hash,
    evaluated_at: at,
    evidence_file: req.evidence,
    evidence_sha256: sha256(text),
    passed: failCount === 0,
    pass_count: cases.length - failCount,
    fail_count: failCount,
    cases,
  };
  const file = evaluationPath(layout, req.name, req.candidate);
  mkdirSync(dirname(file), { recursive: true });
  await withLock(file, () => writeJsonAtomic(file, record));
  return record;
}

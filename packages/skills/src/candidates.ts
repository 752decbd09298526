import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatIssue, inputError, parseJsonText, type Runtime, refusedError, sha256 } from '@maestro/core';
import { type WorkflowLayout, withLock, writeFileAtomic, writeJsonAtomic } from '@maestro/fs';
import { assertRunAcceptsKnowledge, listRuns, listSessions, readRun, runPaths } from '@maestro/ledger';
import { z } from 'zod';
import { walkSkill } from './files.js';
import { FILE_KINDS } from './model.js';
import { reconcileSkill, SkillMatchSchema } from './reconcile.js';
import { validateSkill } from './validate.js';

export const SkillCandidateSchema = z.object({
  candidate_id: z.string().describe('SKC- + 16 hex of sha256(name, NUL, manifest hash)'),
  name: z.string(),
  description: z.string(),
  manifest_hash: z.string(),
  files: z.array(z.object({ path: z.string(), sha256: z.string(), size: z.number().int(), kind: z.enum(FILE_KINDS) })),
  staged_at: z.string(),
  source_path: z.string().describe('the folder the run proposed, as given'),
  reconciliation: SkillMatchSchema,
});
export type SkillCandidate = z.infer<typeof SkillCandidateSchema>;

export const SkillCandidatesFile = z
  .object({
    schema_version: z.literal('maestro-skill-candidates/1.0'),
    session_id: z.string(),
    run_id: z.string(),
    candidates: z.array(SkillCandidateSchema),
  })
  .describe('runs/<run>/skill-candidates.json: skill versions a run proposed (files under skill-candidates/<id>/)');
type CandidatesFile = z.infer<typeof SkillCandidatesFile>;

export function candidatesPath(layout: WorkflowLayout, sessionId: string, runId: string): string {
  return join(runPaths(layout, sessionId, runId).dir, 'skill-candidates.json');
}

export function candidateFilesDir(layout: WorkflowLayout, sessionId: string, runId: string, id: string): string {
  return join(runPaths(layout, sessionId, runId).dir, 'skill-candidates', id);
}

export function readCandidates(layout: WorkflowLayout, sessionId: string, runId: string): CandidatesFile | null {
  const file = candidatesPath(layout, sessionId, runId);
  if (!existsSync(file)) return null;
  const parsed = SkillCandidatesFile.safeParse(parseJsonText(readFileSync(file, 'utf8'), file));
  if (!parsed.success) {
    throw inputError(
      'SKILL_CANDIDATES_DAMAGED',
      `${file} is not a valid skill candidates file: ${parsed.error.issues[0]?.message}`,
      {
        hint: 'restore it from git or remove the run’s skill candidates; nothing was written',
        location: { file },
      },
    );
  }
  return parsed.data;
}

export interface StageSkillRequest {
  session_id: string;
  run_id: string;
  folder: string;
}

export interface StageSkillResult {
  session_id: string;
  run_id: string;
  candidate: SkillCandidate;
  reused: boolean;
}

/**
 * `maestro skill stage`: a run's proposed skill folder becomes a candidate version in the run's
 * folder (files copied byte for byte, hashed), reconciled against the project's skills. The run
 * must be running; an invalid folder is refused with every problem listed.
 */
export async function stageSkill(
  layout: WorkflowLayout,
  req: StageSkillRequest,
  runtime: Runtime,
): Promise<StageSkillResult> {
  assertRunAcceptsKnowledge(readRun(layout, req.session_id, req.run_id), layout);
  if (!existsSync(req.folder)) {
    throw inputError('SKILL_NOT_FOUND', `${req.folder} does not exist`, {
      hint: 'give the folder that holds SKILL.md',
    });
  }
  const v = validateSkill(req.folder);
  if (!v.ok || !v.properties) {
    const errors = v.issues.filter((i) => i.severity === 'error');
    throw refusedError(
      'SKILL_INVALID',
      `${req.folder} is not a valid skill:\n  ${errors.map(formatIssue).join('\n  ')}`,
      {
        hint: `fix it (\`maestro skill validate ${req.folder}\` lists every problem), then stage again`,
      },
    );
  }
  const props = v.properties;
  const name = props.name;
  const id = `SKC-${sha256(`${name}\u0000${v.manifestHash}`).slice(0, 16)}`;
  const file = candidatesPath(layout, req.session_id, req.run_id);
  return withLock(file, async () => {
    const current = readCandidates(layout, req.session_id, req.run_id) ?? {
      schema_version: 'maestro-skill-candidates/1.0' as const,
      session_id: req.session_id,
      run_id: req.run_id,
      candidates: [],
    };
    const existing = current.candidates.find((c) => c.candidate_id === id);
    if (existing) return { session_id: req.session_id, run_id: req.run_id, candidate: existing, reused: true };
    const dest = candidateFilesDir(layout, req.session_id, req.run_id, id);
    for (const f of walkSkill(req.folder).files) await writeFileAtomic(join(dest, f.path), readFileSync(f.abs));
    const candidate: SkillCandidate = {
      candidate_id: id,
      name,
      description: props.description,
      manifest_hash: v.manifestHash,
      files: v.files,
      staged_at: runtime.now().toISOString(),
      source_path: req.folder,
      reconciliation: reconcileSkill(layout, name, props.description, v.manifestHash),
    };
    await writeJsonAtomic(file, { ...current, candidates: [...current.candidates, candidate] });
    return { session_id: req.session_id, run_id: req.run_id, candidate, reused: false };
  });
}

export interface LocatedCandidate {
  session_id: string;
  run_id: string;
  run_status: string;
  candidate: SkillCandidate;
}

/** Every staged skill candidate of the project (damaged run folders are skipped by listRuns). */
export function allCandidates(layout: WorkflowLayout): LocatedCandidate[] {
  const out: LocatedCandidate[] = [];
  for (const session of listSessions(layout).sessions) {
    for (const run of listRuns(layout, session.session_id).runs) {
      const file = readCandidates(layout, session.session_id, run.run_id);
      for (const candidate of file?.candidates ?? [])
        out.push({ session_id: session.session_id, run_id: run.run_id, run_status: run.status, candidate });
    }
  }
  return out;
}

export function findCandidate(layout: WorkflowLayout, name: string, id: string): LocatedCandidate {
  const all = allCandidates(layout);
  const hit = all.find((c) => c.candidate.candidate_id === id && c.candidate.name === name);
  if (hit) return hit;
  const ofName = all.filter((c) => c.candidate.name === name).map((c) => c.candidate.candidate_id);
  throw inputError('SKILL_CANDIDATE_NOT_FOUND', `no candidate ${id} of skill ${name}`, {
    hint: ofName.length
      ? `candidates of ${name}: ${ofName.join(', ')}`
      : `stage one: \`maestro skill stage <folder> --session S --run R\``,
  });
}

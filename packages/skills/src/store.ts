import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, parseJsonText } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { z } from 'zod';
import { FILE_KINDS, type SkillState } from './model.js';

/** A name is a path segment under `.workflow/skills/` and `.agents/skills/`: it must be one. */
const SAFE_NAME = /^[\p{Ll}\p{Lo}\p{Nd}]+(-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;

export function assertSkillName(name: string): void {
  if (SAFE_NAME.test(name) && [...name].length <= 64) return;
  throw inputError(
    'INVALID_SKILL_NAME',
    `invalid skill name "${name}": lowercase letters, digits and single hyphens, at most 64`,
    {
      hint: 'run `maestro skill list` to see the skills',
    },
  );
}

export interface SkillPaths {
  dir: string;
  state: string;
  versions: string;
  evaluations: string;
  intent: string;
  /** The released working copy agents load: `.agents/skills/<name>/`. */
  workingCopy: string;
}

export function skillPaths(layout: WorkflowLayout, name: string): SkillPaths {
  assertSkillName(name);
  const dir = join(layout.skills, name);
  return {
    dir,
    state: join(dir, 'skill.json'),
    versions: join(dir, 'versions'),
    evaluations: join(dir, 'evaluations'),
    intent: join(dir, '.skill-commit.intent.json'),
    workingCopy: join(layout.root, '.agents', 'skills', name),
  };
}

const FileRecord = z.object({ path: z.string(), sha256: z.string(), size: z.number().int(), kind: z.enum(FILE_KINDS) });

export const SkillVersionSchema = z.object({
  version: z.number().int().positive(),
  candidate_id: z.string(),
  manifest_hash: z.string(),
  files: z.array(FileRecord),
  description: z.string(),
  released_at: z.string(),
  released_by: z.string(),
  reason: z.string(),
  session_id: z.string(),
  run_id: z.string(),
  evaluation: z.object({ id: z.string(), passed: z.number().int(), failed: z.number().int(), pass_rate: z.number() }),
});

const Event = z.object({
  at: z.string(),
  event: z.enum(['release', 'rollback', 'disable', 'enable']),
  version: z.number().int().nullable(),
  from: z.number().int().nullable().optional(),
  reason: z.string().nullable(),
  by: z.string(),
});

export const SkillStateSchema = z
  .object({
    schema_version: z.literal('maestro-skill-state/1.0'),
    name: z.string(),
    current: z.number().int().nullable(),
    disabled: z.boolean(),
    versions: z.array(SkillVersionSchema),
    history: z.array(Event),
  })
  .describe('.workflow/skills/<name>/skill.json: released versions, the current one, and every event');

export function emptyState(name: string): SkillState {
  return { schema_version: 'maestro-skill-state/1.0', name, current: null, disabled: false, versions: [], history: [] };
}

/** The state of a governed skill, or null when it was never released. Damage is exit 2 naming the file. */
export function readState(layout: WorkflowLayout, name: string): SkillState | null {
  const { state } = skillPaths(layout, name);
  if (!existsSync(state)) return null;
  const raw = parseJsonText(readFileSync(state, 'utf8'), state);
  const parsed = SkillStateSchema.safeParse(raw);
  if (!parsed.success || parsed.data.name !== name) {
    const why = parsed.success ? `it names skill "${parsed.data.name}"` : parsed.error.issues[0]?.message;
    throw inputError('SKILL_STATE_DAMAGED', `${state} is not a valid skill state: ${why}`, {
      hint: 'restore it from git (`git checkout -- <file>`); nothing was written',
      location: { file: state },
    });
  }
  return parsed.data as SkillState;
}

export function serializeState(state: SkillState): string {
  return `${JSON.stringify(state, null, 2)}\n`;
}

/** Names of every governed skill (folders under `.workflow/skills/` holding a skill.json). */
export function governedSkills(layout: WorkflowLayout): string[] {
  if (!existsSync(layout.skills)) return [];
  return readdirSync(layout.skills, { withFileTypes: true })
    .filter((d) => d.isDirectory() && SAFE_NAME.test(d.name) && existsSync(join(layout.skills, d.name, 'skill.json')))
    .map((d) => d.name)
    .sort();
}

export function versionDir(paths: SkillPaths, version: number): string {
  return join(paths.versions, String(version));
}

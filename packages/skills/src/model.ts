import type { Issue } from '@maestro/core';

/** Where a skill was found. Workspace skills shadow user skills of the same name. */
export const SKILL_SCOPES = ['workspace', 'user'] as const;
export type SkillScope = (typeof SKILL_SCOPES)[number];

/** A validation problem in a skill folder; `file` is relative to the skill folder. */
export interface SkillIssue extends Issue {
  field?: string;
}

/** How a file of a skill is used. Scripts are listed and hashed, never executed or imported. */
export const FILE_KINDS = ['instructions', 'script', 'reference', 'asset'] as const;
export type SkillFileKind = (typeof FILE_KINDS)[number];

export interface SkillFile {
  /** Path relative to the skill folder, `/`-separated. */
  path: string;
  sha256: string;
  size: number;
  kind: SkillFileKind;
}

/** The frontmatter fields of the Agent Skills format, as the author wrote them (strings). */
export interface SkillProperties {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string[];
}

export interface SkillValidation {
  ok: boolean;
  /** Absolute skill folder. */
  dir: string;
  /** The frontmatter, or null when it could not be read. */
  properties: SkillProperties | null;
  /** The body of SKILL.md (instructions), empty when unreadable. */
  body: string;
  files: SkillFile[];
  /** sha256 over the sorted `path NUL sha256` lines: the identity of the folder's content. */
  manifestHash: string;
  issues: SkillIssue[];
}

/** A version as recorded in `.workflow/skills/<name>/skill.json`. */
export interface SkillVersionRecord {
  version: number;
  candidate_id: string;
  manifest_hash: string;
  files: { path: string; sha256: string; size: number; kind: SkillFileKind }[];
  description: string;
  released_at: string;
  released_by: string;
  reason: string;
  session_id: string;
  run_id: string;
  evaluation: { id: string; passed: number; failed: number; pass_rate: number };
}

export type SkillEvent =
  | { at: string; event: 'release'; version: number; from: number | null; reason: string; by: string }
  | { at: string; event: 'rollback'; version: number; from: number | null; reason: string | null; by: string }
  | { at: string; event: 'disable' | 'enable'; version: number | null; reason: string | null; by: string };

export interface SkillState {
  schema_version: 'maestro-skill-state/1.0';
  name: string;
  current: number | null;
  disabled: boolean;
  versions: SkillVersionRecord[];
  history: SkillEvent[];
}

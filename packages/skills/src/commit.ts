import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type Runtime, refusedError, sha256 as sha } from '@maestro/core';
import { backupFiles, commitFiles, type PlannedWrite, recoverCommit, type WorkflowLayout } from '@maestro/fs';
import { manifestHash, walkSkill } from './files.js';
import type { SkillState, SkillVersionRecord } from './model.js';
import { type SkillPaths, serializeState, versionDir } from './store.js';

interface SkillCommitMeta {
  kind: 'skill-release' | 'skill-rollback' | 'skill-state';
  name: string;
  /** Working-copy files (relative to the project root) that the new version does not have. */
  remove: string[];
}

/** Finishes a commit a killed process left behind (roll forward), including its removals. */
export async function recoverSkillCommit(layout: WorkflowLayout, paths: SkillPaths): Promise<boolean> {
  const intent = await recoverCommit<SkillCommitMeta>(layout.root, paths.intent);
  if (!intent) return false;
  removeFiles(layout.root, intent.meta.remove);
  return true;
}

function removeFiles(root: string, files: readonly string[]): void {
  for (const rel of files) rmSync(join(root, rel), { force: true });
}

/** What the working copy holds compared with the version it should be. */
export interface WorkingCopyCheck {
  exists: boolean;
  /** Files that differ from, or are missing in, the current released version. */
  drift: string[];
}

export function checkWorkingCopy(paths: SkillPaths, current: SkillVersionRecord | undefined): WorkingCopyCheck {
  if (!existsSync(paths.workingCopy)) return { exists: false, drift: [] };
  const files = walkSkill(paths.workingCopy).files;
  const want = new Map((current?.files ?? []).map((f) => [f.path, f.sha256]));
  if (current && manifestHash(files) === current.manifest_hash) return { exists: true, drift: [] };
  const drift = new Set<string>();
  for (const f of files) if (want.get(f.path) !== f.sha256) drift.add(f.path);
  for (const path of want.keys()) if (!files.some((f) => f.path === path)) drift.add(path);
  return { exists: true, drift: [...drift].sort() };
}

/**
 * Writes a version into the working copy (and, for a release, into the version store) together
 * with the new state, as one journaled commit. A working copy someone edited since the current
 * release is refused unless `force`, and then backed up to `.workflow/.trash/` first.
 */
export async function commitVersion(
  layout: WorkflowLayout,
  paths: SkillPaths,
  req: {
    kind: 'skill-release' | 'skill-rollback';
    state: SkillState;
    previous: SkillVersionRecord | undefined;
    files: { path: string; bytes: Buffer }[];
    storeVersion: number | null;
    force: boolean;
  },
  runtime: Runtime,
): Promise<{ backup: string | null }> {
  const check = checkWorkingCopy(paths, req.previous);
  const rel = (abs: string) => relative(layout.root, abs);
  let backup: string | null = null;
  if (check.drift.length && !req.force) {
    throw refusedError(
      'SKILL_WORKING_COPY_CHANGED',
      `${rel(paths.workingCopy)} was changed since ${req.previous ? `version ${req.previous.version}` : 'it was created'} (${check.drift.slice(0, 5).join(', ')}${check.drift.length > 5 ? ', …' : ''})`,
      {
        hint: 'stage the edits as a candidate (`maestro skill stage`), or pass --force to back them up and replace them',
      },
    );
  }
  const existing = check.exists ? walkSkill(paths.workingCopy).files.map((f) => f.path) : [];
  const keep = new Set(req.files.map((f) => f.path));
  const remove = existing.filter((p) => !keep.has(p)).map((p) => rel(join(paths.workingCopy, p)));
  if (check.drift.length || remove.length) {
    backup = join(layout.trash, 'skills', `${req.state.name}-${runtime.now().toISOString().replace(/[:.]/g, '-')}`);
    await backupFiles(
      layout.root,
      existing.map((p) => rel(join(paths.workingCopy, p))),
      backup,
      {
        createdAt: runtime.now().toISOString(),
        reason: `${req.kind} of ${req.state.name}: working copy replaced`,
      },
    );
  }
  const writes: PlannedWrite[] = [];
  if (req.storeVersion !== null) {
    const dir = versionDir(paths, req.storeVersion);
    for (const f of req.files) writes.push({ path: join(dir, f.path), content: f.bytes });
  }
  for (const f of req.files) writes.push({ path: join(paths.workingCopy, f.path), content: f.bytes });
  writes.push({ path: paths.state, content: serializeState(req.state) });
  const meta: SkillCommitMeta = { kind: req.kind, name: req.state.name, remove };
  await commitFiles(layout.root, paths.intent, writes, meta, runtime, req.kind);
  removeFiles(layout.root, remove);
  return { backup: backup ? rel(backup) : null };
}

/** The bytes of a released version, checked against the hashes recorded at release. */
export function versionFiles(paths: SkillPaths, v: SkillVersionRecord): { path: string; bytes: Buffer }[] {
  const dir = versionDir(paths, v.version);
  return v.files.map((f) => {
    const file = join(dir, f.path);
    const bytes = existsSync(file) ? readFileSync(file) : null;
    if (!bytes || sha(bytes) !== f.sha256) {
      throw refusedError(
        'SKILL_VERSION_DAMAGED',
        `${file} is missing or differs from what version ${v.version} released`,
        {
          hint: 'restore .workflow/skills/ from git; nothing was written',
        },
      );
    }
    return { path: f.path, bytes };
  });
}

/** Writes only the state (disable/enable) through the same journal. */
export async function commitState(
  layout: WorkflowLayout,
  paths: SkillPaths,
  state: SkillState,
  runtime: Runtime,
): Promise<void> {
  const meta: SkillCommitMeta = { kind: 'skill-state', name: state.name, remove: [] };
  await commitFiles(
    layout.root,
    paths.intent,
    [{ path: paths.state, content: serializeState(state) }],
    meta,
    runtime,
    'skill-state',
  );
}

import { existsSync } from 'node:fs';
import { inputError, type Runtime, refusedError } from '@maestro/core';
import { type WorkflowLayout, withCorpusLock } from '@maestro/fs';
import { allCandidates } from './candidates.js';
import { checkWorkingCopy, commitState, commitVersion, recoverSkillCommit, versionFiles } from './commit.js';
import { readEvaluation } from './evaluate.js';
import type { SkillState } from './model.js';
import { readState, skillPaths } from './store.js';

function requireState(layout: WorkflowLayout, name: string): SkillState {
  const state = readState(layout, name);
  if (state) return state;
  throw inputError('SKILL_NOT_RELEASED', `skill ${name} has no released version`, {
    hint: `see \`maestro skill status ${name}\`; a version is released with \`maestro skill release ${name} <candidate> --reason …\``,
  });
}

export interface RollbackResult {
  name: string;
  from: number | null;
  to: number;
  changed: boolean;
  recovered: boolean;
  backup: string | null;
}

/**
 * `maestro skill rollback --to V --expect CURRENT`: makes an older version current again. The
 * caller names the version it believes is current, so a concurrent release or rollback is never
 * undone by mistake (exit 1 when it is not current).
 */
export async function rollbackSkill(
  layout: WorkflowLayout,
  req: { name: string; to: number; expect: number; reason?: string; by: string; force?: boolean },
  runtime: Runtime,
): Promise<RollbackResult> {
  const paths = skillPaths(layout, req.name);
  return withCorpusLock(layout, async () => {
    const recovered = await recoverSkillCommit(layout, paths);
    const state = requireState(layout, req.name);
    if (state.current !== req.expect) {
      throw refusedError(
        'SKILL_NOT_CURRENT',
        `version ${req.expect} of ${req.name} is not current (current: ${state.current ?? 'none'})`,
        {
          hint: `check \`maestro skill status ${req.name}\`, then rerun with --expect ${state.current}`,
        },
      );
    }
    const target = state.versions.find((v) => v.version === req.to);
    if (!target) {
      throw inputError('SKILL_VERSION_UNKNOWN', `${req.name} has no version ${req.to}`, {
        hint: `versions: ${state.versions.map((v) => v.version).join(', ')}`,
      });
    }
    if (req.to === state.current)
      return { name: req.name, from: state.current, to: req.to, changed: false, recovered, backup: null };
    const at = runtime.now().toISOString();
    const next: SkillState = {
      ...state,
      current: req.to,
      history: [
        ...state.history,
        { at, event: 'rollback', version: req.to, from: state.current, reason: req.reason ?? null, by: req.by },
      ],
    };
    const previous = state.versions.find((v) => v.version === state.current);
    const { backup } = await commitVersion(
      layout,
      paths,
      {
        kind: 'skill-rollback',
        state: next,
        previous,
        files: versionFiles(paths, target),
        storeVersion: null,
        force: req.force ?? false,
      },
      runtime,
    );
    return { name: req.name, from: state.current, to: req.to, changed: true, recovered, backup };
  });
}

/** `maestro skill disable|enable`: a flag with its history; a disabled skill is not listed to agents. */
export async function setSkillDisabled(
  layout: WorkflowLayout,
  req: { name: string; disabled: boolean; reason?: string; by: string },
  runtime: Runtime,
): Promise<{ name: string; disabled: boolean; changed: boolean }> {
  const paths = skillPaths(layout, req.name);
  return withCorpusLock(layout, async () => {
    await recoverSkillCommit(layout, paths);
    const state = requireState(layout, req.name);
    if (state.disabled === req.disabled) return { name: req.name, disabled: req.disabled, changed: false };
    const at = runtime.now().toISOString();
    const next: SkillState = {
      ...state,
      disabled: req.disabled,
      history: [
        ...state.history,
        {
          at,
          event: req.disabled ? 'disable' : 'enable',
          version: state.current,
          reason: req.reason ?? null,
          by: req.by,
        },
      ],
    };
    await commitState(layout, paths, next, runtime);
    return { name: req.name, disabled: req.disabled, changed: true };
  });
}

/** `maestro skill status`: the current version, candidates, last evaluation, and any drift. */
export function skillStatus(layout: WorkflowLayout, name: string) {
  const paths = skillPaths(layout, name);
  const state = readState(layout, name);
  const current = state?.versions.find((v) => v.version === state.current);
  const candidates = allCandidates(layout)
    .filter((c) => c.candidate.name === name)
    .map((c) => {
      const evaluation = readEvaluation(layout, name, c.candidate.candidate_id);
      const released = state?.versions.find((v) => v.candidate_id === c.candidate.candidate_id)?.version ?? null;
      return {
        candidate_id: c.candidate.candidate_id,
        session_id: c.session_id,
        run_id: c.run_id,
        run_status: c.run_status,
        staged_at: c.candidate.staged_at,
        verdict: c.candidate.reconciliation.verdict,
        explanation: c.candidate.reconciliation.explanation,
        released_as: released,
        evaluation: evaluation
          ? {
              id: evaluation.id,
              passed: evaluation.passed,
              pass_count: evaluation.pass_count,
              fail_count: evaluation.fail_count,
              evaluated_at: evaluation.evaluated_at,
            }
          : null,
      };
    });
  if (!state && candidates.length === 0 && !existsSync(paths.workingCopy)) {
    throw inputError('SKILL_UNKNOWN', `no skill named ${name} in this project`, {
      hint: 'run `maestro skill list --all`',
    });
  }
  const wc = checkWorkingCopy(paths, current);
  return {
    name,
    governed: state !== null,
    current: state?.current ?? null,
    disabled: state?.disabled ?? false,
    versions: (state?.versions ?? []).map((v) => ({
      version: v.version,
      candidate_id: v.candidate_id,
      released_at: v.released_at,
      released_by: v.released_by,
      reason: v.reason,
      session_id: v.session_id,
      run_id: v.run_id,
      evaluation: v.evaluation,
    })),
    history: state?.history ?? [],
    candidates,
    working_copy: { path: paths.workingCopy, exists: wc.exists, drift: wc.drift },
    pending_commit: existsSync(paths.intent),
  };
}
export type SkillStatus = ReturnType<typeof skillStatus>;

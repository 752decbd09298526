import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputError, maxOf, type Runtime, refusedError, sha256 } from '@maestro/core';
import { type WorkflowLayout, withCorpusLock } from '@maestro/fs';
import { candidateFilesDir, findCandidate } from './candidates.js';
import { commitVersion, recoverSkillCommit } from './commit.js';
import { readEvaluation } from './evaluate.js';
import type { SkillState, SkillVersionRecord } from './model.js';
import { emptyState, readState, skillPaths } from './store.js';

export interface ReleaseRequest {
  name: string;
  candidate: string;
  reason: string;
  by: string;
  /** Release a candidate reconciled as a near-duplicate of another skill. */
  allowNearDuplicate?: boolean;
  /** Replace a working copy edited since the current release (backed up first). */
  force?: boolean;
}

export interface ReleaseResult {
  name: string;
  version: number;
  previous: number | null;
  candidate_id: string;
  replayed: boolean;
  recovered: boolean;
  backup: string | null;
  working_copy: string;
}

/**
 * `maestro skill release`: a person releases an evaluated candidate as the next version, under the
 * corpus lock, in one journaled commit (version files, working copy, state). Releasing the same
 * candidate again is a replay that writes nothing; a killed release is rolled forward by the next
 * skill command.
 */
export async function releaseSkill(
  layout: WorkflowLayout,
  req: ReleaseRequest,
  runtime: Runtime,
): Promise<ReleaseResult> {
  if (!req.reason.trim())
    throw inputError('REASON_REQUIRED', 'a release needs --reason', {
      hint: 'say why this version should be released',
    });
  const paths = skillPaths(layout, req.name);
  return withCorpusLock(layout, async () => {
    const recovered = await recoverSkillCommit(layout, paths);
    const located = findCandidate(layout, req.name, req.candidate);
    const state = readState(layout, req.name) ?? emptyState(req.name);
    const done = state.versions.find((v) => v.candidate_id === req.candidate);
    const base = {
      name: req.name,
      candidate_id: req.candidate,
      recovered,
      backup: null,
      working_copy: paths.workingCopy,
    };
    if (done) return { ...base, version: done.version, previous: state.current, replayed: true };
    const c = located.candidate;
    if (located.run_status !== 'sealed') {
      throw refusedError(
        'SKILL_RUN_NOT_SEALED',
        `candidate ${c.candidate_id} comes from run ${located.run_id}, which is ${located.run_status}`,
        {
          hint: `seal the run first: \`maestro run complete ${located.run_id} --session ${located.session_id} --seal\``,
        },
      );
    }
    if (c.reconciliation.verdict === 'identical') {
      throw refusedError(
        'SKILL_IDENTICAL',
        `candidate ${c.candidate_id} is identical to the current version of ${req.name}`,
        {
          hint: 'nothing to release',
        },
      );
    }
    if (c.reconciliation.verdict === 'near_duplicate' && !req.allowNearDuplicate) {
      throw refusedError('SKILL_NEAR_DUPLICATE', `candidate ${c.candidate_id}: ${c.reconciliation.explanation}`, {
        hint: 'stage it under that skill’s name instead, or pass --allow-near-duplicate to release it as its own skill',
      });
    }
    const evaluation = readEvaluation(layout, req.name, req.candidate);
    if (!evaluation || evaluation.manifest_hash !== c.manifest_hash) {
      throw refusedError('SKILL_NOT_EVALUATED', `candidate ${c.candidate_id} of ${req.name} has no evaluation`, {
        hint: `evaluate it first: \`maestro skill evaluate ${req.name} --candidate ${c.candidate_id} --evidence <file>\``,
      });
    }
    if (!evaluation.passed) {
      throw refusedError(
        'SKILL_EVALUATION_FAILED',
        `the evaluation of ${c.candidate_id} failed ${evaluation.fail_count} of ${evaluation.cases.length} case(s): ${evaluation.cases
          .filter((x) => !x.passed)
          .map((x) => x.id)
          .join(', ')}`,
        {
          hint: 'fix the skill, stage it again and evaluate the new candidate',
        },
      );
    }
    const version = maxOf([0, ...state.versions.map((v) => v.version)]) + 1;
    const at = runtime.now().toISOString();
    const record: SkillVersionRecord = {
      version,
      candidate_id: c.candidate_id,
      manifest_hash: c.manifest_hash,
      files: c.files,
      description: c.description,
      released_at: at,
      released_by: req.by,
      reason: req.reason,
      session_id: located.session_id,
      run_id: located.run_id,
      evaluation: {
        id: evaluation.id,
        passed: evaluation.pass_count,
        failed: evaluation.fail_count,
        pass_rate: evaluation.pass_count / evaluation.cases.length,
      },
    };
    const next: SkillState = {
      ...state,
      current: version,
      versions: [...state.versions, record],
      history: [
        ...state.history,
        { at, event: 'release', version, from: state.current, reason: req.reason, by: req.by },
      ],
    };
    const dir = candidateFilesDir(layout, located.session_id, located.run_id, c.candidate_id);
    const files = c.files.map((f) => {
      const bytes = readIfExists(join(dir, f.path));
      if (!bytes || sha256(bytes) !== f.sha256) {
        throw refusedError(
          'SKILL_CANDIDATE_CHANGED',
          `${join(dir, f.path)} is missing or differs from what was staged`,
          {
            hint: 'stage the skill folder again; staged candidates are immutable',
          },
        );
      }
      return { path: f.path, bytes };
    });
    const previous = state.versions.find((v) => v.version === state.current);
    const { backup } = await commitVersion(
      layout,
      paths,
      { kind: 'skill-release', state: next, previous, files, storeVersion: version, force: req.force ?? false },
      runtime,
    );
    return { ...base, version, previous: state.current, replayed: false, backup };
  });
}

function readIfExists(file: string): Buffer | null {
  return existsSync(file) ? readFileSync(file) : null;
}

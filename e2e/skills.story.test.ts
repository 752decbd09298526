import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectTemplate, readTree, tmpDir } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { evidence, ok, project, proposeSkill, readyCandidate, S, sealRun, sk, startRun } from './skills-helpers.js';

const wc = (root: string, name: string) => readFileSync(join(root, '.agents/skills', name, 'SKILL.md'), 'utf8');

/** A fresh copy per test of an initialised project with the skills session (built once per file). */
const initialised = projectTemplate(() => {
  const root = tmpDir();
  project(root);
  return root;
});

describe('a skill from proposal to release, rollback and disable', { timeout: 120_000 }, () => {
  it('walks the whole version lifecycle with its guards', () => {
    const root = initialised();
    const run = startRun(root);
    const folder = proposeSkill(root, 'deploy-preview', 'Build the branch');
    expect(ok(root, ['skill', 'validate', folder]).stdout).toContain('scripts (listed, never run): scripts/deploy.sh');

    const staged = ok(root, ['skill', 'stage', folder, '--session', S, '--run', run, '--json']).json<{
      candidate: { candidate_id: string; reconciliation: { verdict: string } };
    }>();
    const c1 = staged.candidate.candidate_id;
    expect(staged.candidate.reconciliation.verdict).toBe('new_skill');
    expect(existsSync(join(root, '.agents/skills/deploy-preview'))).toBe(false);

    const failing = sk(root, [
      'skill',
      'evaluate',
      'deploy-preview',
      '--candidate',
      c1,
      '--evidence',
      evidence(root, 'deploy-preview', false),
    ]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('bad-pr: expected failure, observed success');
    const refused = sk(root, ['skill', 'release', 'deploy-preview', c1, '--reason', 'ship']);
    expect(refused.code).toBe(1);
    ok(root, [
      'skill',
      'evaluate',
      'deploy-preview',
      '--candidate',
      c1,
      '--evidence',
      evidence(root, 'deploy-preview'),
    ]);
    const unsealed = sk(root, ['skill', 'release', 'deploy-preview', c1, '--reason', 'ship']);
    expect(unsealed.code).toBe(1);
    expect(unsealed.stderr).toContain(`maestro run complete ${run} --session ${S} --seal`);
    sealRun(root, run);

    const r1 = ok(root, ['skill', 'release', 'deploy-preview', c1, '--reason', 'evaluated on 2 PRs', '--json']).json<{
      version: number;
    }>();
    expect(r1.version).toBe(1);
    expect(wc(root, 'deploy-preview')).toContain('1. Build the branch');
    const before = readTree(join(root, '.workflow'));
    const replay = ok(root, ['skill', 'release', 'deploy-preview', c1, '--reason', 'again', '--json']).json<{
      replayed: boolean;
    }>();
    expect(replay.replayed).toBe(true);
    expect(readTree(join(root, '.workflow'))).toEqual(before);

    const c2 = readyCandidate(root, 'deploy-preview', 'Build and test the branch');
    ok(root, ['skill', 'release', 'deploy-preview', c2, '--reason', 'adds tests']);
    expect(wc(root, 'deploy-preview')).toContain('Build and test');

    const stale = sk(root, ['skill', 'rollback', 'deploy-preview', '--to', '1', '--expect', '1']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('rerun with --expect 2');
    ok(root, ['skill', 'rollback', 'deploy-preview', '--to', '1', '--expect', '2', '--reason', 'v2 flakes']);
    expect(wc(root, 'deploy-preview')).toContain('1. Build the branch');

    writeFileSync(join(root, '.agents/skills/deploy-preview/SKILL.md'), 'edited by hand\n');
    const drift = sk(root, ['skill', 'rollback', 'deploy-preview', '--to', '2', '--expect', '1']);
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain('was changed since version 1 (SKILL.md)');
    const forced = ok(root, [
      'skill',
      'rollback',
      'deploy-preview',
      '--to',
      '2',
      '--expect',
      '1',
      '--force',
      '--json',
    ]).json<{ backup: string }>();
    expect(readFileSync(join(root, forced.backup, '.agents/skills/deploy-preview/SKILL.md'), 'utf8')).toBe(
      'edited by hand\n',
    );

    ok(root, ['skill', 'disable', 'deploy-preview', '--reason', 'broken upstream']);
    expect(ok(root, ['skill', 'list', '--json']).json<{ skills: unknown[]; hidden: number }>()).toMatchObject({
      skills: [],
      hidden: 1,
    });
    expect(sk(root, ['skill', 'load', 'deploy-preview']).code).toBe(1);
    ok(root, ['skill', 'enable', 'deploy-preview']);
    const loaded = ok(root, ['skill', 'load', 'deploy-preview']).stdout;
    expect(loaded).toMatch(/^<skill_content name="deploy-preview" version="2" scope="workspace"/);
    expect(loaded).toContain('<file kind="script">scripts/deploy.sh</file>');
    expect(loaded).not.toContain('<project_knowledge');

    const status = ok(root, ['skill', 'status', 'deploy-preview', '--json']).json<{
      current: number;
      history: { event: string; by: string }[];
      candidates: { released_as: number | null }[];
    }>();
    expect(status.current).toBe(2);
    expect(status.history.map((h) => h.event)).toEqual([
      'release',
      'release',
      'rollback',
      'rollback',
      'disable',
      'enable',
    ]);
    expect(status.history.every((h) => h.by === 'reviewer')).toBe(true);
    expect(status.candidates.map((c) => c.released_as)).toEqual([1, 2]);
  });

  it('sends a near-duplicate of another skill to a person and finds skills by search', () => {
    const root = initialised();
    ok(root, [
      'skill',
      'release',
      'deploy-preview',
      readyCandidate(root, 'deploy-preview', 'Build'),
      '--reason',
      'first',
    ]);
    const dup = readyCandidate(root, 'preview-deploy', 'Build');
    const refused = sk(root, ['skill', 'release', 'preview-deploy', dup, '--reason', 'x']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the same as skill "deploy-preview"');
    ok(root, ['skill', 'release', 'preview-deploy', dup, '--reason', 'separate on purpose', '--allow-near-duplicate']);
    const hits = ok(root, ['skill', 'search', 'preview for a pull request', '--json']).json<{
      hits: { name: string }[];
    }>();
    expect(hits.hits.map((h) => h.name).sort()).toEqual(['deploy-preview', 'preview-deploy']);
    // The session-start hook lists enabled skills (catalog tier); a disabled one is left out.
    ok(root, ['skill', 'disable', 'preview-deploy']);
    const start = sk(
      root,
      ['context', '--hook', 'claude'],
      { HOME: root },
      '{"hook_event_name":"SessionStart","source":"startup"}',
    );
    const injected = JSON.parse(start.stdout).hookSpecificOutput.additionalContext as string;
    expect(injected).toContain('<available_skills>');
    expect(injected).toContain('<name>deploy-preview</name>');
    expect(injected).not.toContain('preview-deploy');
  });
});

describe('bad input to the skill commands', { timeout: 120_000 }, () => {
  it('names the file, line and fix, and writes nothing', () => {
    const root = initialised();
    const run = startRun(root);
    const id = ok(root, [
      'skill',
      'stage',
      proposeSkill(root, 'lint-fix', 'Run lint'),
      '--session',
      S,
      '--run',
      run,
      '--json',
    ]).json<{
      candidate: { candidate_id: string };
    }>().candidate.candidate_id;
    writeFileSync(join(root, 'broken.json'), '{\n  "schema_version": "maestro-skill-evidence/1.0",\n  "cases": [\n');
    const broken = sk(root, ['skill', 'evaluate', 'lint-fix', '--candidate', id, '--evidence', 'broken.json']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:\d+:\d+: invalid JSON/);
    writeFileSync(
      join(root, 'wrong.json'),
      JSON.stringify({ schema_version: 'maestro-skill-evidence/1.0', skill: 'lint-fix', cases: [] }),
    );
    expect(sk(root, ['skill', 'evaluate', 'lint-fix', '--candidate', id, '--evidence', 'wrong.json']).stderr).toContain(
      'cases: an evaluation needs at least one case',
    );
    expect(
      sk(root, ['skill', 'evaluate', 'lint-fix', '--candidate', 'SKC-0000000000000000', '--evidence', 'wrong.json'])
        .code,
    ).toBe(2);
    expect(sk(root, ['skill', 'status', '../etc']).code).toBe(2);
    expect(sk(root, ['skill', 'rollback', 'lint-fix', '--to', 'two', '--expect', '1']).code).toBe(2);
    const invalid = proposeSkill(root, 'Bad_Name', 'x');
    const bad = sk(root, ['skill', 'stage', invalid, '--session', S, '--run', run]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("SKILL.md: error: Skill name 'Bad_Name' must be lowercase");
    expect(sk(root, ['skill', 'validate', 'no-such-skill']).code).toBe(2);
  });

  it('refuses a damaged skill state with its path', () => {
    const root = initialised();
    ok(root, ['skill', 'release', 'fmt', readyCandidate(root, 'fmt', 'Format'), '--reason', 'r']);
    const state = join(root, '.workflow/skills/fmt/skill.json');
    writeFileSync(state, '{"schema_version":"maestro-skill-state/1.0"}');
    const r = sk(root, ['skill', 'status', 'fmt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.workflow/skills/fmt/skill.json is not a valid skill state');
    expect(readFileSync(state, 'utf8')).toBe('{"schema_version":"maestro-skill-state/1.0"}');
  });
});

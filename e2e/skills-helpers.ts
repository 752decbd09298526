import { join } from 'node:path';
import { runMaestro, runMaestroAsync, writeTree } from '@maestro/test-utils';

/** A project with one session and a running run, skills proposed under `proposed/<name>/`. */
export const NOW = '2026-05-01T09:00:00.000Z';
export const S = '20260501-skills';

export const sk = (root: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string) =>
  runMaestro([...args, '--workflow-root', root], {
    cwd: root,
    env: { MAESTRO_NOW: NOW, USER: 'reviewer', ...env },
    ...(input === undefined ? {} : { input }),
  });

export const skAsync = (root: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  runMaestroAsync([...args, '--workflow-root', root], {
    cwd: root,
    env: { MAESTRO_NOW: NOW, USER: 'reviewer', ...env },
  });

export function ok(root: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = sk(root, args, env);
  if (r.code !== 0) throw new Error(`maestro ${args.join(' ')} failed (${r.code}):\n${r.stderr}`);
  return r;
}

export function proposeSkill(
  root: string,
  name: string,
  step: string,
  description = 'Deploy a preview environment for a pull request.',
) {
  const dir = join(root, 'proposed', name);
  writeTree(dir, {
    'SKILL.md': `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\n\n1. ${step}\n2. Run [deploy](scripts/deploy.sh).\n`,
    'scripts/deploy.sh': `#!/bin/sh\necho "${step}"\n`,
  });
  return dir;
}

export function evidence(root: string, name: string, pass = true): string {
  const file = join(root, `${name}-evidence.json`);
  writeTree(root, {
    [`${name}-evidence.json`]: JSON.stringify({
      schema_version: 'maestro-skill-evidence/1.0',
      skill: name,
      cases: [
        {
          id: 'pr-1',
          input: { pr: 1 },
          expected: { outcome: 'success', contains: ['https://'] },
          observed: { outcome: 'success', output: 'at https://pr-1' },
        },
        {
          id: 'bad-pr',
          input: { pr: -1 },
          expected: { outcome: 'failure', exit_code: 2 },
          observed: { outcome: pass ? 'failure' : 'success', exit_code: pass ? 2 : 0 },
        },
      ],
    }),
  });
  return file;
}

/** init + session + a run; returns the run id. */
export function project(root: string): void {
  ok(root, ['init']);
  ok(root, ['session', 'create', '--title', 'skills']);
}

export function startRun(root: string): string {
  return ok(root, ['run', 'start', '--session', S, '--command', 'build', '--json']).json<{ run_id: string }>().run_id;
}

export function sealRun(root: string, run: string): void {
  ok(root, ['run', 'complete', run, '--session', S, '--seal']);
}

/** Stage, evaluate (passing), seal: a candidate ready for release. */
export function readyCandidate(root: string, name: string, step: string): string {
  const run = startRun(root);
  const id = ok(root, ['skill', 'stage', proposeSkill(root, name, step), '--session', S, '--run', run, '--json']).json<{
    candidate: { candidate_id: string };
  }>().candidate.candidate_id;
  ok(root, ['skill', 'evaluate', name, '--candidate', id, '--evidence', evidence(root, name)]);
  sealRun(root, run);
  return id;
}

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDir, readTree, runMaestro, tmpDir } from '@maestro/test-utils';
import { afterAll } from 'vitest';

/** A project built the way a user builds it: init, spec add, session create, run start, knowledge stage. */

export const NOW = '2026-03-01T12:00:00.000Z';
export const S = '20260301-auth';
export const R = '20260301-001-plan';

export const maestro = (root: string, args: string[], now = NOW) =>
  runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: now } });

export const ok = (root: string, args: string[], now = NOW) => {
  const r = maestro(root, args, now);
  if (r.code !== 0) throw new Error(`maestro ${args.join(' ')} failed (${r.code}):\n${r.stderr}`);
  return r;
};

export function stage(root: string, title: string, content: string, run = R, extra: string[] = []) {
  return ok(root, [
    'knowledge',
    'stage',
    'spec',
    title,
    content,
    '--session',
    S,
    '--run',
    run,
    '--json',
    ...extra,
  ]).json<{
    candidate_id: string;
  }>().candidate_id;
}

let template: { root: string; ids: Record<string, string> } | null = null;

/** A fresh copy of the story project (built through the CLI once per test file, then copied). */
export function storyProject(): { root: string; ids: Record<string, string> } {
  template ??= buildStory();
  const root = tmpDir('maestro-rec-');
  copyDir(template.root, root);
  return { root, ids: template.ids };
}

afterAll(() => {
  if (template) rmSync(template.root, { recursive: true, force: true });
});

function buildStory(): { root: string; ids: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'maestro-rec-story-'));
  mkdirSync(join(root, '.workflow'));
  ok(root, ['init']);
  ok(root, ['spec', 'add', 'coding', 'Logger', 'Use pino for application logging.']);
  ok(root, ['spec', 'add', 'coding', 'UTC', 'Store all timestamps in UTC.']);
  ok(root, ['session', 'create', '--id', S, '--title', 'Auth']);
  ok(root, ['run', 'start', '--session', S, '--id', R]);
  const ids = {
    conflict: stage(root, 'Logger', 'Use winston for application logging.'),
    duplicate: stage(root, 'Time', 'Persist every date-time value as Coordinated Universal Time.'),
    exact: stage(root, 'UTC', 'Store all timestamps in UTC.'),
    unique: stage(root, 'Flags', 'Remove feature flags within two sprints after full rollout.'),
  };
  return { root, ids };
}

/** Every file but derived state (the fingerprint cache may be written by any read). */
export const userFiles = (root: string) => readTree(root, (rel) => rel.startsWith('.workflow/.index'));

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDir, readTree } from '@maestro/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, project, readyCandidate, sk, skAsync } from './skills-helpers.js';

// SIGKILL at every step of a release's journaled commit, then any skill write: the project must
// end byte-identical to an uninterrupted release, with no intent or temp file left.
let template: string;
let candidate: string;
let clean: Record<string, string>;
const dirs: string[] = [];
const skip = (rel: string) => rel.includes('.index') || rel.endsWith('.lock');

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'maestro-skill-crash-'));
  dirs.push(dir);
  copyDir(template, dir);
  return dir;
}

beforeAll(() => {
  template = mkdtempSync(join(tmpdir(), 'maestro-skill-template-'));
  dirs.push(template);
  project(template);
  ok(template, [
    'skill',
    'release',
    'deploy-preview',
    readyCandidate(template, 'deploy-preview', 'Build'),
    '--reason',
    'v1',
  ]);
  candidate = readyCandidate(template, 'deploy-preview', 'Build and test');
  const dir = copy();
  ok(dir, ['skill', 'release', 'deploy-preview', candidate, '--reason', 'v2']);
  clean = readTree(dir, skip);
}, 120_000);

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

// v2 writes 2 version files, 2 working-copy files and the state: a crash point after each.
const POINTS = ['skill-release:after-intent', ...[1, 2, 3, 4, 5].map((i) => `skill-release:after-file-${i}`)];

describe('a release killed at any step is finished by the next skill command', { timeout: 120_000 }, () => {
  it.each(POINTS)('killed at %s', (point) => {
    const dir = copy();
    const killed = sk(dir, ['skill', 'release', 'deploy-preview', candidate, '--reason', 'v2'], {
      MAESTRO_CRASH_AT: point,
    });
    expect(killed.code).not.toBe(0);
    expect(existsSync(join(dir, '.workflow/skills/deploy-preview/.skill-commit.intent.json'))).toBe(true);
    expect(
      ok(dir, ['skill', 'status', 'deploy-preview', '--json']).json<{ pending_commit: boolean }>().pending_commit,
    ).toBe(true);
    const rerun = ok(dir, ['skill', 'release', 'deploy-preview', candidate, '--reason', 'v2', '--json']).json<{
      replayed: boolean;
      recovered: boolean;
      version: number;
    }>();
    expect(rerun).toMatchObject({ replayed: true, recovered: true, version: 2 });
    expect(readTree(dir, skip)).toEqual(clean);
    const leftovers = readdirSync(join(dir, '.agents/skills/deploy-preview')).filter((n) => /\.\d+$/.test(n));
    expect(leftovers).toEqual([]);
  });
});

describe('two rollbacks race', { timeout: 120_000 }, () => {
  it('exactly one wins; the other is refused because its --expect is no longer current', async () => {
    const dir = copy();
    ok(dir, ['skill', 'release', 'deploy-preview', candidate, '--reason', 'v2']);
    const [a, b] = await Promise.all([
      skAsync(dir, ['skill', 'rollback', 'deploy-preview', '--to', '1', '--expect', '2', '--json']),
      skAsync(dir, ['skill', 'rollback', 'deploy-preview', '--to', '1', '--expect', '2', '--json']),
    ]);
    expect([a.code, b.code].sort()).toEqual([0, 1]);
    const loser = a.code === 1 ? a : b;
    expect(loser.json<{ error: { code: string } }>().error.code).toBe('SKILL_NOT_CURRENT');
    const status = ok(dir, ['skill', 'status', 'deploy-preview', '--json']).json<{
      current: number;
      history: { event: string }[];
    }>();
    expect(status.current).toBe(1);
    expect(status.history.filter((h) => h.event === 'rollback')).toHaveLength(1);
  });
});

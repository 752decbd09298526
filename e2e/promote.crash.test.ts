import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { loadCorpus } from '@maestro/spec';
import { type CandidateSpec, copyDir, sessionTree, type Tree, writeTree } from '@maestro/test-utils';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { distinct, idOf, leftovers, m, promotedState, refresh, resolveSupersede } from './promote-helpers.js';

// SIGKILL at every step of the promotion transaction (the fs crashPoint), then a plain rerun:
// the final files must be byte-identical to an uninterrupted run, one entry per candidate, the
// ledger promoted, the outcome `created` (replayed), and no intent, lock or temp file left.
const S = '20260102-crash';
const R = '20260102-001-plan';
const LONG = { title: 'Long guide', content: `${'Shard keys follow the tenant boundary always. '.repeat(50)}fin` };
const CANDIDATES: CandidateSpec[] = [
  distinct(1, { category: 'arch' }),
  distinct(2, { category: 'nonsense' }),
  distinct(3, { target: 'knowhow' }),
  LONG,
  { title: 'Cache policy', content: 'Cache results for 10 minutes.', action: 'supersede', category: 'coding' },
];

let template: string;
let clean: {
  result: { promoted: { outcome: string; candidate_id: string; supersedes: string | null }[]; files: string[] };
  state: Tree;
};
const dirs: string[] = [];

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'maestro-crash-'));
  dirs.push(dir);
  copyDir(template, dir);
  return dir;
}

beforeAll(async () => {
  template = mkdtempSync(join(tmpdir(), 'maestro-crash-template-'));
  dirs.push(template);
  m(template, ['init']);
  const old = m(template, ['spec', 'add', 'coding', 'Cache policy', 'Cache results for 5 minutes.', '--json']).json<{
    sid: string;
  }>().sid;
  writeTree(template, sessionTree({ sessionId: S, runs: [{ runId: R, candidates: CANDIDATES }] }));
  await refresh(template, S);
  await resolveSupersede(template, S, idOf(CANDIDATES[4]), old);
  const dir = copy();
  const result = m(dir, ['knowledge', 'promote', S, '--all', '--json']).json<typeof clean.result>();
  expect(result.promoted).toHaveLength(CANDIDATES.length);
  expect(result.promoted.every((p) => p.outcome === 'created')).toBe(true);
  expect(result.promoted.find((p) => p.candidate_id === idOf(CANDIDATES[4]))?.supersedes).toBe(old);
  // 3 spec files, TIP + DOC knowhow, the ledger and session.json: one crash point after each
  expect(result.files).toHaveLength(7);
  clean = { result, state: promotedState(dir) };
}, 60_000);

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function expectConverged(dir: string, replayed: boolean): void {
  const r = m(dir, ['knowledge', 'promote', S, '--all', '--json']).json<{
    promoted: { outcome: string; replayed: boolean }[];
    already_promoted: unknown[];
  }>();
  expect(r.promoted.map((p) => [p.outcome, p.replayed])).toEqual(CANDIDATES.map(() => ['created', replayed]));
  expect(r.already_promoted).toEqual([]);
  expect(promotedState(dir)).toEqual(clean.state);
  expect(leftovers(dir)).toEqual([]);
  const corpus = loadCorpus(workflowLayout(dir));
  expect(corpus.issues.filter((i) => i.severity === 'error')).toEqual([]);
  for (const c of CANDIDATES) {
    const hex = idOf(c).slice(4);
    expect(corpus.entries.filter((e) => e.id.endsWith(hex) && e.store === (c.target ?? 'spec'))).toHaveLength(1);
  }
  expect(existsSync(join(dir, '.workflow/.promote-commit.intent.json'))).toBe(false);
}

test('a crash at every step converges on the uninterrupted result', () => {
  const points = [
    'promote:before-intent',
    'promote:after-intent',
    ...clean.result.files.map((_, i) => `promote:after-file-${i + 1}`),
  ];
  expect(points.length).toBeGreaterThanOrEqual(7);
  for (const point of points) {
    const dir = copy();
    const crashed = m(dir, ['knowledge', 'promote', S, '--all', '--json'], 128, { MAESTRO_CRASH_AT: point });
    expect(crashed.stdout, point).toBe('');
    const journaled = existsSync(join(dir, '.workflow/.promote-commit.intent.json'));
    expect(journaled, point).toBe(point !== 'promote:before-intent');
    if (journaled) {
      // Spec files are journaled by their operations, never by a copy of their bytes.
      const intent = JSON.parse(readFileSync(join(dir, '.workflow/.promote-commit.intent.json'), 'utf8')) as {
        writes: { path: string; content?: string; replay?: string }[];
      };
      const specs = intent.writes.filter((w) => w.path.startsWith('specs/'));
      expect(specs.length, point).toBeGreaterThan(0);
      for (const w of specs) expect(w, point).toEqual({ path: w.path, replay: 'ops' });
      for (const w of intent.writes.filter((x) => !x.path.startsWith('specs/')))
        expect(typeof w.content).toBe('string');
    }
    expectConverged(dir, journaled);
  }
}, 60_000);

test('a crash during recovery is recovered by the next run', () => {
  const dir = copy();
  m(dir, ['knowledge', 'promote', S, '--all'], 128, { MAESTRO_CRASH_AT: 'promote:after-file-2' });
  m(dir, ['knowledge', 'promote', S, '--all'], 128, { MAESTRO_CRASH_AT: 'promote-recover:after-file-4' });
  expectConverged(dir, true);
}, 30_000);

test('after a crash, another session’s promote completes the journal first', () => {
  const dir = copy();
  m(dir, ['knowledge', 'promote', S, '--all'], 128, { MAESTRO_CRASH_AT: 'promote:after-intent' });
  writeTree(dir, sessionTree({ sessionId: '20260102-other', runs: [] }));
  const r = m(dir, ['knowledge', 'promote', '20260102-other', '--all', '--json']).json<{
    recovered: { session_id: string; candidate_ids: string[] };
    warnings: { code: string }[];
  }>();
  expect(r.recovered.session_id).toBe(S);
  expect(r.recovered.candidate_ids).toHaveLength(CANDIDATES.length);
  expect(r.warnings.map((w) => w.code)).toContain('recovered_other_session');
  expect(promotedState(dir)).toEqual({
    ...clean.state,
    ...Object.fromEntries(Object.entries(promotedState(dir)).filter(([k]) => k.startsWith('sessions/20260102-other'))),
  });
  expect(leftovers(dir)).toEqual([]);
}, 30_000);

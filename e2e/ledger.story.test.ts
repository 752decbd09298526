import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const SPEC = `# Coding

<spec-entry category="coding" keywords="time" date="2026-01-01" sid="S-20260101-utc1" title="Use UTC">

### Use UTC

Store and compare times in UTC.

</spec-entry>
`;

const REPORT = `---
verdict: pass
decisions:
  - {id: D-1, text: "Access tokens live 15 minutes", status: accepted}
  - "Maybe cache sessions in Redis"
constraints:
  - locked: "Never log raw tokens"
  - {text: "Pick a queue", status: deferred}
---

# Plan report
`;

test('story: session, two runs, load and record, corroborated staging, completion from report.md, seal', () => {
  const root = tmpProject({ '.workflow/specs/coding-conventions.md': SPEC });
  const env = { MAESTRO_NOW: '2026-01-02T03:04:05.000Z' };
  const m = (...args: string[]) => runMaestro([...args, '--json'], { cwd: root, env });
  const ok = (...args: string[]) => {
    const r = m(...args);
    expect(r.code, r.stderr).toBe(0);
    return r.json<Record<string, unknown>>();
  };
  const specsBefore = readTree(join(root, '.workflow/specs'));

  const session = ok('session', 'create', '--title', 'Token lifetimes');
  const S = session.session_id as string;
  expect(S).toBe('20260102-token-lifetimes');
  const R1 = ok('run', 'start', '--session', S, '--command', 'plan').run_id as string;
  const R2 = ok('run', 'start', '--session', S, '--command', 'execute').run_id as string;
  expect([R1, R2]).toEqual(['20260102-001-plan', '20260102-002-execute']);

  // explicit load records consumption; plain load and record with another signal do what they say
  const loaded = ok('load', '--id', 'S-20260101-utc1', '--session', S, '--run', R1);
  expect(loaded.recorded).toMatchObject({ count: 1, signal: 'consumed', source: 'load' });
  expect(ok('load', '--id', 'S-20260101-utc1').recorded).toBeNull();
  const rec = ok(
    'knowledge',
    'record',
    'S-20260101-utc1',
    '--signal',
    'validated',
    '--source',
    'search',
    '--session',
    S,
    '--run',
    R2,
    '--evidence',
    'artifact:test.log',
  );
  expect(rec).toMatchObject({ recorded: 1, signal: 'validated', source: 'search' });

  // the same rule staged in both runs (different spacing and case) is corroborated
  const rule = 'Refresh tokens rotate on every use.';
  const s1 = ok(
    'knowledge',
    'stage',
    'spec',
    'Rotate refresh tokens',
    rule,
    '--session',
    S,
    '--run',
    R1,
    '--category',
    'arch',
  );
  const s2 = ok(
    'knowledge',
    'stage',
    'spec',
    'Rotation',
    '  refresh TOKENS rotate on every use. ',
    '--session',
    S,
    '--run',
    R2,
    '--signal',
    'cited',
    '--signal-ids',
    'S-20260101-utc1',
  );
  expect(s2.candidate_id).toBe(s1.candidate_id);
  expect(s2).toMatchObject({ reused: false, signal_recorded: 1 });
  const shown = ok('session', 'show', S) as { summary: { candidates: Record<string, unknown>[]; inputs: unknown[] } };
  expect(shown.summary.candidates).toEqual([
    expect.objectContaining({
      candidate_id: s1.candidate_id,
      stage: 'corroborated',
      run_ids: [R1, R2],
      occurrences: 2,
      title: 'Rotate refresh tokens',
    }),
  ]);
  expect(shown.summary.inputs).toHaveLength(3);

  // completing with a report stages the accepted decision and the locked constraint only
  writeFileSync(join(root, '.workflow/sessions', S, 'runs', R1, 'report.md'), REPORT);
  const done = ok('run', 'complete', R1, '--session', S, '--summary', 'planned', '--seal');
  expect(done).toMatchObject({
    status: 'sealed',
    report: { staged_items: ['D-1', 'C-1'] },
    knowledge: { staged_count: 2 },
  });
  expect(ok('run', 'complete', R2, '--session', S)).toMatchObject({
    status: 'completed',
    knowledge: { staged_count: 0 },
  });

  // staging into a completed run is refused
  const late = m('knowledge', 'stage', 'spec', 'Late', 'Too late.', '--session', S, '--run', R2);
  expect(late.code).toBe(1);
  expect(late.json()).toMatchObject({ error: { code: 'RUN_NOT_RUNNING' } });

  // session seal refuses while R2 is unsealed, then seals and reports the backlog
  const blocked = m('session', 'seal', S);
  expect(blocked.code).toBe(1);
  expect(blocked.stderr).toContain(`${R2} (completed): maestro run seal ${R2} --session ${S}`);
  ok('run', 'seal', R2, '--session', S);
  const sealed = ok('session', 'seal', S);
  expect(sealed).toMatchObject({
    status: 'sealed',
    run_count: 2,
    knowledge: {
      pending_candidates: 3,
      corroborated_candidates: 1,
      promoted_candidates: 0,
      unreconciled_candidates: 3,
    },
  });
  const list = ok('session', 'list') as { sessions: Record<string, unknown>[] };
  expect(list.sessions).toEqual([
    expect.objectContaining({ session_id: S, status: 'sealed', run_count: 2, unsealed_runs: 0 }),
  ]);

  // completion and sealing never edit project knowledge
  expect(readTree(join(root, '.workflow/specs'))).toEqual(specsBefore);
  const delta = JSON.parse(
    readFileSync(join(root, '.workflow/sessions', S, 'runs', R1, 'knowledge-delta.json'), 'utf8'),
  );
  expect(delta.candidates.every((c: { status: string }) => c.status === 'pending')).toBe(true);
});

test('human output: stage, show and seal read well without --json', () => {
  const root = tmpProject();
  const env = { MAESTRO_NOW: '2026-01-02T03:04:05.000Z' };
  const m = (...args: string[]) => runMaestro(args, { cwd: root, env });
  m('session', 'create', '--id', '20260102-demo');
  m('run', 'start', '--session', '20260102-demo', '--id', '20260102-001-demo');
  const args = [
    'knowledge',
    'stage',
    'knowhow',
    'Retry fetch',
    '--content-file',
    '-',
    '--session',
    '20260102-demo',
    '--run',
    '20260102-001-demo',
  ];
  const empty = runMaestro(args, { cwd: root, env, input: '' });
  expect(empty.code).toBe(2);
  expect(empty.stderr).toContain('the candidate content is empty');
  const staged = runMaestro(args, { cwd: root, env, input: 'Retry flaky fetches three times.' });
  expect(staged.code, staged.stderr).toBe(0);
  expect(staged.stdout).toMatch(/^✓ Staged KDC-[a-f0-9]{16} on 20260102-demo\/20260102-001-demo/);
  const show = m('session', 'show', '20260102-demo');
  expect(show.stdout).toContain('Candidates (1):');
  expect(show.stdout).toContain('knowhow/propose  Retry fetch');
});

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId, fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { runPaths, sessionPaths } from './paths.js';
import { listRuns, readRun, startRun } from './run.js';
import { sealRun, sealSession } from './seal.js';
import { createSession, listSessions, readSession } from './session.js';

const rt = () => fixedRuntime('2026-01-02T03:04:05Z', { stepMs: 1000 });

describe('sessions', () => {
  test('ids come from the date and title, with -2 on a clash; an explicit taken id is refused', async () => {
    const layout = workflowLayout(tmpProject());
    const a = await createSession(layout, { title: 'Auth refactor!' }, rt());
    const b = await createSession(layout, { title: 'Auth refactor' }, rt());
    const c = await createSession(layout, {}, rt());
    expect([a.session_id, b.session_id, c.session_id]).toEqual([
      '20260102-auth-refactor',
      '20260102-auth-refactor-2',
      '20260102-session',
    ]);
    expect(readSession(layout, a.session_id)).toEqual(a);
    await expect(createSession(layout, { id: a.session_id }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'SESSION_EXISTS', exitCode: 2 }),
    );
    await expect(createSession(layout, { id: 'Auth' }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_SESSION_ID', exitCode: 2 }),
    );
  });

  test('listSessions reports damaged and foreign folders and goes on', () => {
    const root = tmpProject({
      ...sessionTree({ sessionId: '20260102-good' }),
      ...sessionTree({ sessionId: '20260102-bad' }),
      '.workflow/sessions/ksyn-0123/session.json': '{}',
    });
    const layout = workflowLayout(root);
    writeFileSync(sessionPaths(layout, '20260102-bad').sessionJson, '{"schema_version": 1}');
    const { sessions, problems } = listSessions(layout);
    expect(sessions.map((s) => s.session_id)).toEqual(['20260102-good']);
    expect(problems.map((p) => p.code).sort()).toEqual(['INVALID_SESSION_ID', 'SESSION_INVALID']);
    expect(problems.find((p) => p.code === 'SESSION_INVALID')?.file).toBe(
      '.workflow/sessions/20260102-bad/session.json',
    );
  });

  test('unknown keys in session.json survive our rewrites', async () => {
    const root = tmpProject(sessionTree({ sessionId: '20260102-s' }));
    const layout = workflowLayout(root);
    const file = sessionPaths(layout, '20260102-s').sessionJson;
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), team_note: 'keep me' }));
    await sealSession(layout, '20260102-s', rt());
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      team_note: 'keep me',
      status: 'sealed',
      revision: 1,
    });
  });
});

describe('runs', () => {
  test('run ids are YYYYMMDD-NNN-command, numbered past the highest existing one', async () => {
    const root = tmpProject(sessionTree({ sessionId: '20260102-s', runs: [{ runId: '20251231-007-old' }] }));
    const layout = workflowLayout(root);
    const r = await startRun(layout, { sessionId: '20260102-s', command: 'Plan Phase' }, rt());
    expect(r).toMatchObject({ run_id: '20260102-008-plan-phase', status: 'running', command: 'Plan Phase' });
    await expect(startRun(layout, { sessionId: '20260102-s', id: r.run_id }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'RUN_EXISTS' }),
    );
    await expect(startRun(layout, { sessionId: '20260102-s', id: '20260102-1-x' }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_RUN_ID' }),
    );
    await expect(startRun(layout, { sessionId: '20260102-nope' }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'SESSION_NOT_FOUND' }),
    );
    await expect(startRun(layout, { sessionId: '20260102-s', command: '!!' }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'INVALID_COMMAND' }),
    );
  });

  test('a run folder without run.json is damaged, and listRuns skips it', () => {
    const root = tmpProject(sessionTree({ sessionId: '20260102-s', runs: [{ runId: '20260102-001-a' }] }));
    const layout = workflowLayout(root);
    mkdirSync(join(sessionPaths(layout, '20260102-s').runsDir, '20260102-002-b'));
    expect(() => readRun(layout, '20260102-s', '20260102-002-b')).toThrow(
      /runs\/20260102-002-b\/run\.json is missing and its folder is empty/,
    );
    const { runs, problems } = listRuns(layout, '20260102-s');
    expect(runs.map((r) => r.run_id)).toEqual(['20260102-001-a']);
    expect(problems).toHaveLength(1);
  });

  test('run seal: running is refused with the one-step command; completed seals; sealed is idempotent', async () => {
    const root = tmpProject(
      sessionTree({
        sessionId: '20260102-s',
        runs: [
          { runId: '20260102-001-a', status: 'running' },
          { runId: '20260102-002-b', status: 'completed' },
        ],
      }),
    );
    const layout = workflowLayout(root);
    await expect(sealRun(layout, '20260102-s', '20260102-001-a', rt())).rejects.toThrow(
      expect.objectContaining({ code: 'RUN_NOT_COMPLETED', exitCode: 1, hint: expect.stringContaining('--seal') }),
    );
    const sealed = await sealRun(layout, '20260102-s', '20260102-002-b', rt());
    expect(sealed).toMatchObject({ already_sealed: false, status: 'sealed' });
    expect(await sealRun(layout, '20260102-s', '20260102-002-b', rt())).toMatchObject({ already_sealed: true });
    expect(readRun(layout, '20260102-s', '20260102-002-b').revision).toBe(1);
  });
});

describe('session seal', () => {
  test('refuses while runs are unsealed, listing each with its command, and changes nothing', async () => {
    const root = tmpProject(
      sessionTree({
        sessionId: '20260102-s',
        runs: [
          { runId: '20260102-001-a', status: 'running' },
          { runId: '20260102-002-b', status: 'completed' },
          { runId: '20260102-003-c', status: 'sealed' },
        ],
      }),
    );
    const layout = workflowLayout(root);
    const before = readTree(root);
    const err = await sealSession(layout, '20260102-s', rt()).catch((e) => e);
    expect(err).toMatchObject({ code: 'SESSION_SEAL_BLOCKED', exitCode: 1 });
    expect(err.message).toContain(
      '20260102-001-a (running): maestro run complete 20260102-001-a --session 20260102-s --seal',
    );
    expect(err.message).toContain('20260102-002-b (completed): maestro run seal 20260102-002-b --session 20260102-s');
    expect(err.message).not.toContain('003-c');
    expect(readTree(root)).toEqual(before);
  });

  test('reports the backlog from ledgers and receipts without changing any candidate', async () => {
    const a = { content: 'Rule A' };
    const b = { content: 'Rule B' };
    const root = tmpProject(
      sessionTree({
        sessionId: '20260102-s',
        runs: [
          {
            runId: '20260102-001-a',
            candidates: [a, b, { content: 'Rule C', status: 'promoted', promoted_id: 'S-1' }],
          },
          { runId: '20260102-002-b', candidates: [a] },
        ],
      }),
    );
    const layout = workflowLayout(root);
    writeFileSync(
      runPaths(layout, '20260102-s', '20260102-001-a').receipt,
      JSON.stringify({
        schema_version: 'knowledge-reconciliation/1.0',
        candidates: [{ candidate_id: candidateId('spec', 'Rule B'), promotion_eligibility: 'review_required' }],
      }),
    );
    writeFileSync(runPaths(layout, '20260102-s', '20260102-002-b').receipt, 'garbage');
    const ledgers = () => readTree(root, (rel) => rel.endsWith('session.json'));
    const before = ledgers();
    const r = await sealSession(layout, '20260102-s', rt());
    expect(r).toMatchObject({ status: 'sealed', already_sealed: false, run_count: 2 });
    expect(r.knowledge).toEqual({
      pending_candidates: 2,
      promoting_candidates: 0,
      promoted_candidates: 1,
      rejected_candidates: 0,
      corroborated_candidates: 1,
      review_required_candidates: 1,
      unreconciled_candidates: 1,
      review_command: 'maestro knowledge review 20260102-s',
    });
    expect(r.problems).toEqual([expect.objectContaining({ code: 'RECEIPT_UNREADABLE', severity: 'warning' })]);
    expect(ledgers()).toEqual(before);
    expect(readSession(layout, '20260102-s').lifecycle.seal_summary).toBe('Sealed with 2 run(s)');
    const again = await sealSession(layout, '20260102-s', rt());
    expect(again).toMatchObject({ already_sealed: true, sealed_at: r.sealed_at });
    await expect(startRun(layout, { sessionId: '20260102-s' }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'SESSION_SEALED', exitCode: 1 }),
    );
  });
});

test('session seal fails closed on a run folder it cannot read, naming it', async () => {
  const root = tmpProject(sessionTree({ sessionId: '20260102-s', runs: [{ runId: '20260102-001-a' }] }));
  const layout = workflowLayout(root);
  mkdirSync(join(sessionPaths(layout, '20260102-s').runsDir, '20260102-002-b'));
  const before = readTree(root);
  const err = await sealSession(layout, '20260102-s', rt()).catch((e) => e);
  expect(err).toMatchObject({ code: 'RUN_INVALID', exitCode: 2 });
  expect(err.message).toContain('runs/20260102-002-b/run.json');
  expect(readTree(root)).toEqual(before);
});

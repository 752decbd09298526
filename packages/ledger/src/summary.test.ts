import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { candidateId } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { runPaths, sessionPaths } from './paths.js';
import { summarizeSession } from './summary.js';

const S = '20260102-auth';
const R1 = '20260102-001-plan';
const R2 = '20260102-002-execute';
const rule = { content: 'Store times in UTC.', title: 'Use UTC', evidence_refs: ['a'] };

describe('summarizeSession', () => {
  test('the same content in two valid runs is corroborated; in one run observed', () => {
    const root = tmpProject(
      sessionTree({
        sessionId: S,
        runs: [
          { runId: R1, candidates: [rule, { content: 'Only once.' }] },
          { runId: R2, candidates: [{ ...rule, occurrences: 2, evidence_refs: ['b'] }] },
        ],
      }),
    );
    const s = summarizeSession(workflowLayout(root), S);
    expect(s.problems).toEqual([]);
    expect(s.candidates.map((c) => [c.content, c.stage, c.run_ids, c.occurrences])).toEqual([
      ['Store times in UTC.', 'corroborated', [R1, R2], 3],
      ['Only once.', 'observed', [R1], 1],
    ]);
    expect(s.candidates[0].evidence_refs).toEqual(['a', 'b']);
    expect(s.counts).toMatchObject({ candidates: 2, corroborated: 1, observed: 1, pending: 2 });
  });

  test.each([
    ['an invalid run.json', (file: string) => writeFileSync(file, '{"schema_version": "maestro-run/1.0"}')],
    ['a run.json naming another run', (file: string) => writeFileSync(file, readJsonWith(file, { run_id: R1 }))],
  ])('a copied run folder with %s is ignored with a problem and cannot corroborate', (_name, damage) => {
    const root = tmpProject(sessionTree({ sessionId: S, runs: [{ runId: R1, candidates: [rule] }] }));
    const layout = workflowLayout(root);
    const copy = join(sessionPaths(layout, S).runsDir, R2);
    cpSync(runPaths(layout, S, R1).dir, copy, { recursive: true });
    damage(join(copy, 'run.json'));
    const s = summarizeSession(layout, S);
    expect(s.candidates).toHaveLength(1);
    expect(s.candidates[0]).toMatchObject({ stage: 'observed', run_ids: [R1] });
    expect(s.problems).toHaveLength(1);
    expect(s.problems[0].file).toContain(R2);
    expect(s.runs.map((r) => r.run_id)).toEqual([R1]);
  });

  test('a damaged ledger is reported and skipped, not fatal', () => {
    const root = tmpProject(
      sessionTree({
        sessionId: S,
        runs: [
          { runId: R1, candidates: [rule] },
          { runId: R2, candidates: [rule] },
        ],
      }),
    );
    const layout = workflowLayout(root);
    writeFileSync(runPaths(layout, S, R2).delta, 'not json');
    const s = summarizeSession(layout, S);
    expect(s.candidates[0]).toMatchObject({ stage: 'observed', run_ids: [R1] });
    expect(s.problems[0]).toMatchObject({ code: 'LEDGER_INVALID', file: expect.stringContaining(R2) });
  });

  test('status precedence: promoted beats promoting beats the first ledger', () => {
    const root = tmpProject(
      sessionTree({
        sessionId: S,
        runs: [
          {
            runId: R1,
            candidates: [
              { ...rule, status: 'rejected' },
              { content: 'B', status: 'pending' },
            ],
          },
          {
            runId: R2,
            candidates: [
              { ...rule, status: 'promoted', promoted_id: 'S-20260102-0123456789abcdef' },
              { content: 'B', status: 'promoting', promoted_id: 'S-x' },
            ],
          },
          { runId: '20260102-003-review', candidates: [{ content: 'B', status: 'rejected' }] },
        ],
      }),
    );
    const s = summarizeSession(workflowLayout(root), S);
    const byId = new Map(s.candidates.map((c) => [c.candidate_id, c]));
    expect(byId.get(candidateId('spec', rule.content))).toMatchObject({
      status: 'promoted',
      promoted_id: 'S-20260102-0123456789abcdef',
    });
    expect(byId.get(candidateId('spec', 'B'))).toMatchObject({ status: 'promoting', promoted_id: 'S-x' });
  });

  test('an unknown session is bad input; a damaged session.json names the file', () => {
    const root = tmpProject(sessionTree({ sessionId: S }));
    const layout = workflowLayout(root);
    expect(() => summarizeSession(layout, '20260102-other')).toThrow(
      expect.objectContaining({ code: 'SESSION_NOT_FOUND' }),
    );
    writeFileSync(sessionPaths(layout, S).sessionJson, '{}');
    expect(() => summarizeSession(layout, S)).toThrow(
      expect.objectContaining({
        code: 'SESSION_INVALID',
        exitCode: 2,
        message: expect.stringContaining('session.json'),
      }),
    );
  });
});

function readJsonWith(file: string, patch: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...patch });
}

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

const S = '20260102-auth';
const R1 = '20260102-001-plan';
const R2 = '20260102-002-execute';
const run = (root: string, file: string) => join(root, '.workflow/sessions', S, 'runs', file);

function project() {
  return tmpProject({
    ...sessionTree({
      sessionId: S,
      runs: [
        { runId: R1, status: 'running', candidates: [{ content: 'Rule A' }] },
        { runId: R2, status: 'running', candidates: [{ content: 'Rule A' }] },
      ],
    }),
    ...sessionTree({ sessionId: '20260102-other', runs: [{ runId: R1, candidates: [{ content: 'Rule B' }] }] }),
  });
}

const m = (root: string, ...args: string[]) => runMaestro(args, { cwd: root });

describe('a damaged knowledge-delta.json', () => {
  test('fails the commands that need it (exit 2, file:line, first problems) and is never rewritten', () => {
    const root = project();
    const file = run(root, `${R1}/knowledge-delta.json`);
    writeFileSync(file, '{\n  "schema_version": "run-knowledge-delta/1.0",\n  "inputs": [,]\n}\n');
    const before = readTree(root);
    const stage = m(root, 'knowledge', 'stage', 'spec', 'T', 'C', '--session', S, '--run', R1, '--json');
    expect(stage.code).toBe(2);
    expect(stage.json()).toMatchObject({
      schema_version: 'maestro-error/1.0',
      error: {
        code: 'LEDGER_INVALID',
        exit_code: 2,
        location: { file: `.workflow/sessions/${S}/runs/${R1}/knowledge-delta.json`, line: 3 },
      },
    });
    expect(stage.stderr).toMatch(/knowledge-delta\.json:3:\d+ is not a valid knowledge-delta\.json: invalid JSON/);
    expect(stage.stderr).toContain('hint: fix or restore');
    expect(
      m(root, 'knowledge', 'record', 'x', '--signal', 'cited', '--allow-unknown', '--session', S, '--run', R1).code,
    ).toBe(2);
    expect(m(root, 'run', 'complete', R1, '--session', S).code).toBe(2);
    expect(readTree(root)).toEqual(before);
  });

  test('is reported and skipped by session show, so it cannot corroborate', () => {
    const root = project();
    const file = run(root, `${R2}/knowledge-delta.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), extra: 1 }));
    const r = m(root, 'session', 'show', S, '--json');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: .*knowledge-delta\.json.*extra/);
    const out = r.json<{ summary: { candidates: { stage: string }[] }; problems: { code: string }[] }>();
    expect(out.summary.candidates).toEqual([expect.objectContaining({ stage: 'observed', run_ids: [R1] })]);
    expect(out.problems).toEqual([expect.objectContaining({ code: 'LEDGER_INVALID' })]);
  });
});

describe('a damaged run.json', () => {
  test('fails run commands naming the file; session show and list report and skip it', () => {
    const root = project();
    const file = run(root, `${R2}/run.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), status: 'finished' }));
    const before = readFileSync(file);
    const complete = m(root, 'run', 'complete', R2, '--session', S);
    expect(complete.code).toBe(2);
    expect(complete.stderr).toContain(`runs/${R2}/run.json is not a valid run.json: status:`);
    const show = m(root, 'session', 'show', S, '--json');
    expect(show.code).toBe(0);
    expect(show.json()).toMatchObject({ runs: [expect.objectContaining({ run_id: R1 })] });
    const list = m(root, 'session', 'list', '--json');
    expect(list.code).toBe(0);
    expect(list.json()).toMatchObject({
      sessions: [{ session_id: S, run_count: 1 }, { session_id: '20260102-other' }],
    });
    expect(readFileSync(file)).toEqual(before);
  });
});

describe('a damaged session.json', () => {
  test('fails session commands naming it; session list reports it and lists the rest', () => {
    const root = project();
    const file = join(root, '.workflow/sessions', S, 'session.json');
    writeFileSync(file, '{}');
    const show = m(root, 'session', 'show', S);
    expect(show.code).toBe(2);
    expect(show.stderr).toContain(`.workflow/sessions/${S}/session.json is not a valid session.json: schema_version:`);
    expect(m(root, 'run', 'start', '--session', S).code).toBe(2);
    expect(m(root, 'session', 'seal', S).code).toBe(2);
    const list = m(root, 'session', 'list', '--json');
    expect(list.code).toBe(0);
    expect(list.stderr).toContain('session.json');
    expect(list.json()).toMatchObject({
      sessions: [{ session_id: '20260102-other' }],
      problems: [expect.objectContaining({ code: 'SESSION_INVALID', file: `.workflow/sessions/${S}/session.json` })],
    });
    expect(readFileSync(file, 'utf8')).toBe('{}');
  });
});

test('a damaged report.md fails completion with every problem and its line; nothing changes', () => {
  const root = project();
  writeFileSync(run(root, `${R1}/report.md`), '---\ndecisions:\n  - {text: "A", status: approved}\n---\n');
  const before = readTree(root);
  const r = m(root, 'run', 'complete', R1, '--session', S);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(
    `runs/${R1}/report.md:3: error: decision 1 has unknown status "approved" (use one of proposed, accepted, rejected)`,
  );
  expect(readTree(root)).toEqual(before);
});

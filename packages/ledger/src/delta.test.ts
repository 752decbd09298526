import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { parseDelta, readDelta, serializeDelta, updateDelta } from './delta.js';
import { runPaths } from './paths.js';
import { stageInto } from './stage.js';

const S = '20260102-auth';
const R = '20260102-001-plan';

function project(candidates?: { content: string }[]) {
  const root = tmpProject(sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running', candidates }] }));
  return { root, layout: workflowLayout(root), paths: runPaths(workflowLayout(root), S, R) };
}

describe('parseDelta / serializeDelta', () => {
  test('round-trips byte for byte', () => {
    const { paths } = project([{ content: 'Use UTC' }]);
    const text = readFileSync(paths.delta, 'utf8');
    expect(serializeDelta(parseDelta(text, 'x.json'))).toBe(text);
  });

  test('invalid JSON names file, line and column', () => {
    expect(() => parseDelta('{\n  "a": ,\n}', 'runs/x/knowledge-delta.json')).toThrow(
      expect.objectContaining({
        code: 'LEDGER_INVALID',
        exitCode: 2,
        message: expect.stringMatching(
          /^runs\/x\/knowledge-delta\.json:2:8 is not a valid knowledge-delta\.json: invalid JSON/,
        ),
        location: expect.objectContaining({ file: 'runs/x/knowledge-delta.json', line: 2 }),
      }),
    );
  });

  test('schema problems name the file and the first three problems; unknown keys are rejected', () => {
    const { paths } = project([{ content: 'Use UTC' }]);
    const d = JSON.parse(readFileSync(paths.delta, 'utf8'));
    d.candidates[0].status = 'done';
    d.candidates[0].occurrences = 0;
    d.candidates[0].surprise = true;
    d.revision = -1;
    let err: { message: string; details?: { problems: unknown[] } } | undefined;
    try {
      parseDelta(JSON.stringify(d), 'k.json');
    } catch (e) {
      err = e as typeof err;
    }
    expect(err?.message).toMatch(/^k\.json is not a valid knowledge-delta\.json: /);
    expect(err?.message).toContain('revision');
    expect(err?.message).toMatch(/and 1 more$/);
    expect(err?.details?.problems).toHaveLength(4);
  });

  test('serializeDelta refuses an invalid ledger (a caller bug, exit 3)', () => {
    const { paths } = project([{ content: 'Use UTC' }]);
    const d = parseDelta(readFileSync(paths.delta, 'utf8'), 'k');
    d.candidates[0].title = '';
    expect(() => serializeDelta(d)).toThrow(expect.objectContaining({ code: 'LEDGER_WRITE_INVALID', exitCode: 3 }));
  });
});

describe('readDelta', () => {
  test('a missing ledger reads as empty; an unknown run or session is bad input with the fix', () => {
    const { layout } = project();
    expect(readDelta(layout, S, R)).toMatchObject({ revision: 0, inputs: [], candidates: [], run_id: R });
    expect(() => readDelta(layout, S, '20260102-009-nope')).toThrow(
      expect.objectContaining({ code: 'RUN_NOT_FOUND', exitCode: 2, hint: expect.stringContaining('session show') }),
    );
    expect(() => readDelta(layout, '20260102-nope', R)).toThrow(
      expect.objectContaining({ code: 'SESSION_NOT_FOUND', exitCode: 2 }),
    );
    expect(() => readDelta(layout, '../x', R)).toThrow(expect.objectContaining({ code: 'INVALID_SESSION_ID' }));
  });

  test('a ledger copied from another run is damaged', () => {
    const { layout, paths } = project([{ content: 'Use UTC' }]);
    const d = JSON.parse(readFileSync(paths.delta, 'utf8'));
    d.run_id = '20260102-002-other';
    writeFileSync(paths.delta, JSON.stringify(d));
    expect(() => readDelta(layout, S, R)).toThrow(/does not match its run/);
  });
});

describe('updateDelta', () => {
  test('bumps revision and updated_at, writes atomically, leaves no temp or lock files', async () => {
    const { layout, paths } = project();
    const rt = fixedRuntime('2026-01-03T00:00:00Z', { stepMs: 1000 });
    const d1 = await updateDelta(layout, S, R, (d) => void d.inputs.push(), rt);
    expect(d1.revision).toBe(1);
    const d2 = await updateDelta(
      layout,
      S,
      R,
      (d) => {
        stageInto(
          d,
          {
            target: 'spec',
            action: 'propose',
            title: 'T',
            content: 'C',
            category: null,
            source_kind: 'manual',
            evidence_refs: [],
          },
          rt.now().toISOString(),
        );
      },
      rt,
    );
    expect(d2.revision).toBe(2);
    expect(readDelta(layout, S, R)).toEqual(d2);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(paths.dir).sort()).toEqual(['knowledge-delta.json', 'run.json']);
  });

  test('a damaged ledger is never rewritten', async () => {
    const { layout, paths } = project([{ content: 'Use UTC' }]);
    writeFileSync(paths.delta, '{"schema_version": "run-knowledge-delta/1.0", oops');
    const before = readFileSync(paths.delta);
    await expect(updateDelta(layout, S, R, () => undefined, fixedRuntime('2026-01-03T00:00:00Z'))).rejects.toThrow(
      expect.objectContaining({ code: 'LEDGER_INVALID', exitCode: 2 }),
    );
    expect(readFileSync(paths.delta)).toEqual(before);
  });

  test('a refusal inside fn writes nothing', async () => {
    const { layout, paths } = project([{ content: 'Use UTC' }]);
    const before = readFileSync(join(paths.delta));
    await expect(
      updateDelta(
        layout,
        S,
        R,
        () => {
          throw new Error('no');
        },
        fixedRuntime('2026-01-03T00:00:00Z'),
      ),
    ).rejects.toThrow('no');
    expect(readFileSync(paths.delta)).toEqual(before);
  });
});

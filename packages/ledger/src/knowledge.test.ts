import { readFileSync, writeFileSync } from 'node:fs';
import { candidateId, fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';
import { completeRun } from './complete.js';
import { readDelta } from './delta.js';
import { recordKnowledge, stageKnowledge } from './knowledge.js';
import { loadKnowledge } from './load.js';
import { runPaths } from './paths.js';
import { readRun } from './run.js';

const S = '20260102-auth';
const R1 = '20260102-001-plan';
const R2 = '20260102-002-execute';
const rt = () => fixedRuntime('2026-01-02T03:04:05Z', { stepMs: 1000 });

const SPEC = `# Coding

<spec-entry category="coding" keywords="time" date="2026-01-01" sid="S-20260101-utc1" title="Use UTC">

### Use UTC

Store and compare times in UTC.

</spec-entry>

<spec-entry category="coding" keywords="time" date="2026-01-01" sid="S-20260101-old1" title="Local time" status="deprecated" superseded-by="S-20260101-utc1">

### Local time

Use local times.

</spec-entry>
`;

function project(
  runs = [
    { runId: R1, status: 'running' as const },
    { runId: R2, status: 'running' as const },
  ],
) {
  const root = tmpProject({ ...sessionTree({ sessionId: S, runs }), '.workflow/specs/coding-conventions.md': SPEC });
  return { root, layout: workflowLayout(root) };
}

const stage = (over: Partial<Parameters<typeof stageKnowledge>[1]> = {}) => ({
  session_id: S,
  run_id: R1,
  target: 'spec' as const,
  title: 'Cache tokens',
  content: 'Cache tokens for 15 minutes.',
  ...over,
});

describe('stageKnowledge', () => {
  test('stages with run evidence and records the signal as manual input', async () => {
    const { layout } = project();
    const r = await stageKnowledge(
      layout,
      stage({ evidence: ['artifact:a'], signal: 'validated', signal_ids: ['spec:S-20260101-utc1'] }),
      rt(),
    );
    expect(r).toMatchObject({ reused: false, occurrences: 1, signal_recorded: 1, unknown_ids: [] });
    const d = readDelta(layout, S, R1);
    expect(d.candidates[0]).toMatchObject({ evidence_refs: [`run:${R1}`, 'artifact:a'], source_kind: 'manual' });
    expect(d.inputs).toEqual([
      expect.objectContaining({ knowledge_id: 'S-20260101-utc1', signal: 'validated', source: 'manual', count: 1 }),
    ]);
  });

  test('restaging under another action is refused across runs of the session', async () => {
    const { layout } = project();
    await stageKnowledge(layout, stage(), rt());
    await expect(stageKnowledge(layout, stage({ run_id: R2, action: 'contest' }), rt())).rejects.toThrow(
      expect.objectContaining({ code: 'CANDIDATE_ACTION_CONFLICT', exitCode: 1 }),
    );
    expect(readDelta(layout, S, R2).candidates).toEqual([]);
  });

  test('unknown signal ids are refused unless allowed; nothing is staged on refusal', async () => {
    const { layout } = project();
    await expect(stageKnowledge(layout, stage({ signal: 'cited', signal_ids: ['S-nope'] }), rt())).rejects.toThrow(
      expect.objectContaining({ code: 'UNKNOWN_KNOWLEDGE_ID', exitCode: 2 }),
    );
    expect(readDelta(layout, S, R1).candidates).toEqual([]);
    const ok = await stageKnowledge(
      layout,
      stage({ signal: 'cited', signal_ids: ['S-nope'], allow_unknown: true }),
      rt(),
    );
    expect(ok.unknown_ids).toEqual(['S-nope']);
  });

  test('staging into a completed or sealed run is refused and writes nothing', async () => {
    const { root, layout } = project([
      { runId: R1, status: 'completed' },
      { runId: R2, status: 'sealed' },
    ] as never);
    const before = readTree(root);
    for (const run_id of [R1, R2]) {
      await expect(stageKnowledge(layout, stage({ run_id }), rt())).rejects.toThrow(
        expect.objectContaining({ code: 'RUN_NOT_RUNNING', exitCode: 1 }),
      );
      await expect(
        recordKnowledge(layout, { session_id: S, run_id, knowledge_ids: ['S-20260101-utc1'], signal: 'cited' }, rt()),
      ).rejects.toThrow(expect.objectContaining({ code: 'RUN_NOT_RUNNING' }));
    }
    expect(readTree(root)).toEqual(before);
  });
});

describe('recordKnowledge and loadKnowledge', () => {
  test('record resolves ids case-insensitively to the corpus spelling; default source manual', async () => {
    const { layout } = project();
    const r = await recordKnowledge(
      layout,
      { session_id: S, run_id: R1, knowledge_ids: ['s-20260101-utc1'], signal: 'cited', evidence: ['x'] },
      rt(),
    );
    expect(r).toMatchObject({ recorded: 1, source: 'manual' });
    expect(r.inputs[0]).toMatchObject({ knowledge_id: 'S-20260101-utc1', evidence: ['x'] });
  });

  test('load prints without recording; with a run records consumed/load', async () => {
    const { layout } = project();
    const plain = await loadKnowledge(layout, { ids: ['S-20260101-utc1'] }, rt());
    expect(plain.recorded).toBeNull();
    expect(plain.entries[0]).toMatchObject({ id: 'S-20260101-utc1', content: 'Store and compare times in UTC.' });
    expect(readDelta(layout, S, R1).inputs).toEqual([]);
    await loadKnowledge(layout, { ids: ['S-20260101-utc1'], session_id: S, run_id: R1 }, rt());
    await loadKnowledge(layout, { ids: ['S-20260101-utc1'], session_id: S, run_id: R1 }, rt());
    expect(readDelta(layout, S, R1).inputs).toEqual([
      expect.objectContaining({ knowledge_id: 'S-20260101-utc1', signal: 'consumed', source: 'load', count: 2 }),
    ]);
  });

  test('load: unknown ids and deprecated ones (without the flag) are refused, all or nothing', async () => {
    const { layout } = project();
    await expect(
      loadKnowledge(layout, { ids: ['S-20260101-utc1', 'S-nope'], session_id: S, run_id: R1 }, rt()),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'UNKNOWN_KNOWLEDGE_ID', message: expect.stringContaining('S-nope') }),
    );
    await expect(loadKnowledge(layout, { ids: ['S-20260101-old1'] }, rt())).rejects.toThrow(
      expect.objectContaining({
        code: 'DEPRECATED_KNOWLEDGE_ID',
        hint: expect.stringContaining('--include-deprecated'),
      }),
    );
    expect(readDelta(layout, S, R1).inputs).toEqual([]);
    const old = await loadKnowledge(layout, { ids: ['S-20260101-old1'], include_deprecated: true }, rt());
    expect(old.entries[0].status).toBe('deprecated');
    await expect(loadKnowledge(layout, { ids: ['S-20260101-utc1'], session_id: S }, rt())).rejects.toThrow(
      /--session and --run go together/,
    );
  });
});

describe('completeRun', () => {
  const REPORT = [
    '---',
    'decisions:',
    '  - {text: "Tokens live 15 minutes", status: accepted}',
    '  - {text: "Maybe cache sessions", status: proposed}',
    'constraints:',
    '  - {text: "No plaintext secrets", status: locked}',
    '  - {text: "Decide on Redis", status: open}',
    '---',
    '# Report',
    '',
  ].join('\n');

  test('stages exactly the accepted decision and the locked constraint; specs are untouched', async () => {
    const { root, layout } = project();
    writeFileSync(runPaths(layout, S, R1).report, REPORT);
    const specs = () => readTree(root, (rel) => rel.includes('sessions'));
    const before = specs();
    const r = await completeRun(layout, { sessionId: S, runId: R1, summary: 'done' }, rt());
    expect(r.status).toBe('completed');
    expect(r.knowledge.staged_count).toBe(2);
    expect(r.report).toMatchObject({ found: true, decisions: 2, constraints: 2, staged_items: ['D-1', 'C-1'] });
    const d = readDelta(layout, S, R1);
    expect(d.candidates.map((c) => [c.source_kind, c.category, c.action, c.target, c.evidence_refs])).toEqual([
      ['decision', 'arch', 'propose', 'spec', [`run:${R1}`, 'report.md#decision:D-1']],
      ['constraint', 'arch', 'propose', 'spec', [`run:${R1}`, 'report.md#constraint:C-1']],
    ]);
    expect(specs()).toEqual(before);
    expect(readRun(layout, S, R1)).toMatchObject({ status: 'completed', summary: 'done' });
    await expect(completeRun(layout, { sessionId: S, runId: R1 }, rt())).rejects.toThrow(
      expect.objectContaining({ code: 'RUN_NOT_RUNNING', hint: expect.stringContaining('maestro run seal') }),
    );
  });

  test('a replay after a crash between ledger and run.json does not double-count', async () => {
    const { layout } = project();
    writeFileSync(runPaths(layout, S, R1).report, REPORT);
    await completeRun(layout, { sessionId: S, runId: R1 }, rt());
    const runJson = runPaths(layout, S, R1).runJson;
    const run = JSON.parse(readFileSync(runJson, 'utf8'));
    writeFileSync(runJson, JSON.stringify({ ...run, status: 'running', completed_at: null }));
    const again = await completeRun(layout, { sessionId: S, runId: R1, seal: true }, rt());
    expect(again.status).toBe('sealed');
    expect(readDelta(layout, S, R1).candidates.map((c) => c.occurrences)).toEqual([1, 1]);
  });

  test('a decision already staged under another action is skipped and reported', async () => {
    const { layout } = project();
    await stageKnowledge(layout, stage({ run_id: R2, content: 'Tokens live 15 minutes', action: 'supersede' }), rt());
    writeFileSync(runPaths(layout, S, R1).report, REPORT);
    const r = await completeRun(layout, { sessionId: S, runId: R1 }, rt());
    expect(r.skipped).toEqual([
      expect.objectContaining({ item_id: 'D-1', candidate_id: candidateId('spec', 'Tokens live 15 minutes') }),
    ]);
    expect(r.knowledge.staged_count).toBe(1);
  });

  test('a damaged report is bad input naming every problem; nothing is staged or completed', async () => {
    const { root, layout } = project();
    writeFileSync(
      runPaths(layout, S, R1).report,
      '---\ndecisions:\n  - {text: A, status: maybe}\n  - {status: accepted}\n---\n',
    );
    const before = readTree(root);
    const err = await completeRun(layout, { sessionId: S, runId: R1 }, rt()).catch((e) => e);
    expect(err).toMatchObject({ code: 'REPORT_INVALID', exitCode: 2, location: { line: 3 } });
    expect(err.message).toContain('report.md:3');
    expect(err.message).toContain('report.md:4');
    expect(readTree(root)).toEqual(before);
  });

  test('no report.md: the run completes with nothing staged', async () => {
    const { layout } = project();
    const r = await completeRun(layout, { sessionId: S, runId: R1, seal: true }, rt());
    expect(r).toMatchObject({ status: 'sealed', report: { found: false }, knowledge: { staged_count: 0 } });
  });
});

describe('staging on a finished run names the next step that works', () => {
  test('a sealed session says to start a new session, a running one to start a new run', async () => {
    const sealed = tmpProject(
      sessionTree({ sessionId: S, status: 'sealed', runs: [{ runId: R1, status: 'sealed' as const }] }),
    );
    await expect(stageKnowledge(workflowLayout(sealed), stage(), rt())).rejects.toThrow(
      expect.objectContaining({ code: 'RUN_NOT_RUNNING', hint: expect.stringContaining('maestro session create') }),
    );
    const running = tmpProject(sessionTree({ sessionId: S, runs: [{ runId: R1, status: 'sealed' as const }] }));
    await expect(stageKnowledge(workflowLayout(running), stage(), rt())).rejects.toThrow(
      expect.objectContaining({
        code: 'RUN_NOT_RUNNING',
        hint: expect.stringContaining(`maestro run start --session ${S}`),
      }),
    );
  });
});

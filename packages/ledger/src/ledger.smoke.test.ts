import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import {
  checkStageInput,
  createSession,
  readDelta,
  stageInto,
  startRun,
  summarizeSession,
  updateDelta,
} from '@maestro/ledger';
import { tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

test('smoke', async () => {
  const root = tmpProject();
  const layout = workflowLayout(root);
  const rt = fixedRuntime('2026-01-02T03:04:05Z', { stepMs: 1000 });
  const s = await createSession(layout, { title: 'Auth work' }, rt);
  expect(s.session_id).toBe('20260102-auth-work');
  const r1 = await startRun(layout, { sessionId: s.session_id, command: 'plan' }, rt);
  const r2 = await startRun(layout, { sessionId: s.session_id, command: 'execute' }, rt);
  expect([r1.run_id, r2.run_id]).toEqual(['20260102-001-plan', '20260102-002-execute']);
  const input = checkStageInput({
    target: 'spec',
    action: 'propose',
    title: 'UTC',
    content: 'Use UTC',
    category: null,
    source_kind: 'manual',
    evidence_refs: [],
  });
  for (const r of [r1, r2])
    await updateDelta(
      layout,
      s.session_id,
      r.run_id,
      (d) => {
        stageInto(d, input, rt.now().toISOString());
      },
      rt,
    );
  expect(readDelta(layout, s.session_id, r1.run_id).revision).toBe(1);
  const sum = summarizeSession(layout, s.session_id);
  expect(sum.candidates[0].stage).toBe('corroborated');
});

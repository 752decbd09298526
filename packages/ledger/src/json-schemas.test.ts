import { writeFileSync } from 'node:fs';
import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { sessionTree, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';
import type { z } from 'zod';
import { completeRun } from './complete.js';
import { readDelta } from './delta.js';
import { jsonSchemas } from './json-schemas.js';
import { recordKnowledge, stageKnowledge } from './knowledge.js';
import { loadKnowledge } from './load.js';
import { runPaths } from './paths.js';
import { readRun, startRun } from './run.js';
import { sealRun, sealSession } from './seal.js';
import { createSession, readSession } from './session.js';
import { summarizeSession } from './summary.js';
import { sessionOverview, showSession } from './views.js';

/** The schema accepts the value and strips nothing: a field added to an output must be added to its schema. */
function conforms(name: keyof typeof jsonSchemas, value: unknown) {
  const schema = jsonSchemas[name] as z.ZodType;
  const parsed = schema.safeParse(value);
  expect(parsed.error?.issues ?? [], name).toEqual([]);
  expect(JSON.parse(JSON.stringify(parsed.data)), name).toEqual(JSON.parse(JSON.stringify(value)));
}

test('every persisted file and --json output matches its published schema', async () => {
  const rt = fixedRuntime('2026-01-02T03:04:05Z', { stepMs: 1000 });
  const root = tmpProject({
    '.workflow/specs/coding-conventions.md':
      '<spec-entry category="coding" keywords="t" date="2026-01-01" sid="S-20260101-utc1" title="Use UTC">\n\n### Use UTC\n\nUTC.\n\n</spec-entry>\n',
    ...sessionTree({ sessionId: '20260102-broken' }),
  });
  const layout = workflowLayout(root);
  writeFileSync(`${root}/.workflow/sessions/20260102-broken/session.json`, '{}');
  const s = await createSession(layout, { title: 'All outputs' }, rt);
  conforms('session-create-output', s);
  conforms('session-record', readSession(layout, s.session_id));
  const r = await startRun(layout, { sessionId: s.session_id }, rt);
  conforms('run-start-output', r);
  const base = { session_id: s.session_id, run_id: r.run_id };
  conforms(
    'knowledge-stage-output',
    await stageKnowledge(
      layout,
      { ...base, target: 'spec', title: 'T', content: 'C', signal: 'cited', signal_ids: ['S-20260101-utc1'] },
      rt,
    ),
  );
  conforms(
    'knowledge-record-output',
    await recordKnowledge(
      layout,
      { ...base, knowledge_ids: ['S-20260101-utc1'], signal: 'validated', evidence: ['e'] },
      rt,
    ),
  );
  conforms('load-output', await loadKnowledge(layout, { ids: ['S-20260101-utc1'], ...base }, rt));
  writeFileSync(runPaths(layout, s.session_id, r.run_id).report, '---\ndecisions:\n  - accepted: "Decided"\n---\n');
  conforms('run-complete-output', await completeRun(layout, { sessionId: s.session_id, runId: r.run_id }, rt));
  conforms('run-seal-output', await sealRun(layout, s.session_id, r.run_id, rt));
  conforms('run-record', readRun(layout, s.session_id, r.run_id));
  conforms('run-knowledge-delta', readDelta(layout, s.session_id, r.run_id));
  conforms('session-knowledge-summary', summarizeSession(layout, s.session_id));
  conforms('session-show-output', showSession(layout, s.session_id));
  conforms('session-seal-output', await sealSession(layout, s.session_id, rt));
  const list = sessionOverview(layout);
  expect(list.problems).toHaveLength(1);
  conforms('session-list-output', list);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowLayout } from '@maestro/fs';
import { listRuns, readRun, readSession, summarizeSession } from '@maestro/ledger';
import { tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// maestro-flow writes its own session and run generations; a project it wrote must be readable as it is.
const S = '20261129-flow';
const R = '20261129-001-plan';
const SESSION = {
  schema_version: 'session/1.0',
  session_id: S,
  intent: 'Auth hardening',
  status: 'running',
  activity_revision: 3,
  lifecycle: { sealed_at: null, seal_summary: null, promoted_spec_ids: ['S-20261101-ab12'], promoted_knowhow_ids: [] },
  orchestration: { engine: 'manual', chain: [] },
};
const RUN = {
  schema_version: 'command-run/1.0',
  session_id: S,
  run_id: R,
  command: { name: 'plan', version: '1.0.0' },
  status: 'sealed',
  started_at: '2026-11-29T09:00:00.000Z',
  completed_at: '2026-11-29T09:04:40.000Z',
  sealed_at: '2026-11-29T09:04:41.000Z',
};

function project(session: object = SESSION, run: object = RUN) {
  return tmpProject({
    [`.workflow/sessions/${S}/session.json`]: JSON.stringify(session, null, 2),
    [`.workflow/sessions/${S}/runs/${R}/run.json`]: JSON.stringify(run, null, 2),
  });
}

describe("maestro-flow's session and run files are read as they are (migrate on read)", () => {
  it('reads session/1.0 and command-run/1.0, keeping their other keys and the file untouched', () => {
    const root = project();
    const before = readFileSync(join(root, `.workflow/sessions/${S}/session.json`), 'utf8');
    const layout = workflowLayout(root);
    const session = readSession(layout, S);
    expect(session).toMatchObject({ session_id: S, title: 'Auth hardening', status: 'running', revision: 3 });
    expect(session.lifecycle.promoted_spec_ids).toEqual(['S-20261101-ab12']);
    expect((session as Record<string, unknown>).orchestration).toEqual(SESSION.orchestration);
    expect(readRun(layout, S, R)).toMatchObject({ command: 'plan', status: 'sealed', created_at: RUN.started_at });
    expect(listRuns(layout, S).problems).toEqual([]);
    expect(summarizeSession(layout, S).runs.map((r) => r.run_id)).toEqual([R]);
    expect(readFileSync(join(root, `.workflow/sessions/${S}/session.json`), 'utf8')).toBe(before);
  });

  it('maps the statusless generations and run statuses, with the id date when timestamps are missing', () => {
    const root = project(
      {
        schema_version: 'session/2.0',
        session_id: S,
        title: 'x',
        lifecycle: { sealed_at: '2026-11-30T00:00:00.000Z' },
      },
      { schema_version: 'run/3.0', session_id: S, run_id: R, command: 'execute', status: 'failed' },
    );
    const layout = workflowLayout(root);
    expect(readSession(layout, S)).toMatchObject({ status: 'sealed', created_at: '2026-11-29T00:00:00.000Z' });
    expect(readRun(layout, S, R)).toMatchObject({ command: 'execute', status: 'completed' });
  });

  it('still refuses a damaged foreign file, naming it', () => {
    const root = project({ schema_version: 'session/1.0', session_id: 'other-id' });
    expect(() => readSession(workflowLayout(root), S)).toThrow(/session\.json is not a valid session/);
  });
});

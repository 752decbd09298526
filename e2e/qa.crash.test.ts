import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, tmpDir } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const CRASH = { MAESTRO_CRASH_AT: 'ledger:publish-before-rename' };

// A session or run is created by renaming a complete folder into place: a SIGKILL leaves no
// half-created session (which used to break session list, the gate and every rerun with the same id).
test('session create and run start killed mid-way leave nothing visible, and the rerun succeeds', () => {
  const root = tmpDir();
  const m = (args: string[], env?: NodeJS.ProcessEnv) => runMaestro(args, { cwd: root, env });
  expect(m(['init']).code).toBe(0);
  expect(m(['session', 'create', '--id', '20260101-auth'], CRASH).code).not.toBe(0);
  expect(readdirSync(join(root, '.workflow/sessions')).filter((n) => !n.startsWith('.'))).toEqual([]);
  expect(m(['session', 'list']).stderr).toBe('');
  expect(m(['session', 'create', '--id', '20260101-auth']).code).toBe(0);

  expect(m(['run', 'start', '--session', '20260101-auth', '--command', 'plan'], CRASH).code).not.toBe(0);
  const gate = m(['knowledge', 'gate']);
  expect(gate.code, gate.stdout).toBe(0);
  const run = m(['run', 'start', '--session', '20260101-auth', '--command', 'plan', '--json']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.json<{ run_id: string }>().run_id).toMatch(/^\d{8}-001-plan$/);
  expect(m(['session', 'show', '20260101-auth']).stderr).toBe('');
});

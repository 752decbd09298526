import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runMaestro, tmpDir } from '@maestro/test-utils';
import { expect, test } from 'vitest';

// The labelled set's own staging writes maestro-flow's session/1.0 and command-run/1.0 files, as a
// maestro-flow project has them; review must reconcile them where they are, without rewriting them.
const SET = resolve(import.meta.dirname, '../../shared/eval/reconcile-v1');
const SESSION = '20261129-holdout';

test('knowledge review --refresh reconciles a session maestro-flow wrote, leaving its files as they are', {
  timeout: 120_000,
}, () => {
  const dir = tmpDir();
  const staged = spawnSync(process.execPath, [join(SET, 'stage.mjs'), dir], { encoding: 'utf8' });
  expect(staged.status, staged.stderr).toBe(0);
  const sessionFile = join(dir, '.workflow/sessions', SESSION, 'session.json');
  const before = readFileSync(sessionFile, 'utf8');
  const r = runMaestro(['knowledge', 'review', SESSION, '--refresh', '--json', '--workflow-root', dir]);
  expect(r.code, r.stderr).toBe(0);
  const runs = readdirSync(join(dir, '.workflow/sessions', SESSION, 'runs'));
  const receipt = JSON.parse(
    readFileSync(join(dir, '.workflow/sessions', SESSION, 'runs', runs[0], 'knowledge-reconciliation.json'), 'utf8'),
  ) as { candidates: { disposition: string }[] };
  const cases = readFileSync(join(SET, 'cases.jsonl'), 'utf8').trim().split('\n').length;
  expect(receipt.candidates).toHaveLength(cases);
  expect(readFileSync(sessionFile, 'utf8')).toBe(before);
  const gate = runMaestro(['knowledge', 'gate', '--all', '--json', '--workflow-root', dir]);
  expect(gate.stderr).not.toMatch(/internal error/);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

// One newcomer's session through the built binary, with a pinned clock for stable output.
test('add, list, show, supersede, history, conflict, deprecate, backfill, health, knowhow', () => {
  const root = tmpProject();
  const env = { MAESTRO_NOW: '2026-05-01T10:00:00Z' };
  let input = '';
  const m = (...args: string[]) => {
    const r = runMaestro([...args, '--workflow-root', root], { env, input });
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
    return r;
  };
  m('init');
  const a = m('spec', 'add', 'coding', 'Use UTC', 'Store times in UTC.', '--json').json<{ sid: string }>().sid;
  const b = m('spec', 'add', 'coding', 'Use UTC everywhere', 'Store and compare times in UTC.', '--json').json<{
    sid: string;
  }>().sid;
  expect(a).toMatch(/^S-20260501-/);
  expect(m('spec', 'list').stdout).toMatch(new RegExp(`${a}\\s+\\[coding\\]\\s+Use UTC\\n`));
  expect(m('spec', 'show', a).stdout).toContain('Store times in UTC.');
  expect(m('spec', 'supersede', a, '--by', b).stdout).toContain(`Superseded ${a} → ${b}`);
  expect(m('spec', 'supersede', a, '--by', b).stdout).toContain('nothing changed');
  expect(m('spec', 'list', '--json').json<{ count: number }>().count).toBe(1);
  const history = m('spec', 'history', a).stdout;
  expect(history).toContain('Evolution chain (2 versions, oldest → newest):');
  expect(history).toMatch(new RegExp(`● CURRENT\\s+${b}`));
  const mark = m('spec', 'conflict', 'mark', b, '--note', 'disputed by ops', '--json').json<{ marker: string }>();
  expect(mark.marker).toMatch(/^CMK-20260501-/);
  expect(m('spec', 'health', '--json').json()).toMatchObject({ total: 2, contested: 1, chains: 1, deprecated: 1 });
  m('spec', 'conflict', 'clear', b);
  const file = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
  expect(file).not.toContain('conflict-');
  expect(file).toContain(`sid="${b}" title="Use UTC everywhere" supersedes="${a}">`);
  expect(m('spec', 'backfill-sid').stdout).toBe('All entries already have a sid.\n');
  expect(m('spec', 'deprecate', b, '--reason', 'obsolete').stdout).toContain(`Deprecated ${b}`);
  input = 'Add random jitter to exponential backoff.\n';
  const kh = m('knowhow', 'add', 'tip', 'Retry with jitter', '--content-file', '-', '--json');
  expect(kh.json()).toMatchObject({ id: 'knowhow-tip-20260501-retry-with-jitter', replayed: false });
  expect(m('knowhow', 'show', 'TIP-20260501-retry-with-jitter').stdout).toContain('Retry with jitter');
  expect(m('knowhow', 'list', '--type', 'tip', '--json').json<{ count: number }>().count).toBe(1);
  expect(m('knowhow', 'history', 'knowhow-tip-20260501-retry-with-jitter').stdout).toContain('● CURRENT');
});

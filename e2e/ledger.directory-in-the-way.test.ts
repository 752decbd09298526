import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectTemplate, runMaestro, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const S = '20260101-auth';
const R = '20260101-001-plan';
const RUN = `.workflow/sessions/${S}/runs/${R}`;

const runIn =
  (root: string) =>
  (...args: string[]) =>
    runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: '2026-01-01T10:00:00Z' } });

function buildProject(): string {
  const root = tmpProject({ '.workflow/specs/.keep': '' });
  const m = runIn(root);
  expect(m('session', 'create', '--id', S, '--title', 'Auth').code).toBe(0);
  expect(m('run', 'start', '--session', S, '--id', R, '--command', 'plan').code).toBe(0);
  expect(
    m(
      'knowledge',
      'stage',
      'spec',
      'Use UTC',
      'Store times in UTC.',
      '--category',
      'coding',
      '--session',
      S,
      '--run',
      R,
    ).code,
  ).toBe(0);
  return root;
}

/** A fresh copy per test of the staged project (built once per file: three CLI runs). */
const staged = projectTemplate(buildProject);

function project() {
  const root = staged();
  return { root, m: runIn(root) };
}

test.each([
  `${RUN}/knowledge-delta.json`,
  `${RUN}/knowledge-reconciliation.json`,
  `.workflow/sessions/${S}/session.json`,
])('a directory at %s is bad input (exit 2) naming it; commands that span sessions report it and go on', (rel) => {
  const { root, m } = project();
  if (!rel.endsWith('reconciliation.json')) rmSync(join(root, rel));
  mkdirSync(join(root, rel), { recursive: true });
  const review = m('knowledge', 'review', S, '--json');
  expect(review.code, review.stderr).toBe(2);
  expect(review.json<{ error: { code: string; message: string } }>().error).toMatchObject({
    code: 'FILE_IS_DIRECTORY',
    message: expect.stringContaining(join(root, rel)),
  });
  const backlog = m('knowledge', 'backlog');
  expect(backlog.code, backlog.stderr).toBe(0);
  expect(backlog.stderr).toContain(`${join(root, rel)} is a directory`);
});

test('ids too long for a file name are refused with exit 2, not an internal error', () => {
  const { m } = project();
  const long = `20260101-${'x'.repeat(300)}`;
  for (const args of [
    ['session', 'show', long],
    ['knowledge', 'review', long],
    ['run', 'start', '--session', long, '--command', 'plan'],
  ]) {
    const r = m(...args, '--json');
    expect(r.code, r.stderr).toBe(2);
    expect(r.json<{ error: { code: string } }>().error.code).toBe('ID_TOO_LONG');
  }
});

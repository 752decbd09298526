import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, sessionTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

const S = '20260102-auth';
const R = '20260102-001-plan';
const m = (root: string, ...args: string[]) => runMaestro(args, { cwd: root });

function project() {
  return tmpProject({
    '.workflow/specs/.keep': '',
    ...sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running', candidates: [{ content: 'Rule A' }] }] }),
  });
}

/** Each warning line names the damaged file once as its location, never `file: error: file ...`. */
function expectOneLocation(stderr: string, file: string) {
  const lines = stderr.split('\n').filter((l) => l.includes(file));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    expect(line).not.toMatch(/: (error|warning): \.workflow\//);
    expect(line.startsWith(`warning: ${file}:`) || line.startsWith(`warning: ${file} `)).toBe(true);
  }
}

describe('damaged ledger files are named once per line by the commands that list them', () => {
  test('a damaged session.json: session list, backlog and the gate', () => {
    const root = project();
    const file = `.workflow/sessions/${S}/session.json`;
    writeFileSync(join(root, file), '{bad');
    const list = m(root, 'session', 'list');
    expect(list.code).toBe(0);
    expectOneLocation(list.stderr, file);
    expect(list.stdout).not.toContain('No sessions yet');
    expect(list.stdout).toContain('No readable sessions: 1 damaged file(s)');
    expectOneLocation(m(root, 'knowledge', 'backlog').stderr, file);
    const gate = m(root, 'knowledge', 'gate', '--json');
    expect(gate.code).toBe(1);
    const reason = gate.json<{ reasons: { code: string; message: string }[] }>().reasons[0];
    expect(reason.code).toBe('invalid-session');
    expect(reason.message.startsWith(`${file}:1:2 is not a valid session.json`)).toBe(true);
  });

  test('a damaged run.json: session show warns once, the gate names the fix', () => {
    const root = project();
    const file = `.workflow/sessions/${S}/runs/${R}/run.json`;
    writeFileSync(join(root, file), '{"schema_version":"x"}');
    const show = m(root, 'session', 'show', S);
    expect(show.code).toBe(0);
    expectOneLocation(show.stderr, file);
    const gate = m(root, 'knowledge', 'gate', '--json');
    expect(gate.code).toBe(1);
    const reasons = gate.json<{ reasons: { code: string; message: string; command: string | null }[] }>().reasons;
    const invalid = reasons.find((r) => r.code === 'invalid-run');
    expect(invalid?.message.startsWith(`${file} is not a valid run.json`)).toBe(true);
    expect(invalid?.command).toContain(`fix or restore ${file}`);
    const review = m(root, 'knowledge', 'review', S);
    expect(review.code).toBe(0);
    expectOneLocation(review.stderr, file);
    expect(review.stdout).toContain('1 file(s) of this session could not be read');
    expect(review.stdout).toContain('Nothing to review in the readable runs.');
  });
});

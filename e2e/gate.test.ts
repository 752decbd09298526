import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GateOutput, type GateResult } from '@maestro/gate';
import { projectTemplate, runMaestro, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

const env = { MAESTRO_NOW: '2026-06-01T09:00:00.000Z' };
const S = '20260601-release';
const R = '20260601-001-build';

const runIn =
  (root: string) =>
  (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    runMaestro([...args, '--workflow-root', root], { env: { ...env, ...extra } });

function initProject(): string {
  const root = tmpProject();
  expect(runIn(root)(['init']).code).toBe(0);
  return root;
}

/** The staged, sealed candidate `withCandidate` starts from unless a test asks for other content. */
const RETRIES = 'Retry webhook deliveries with exponential backoff, at most five attempts.';

function stagedProject(content: string): string {
  const root = initProject();
  const m = runIn(root);
  expect(m(['session', 'create', '--id', S]).code).toBe(0);
  expect(m(['run', 'start', '--session', S, '--id', R]).code).toBe(0);
  expect(m(['knowledge', 'stage', 'spec', 'Webhook retries', content, '--session', S, '--run', R]).code).toBe(0);
  expect(m(['run', 'complete', R, '--session', S, '--seal']).code).toBe(0);
  return root;
}

// Built once per file and copied fresh for each test (the set-up is five CLI runs).
const initialised = projectTemplate(initProject);
const staged = projectTemplate(() => stagedProject(RETRIES));

function project() {
  const root = initialised();
  return { root, m: runIn(root) };
}

function gate(m: ReturnType<typeof project>['m'], ...args: string[]) {
  const r = m(['knowledge', 'gate', ...args, '--json']);
  const doc = GateOutput.parse(r.json()) as GateResult;
  return { code: r.code, doc, codes: doc.reasons.map((x) => x.code) };
}

function withCandidate(content = RETRIES) {
  const root = content === RETRIES ? staged() : stagedProject(content);
  return { root, m: runIn(root) };
}

describe('maestro knowledge gate', () => {
  it('passes on a project with nothing pending (exit 0)', () => {
    const { m } = project();
    const r = gate(m, '--all');
    expect(r.code).toBe(0);
    expect(r.doc.ok).toBe(true);
    expect(r.doc.reasons).toEqual([]);
    expect(m(['knowledge', 'gate']).stdout).toContain('gate passed');
  });

  it('fails on a missing receipt and names the refresh command; passes after it', () => {
    const { m } = withCandidate();
    const r = gate(m, '--session', S);
    expect(r.code).toBe(1);
    expect(r.codes).toEqual(['missing-receipt']);
    expect(r.doc.reasons[0]).toMatchObject({
      session_id: S,
      run_id: R,
      command: `maestro knowledge review ${S} --refresh`,
    });
    expect(m(['knowledge', 'review', S, '--refresh']).code).toBe(0);
    expect(gate(m, '--session', S).code).toBe(0);
  });

  it('passes after an unrelated corpus change (revalidated), fails after a related one naming the entry', () => {
    const { m } = withCandidate();
    m(['knowledge', 'review', S, '--refresh']);
    expect(m(['spec', 'add', 'debug', 'Flaky CI', 'Re-run the failing job once before investigating.']).code).toBe(0);
    expect(gate(m, '--all').code).toBe(0);
    const add = m([
      'spec',
      'add',
      'arch',
      'Webhook backoff',
      'Retry webhook deliveries with exponential backoff, at most five attempts.',
      '--json',
    ]);
    const sid = add.json<{ sid: string }>().sid;
    const r = gate(m, '--all');
    expect(r.code).toBe(1);
    expect(r.codes).toEqual(['stale-receipt']);
    expect(r.doc.reasons[0].message).toMatch(/changed since it was reconciled/);
    expect(r.doc.reasons[0].message).toContain(`entry ${sid} "Webhook backoff", added since the receipt`);
  });

  it('counts unresolved review-required candidates against --max-pending-review', () => {
    const { m } = withCandidate('Webhook deliveries must never be retried.');
    expect(
      m([
        'spec',
        'add',
        'arch',
        'Webhook retries',
        'Webhook deliveries must be retried with backoff, at most five attempts.',
      ]).code,
    ).toBe(0);
    m(['knowledge', 'review', S, '--refresh']);
    const r = gate(m, '--session', S);
    expect(r.code).toBe(1);
    expect(r.codes).toEqual(['review-required']);
    expect(r.doc.review_required_total).toBe(1);
    expect(r.doc.reasons[0].command).toBe(`maestro knowledge review ${S}`);
    expect(gate(m, '--session', S, '--max-pending-review', '1').code).toBe(0);
  });

  it('fails on a corrupt receipt with the refresh command', () => {
    const { root, m } = withCandidate();
    m(['knowledge', 'review', S, '--refresh']);
    writeFileSync(join(root, `.workflow/sessions/${S}/runs/${R}/knowledge-reconciliation.json`), '{ not json');
    const r = gate(m, '--all');
    expect(r.code).toBe(1);
    expect(r.codes).toEqual(['corrupt-receipt']);
    expect(r.doc.reasons[0].command).toBe(`maestro knowledge review ${S} --refresh`);
  });

  it('fails while a promotion is half-applied, and passes once promote rolls it forward', () => {
    const { root, m } = withCandidate();
    m(['knowledge', 'review', S, '--refresh']);
    const crashed = m(['knowledge', 'promote', S, '--all'], { MAESTRO_CRASH_AT: 'promote:after-intent' });
    expect(crashed.code).not.toBe(0);
    const r = gate(m, '--all');
    expect(r.code).toBe(1);
    expect(r.codes).toContain('half-applied-commit');
    expect(r.doc.reasons.find((x) => x.code === 'half-applied-commit')?.command).toBe(
      `maestro knowledge promote ${S} --all`,
    );
    expect(m(['knowledge', 'promote', S, '--all']).code).toBe(0);
    const after = gate(m, '--all');
    expect(after.codes).toEqual([]);
    expect(readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8')).toContain('Webhook retries');
    // Everything is decided: later corpus edits make old receipts stale, but there is nothing left to gate.
    expect(m(['spec', 'add', 'debug', 'Flaky CI', 'Re-run the failing job once before investigating.']).code).toBe(0);
    expect(gate(m, '--all').code).toBe(0);
  });

  it('fails on an audit P0 finding (a supersession cycle)', () => {
    const { root, m } = project();
    const tag = (sid: string, other: string) =>
      `<spec-entry category="coding" keywords="x" date="2026-05-01" sid="${sid}" title="Rule ${sid}" supersedes="${other}" superseded-by="${other}" status="deprecated">\n\n### Rule ${sid}\n\nBody ${sid}.\n\n</spec-entry>\n\n`;
    writeTree(root, {
      '.workflow/specs/coding-conventions.md': `# Coding\n\n${tag('S-20260501-aaaa', 'S-20260501-bbbb')}${tag('S-20260501-bbbb', 'S-20260501-aaaa')}`,
    });
    const r = gate(m, '--all');
    expect(r.code).toBe(1);
    expect(r.codes).toContain('audit-p0');
    expect(r.doc.audit.p0).toBeGreaterThan(0);
  });

  it('rejects bad arguments with exit 2', () => {
    const { m } = project();
    expect(m(['knowledge', 'gate', '--max-pending-review', '-1']).code).toBe(2);
    expect(m(['knowledge', 'gate', '--all', '--session', S]).code).toBe(2);
    const unknown = m(['knowledge', 'gate', '--session', '20260101-nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/20260101-nope/);
  });
});

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GateOutput, type GateResult } from '@maestro/gate';
import { CLI_BIN, projectTemplate } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { commitAll, maestro, ok, repo } from './git-helpers.js';

const CI = resolve(import.meta.dirname, '../docs/ci');

/** The gate the way CI runs it: on a git checkout, for the sessions a branch touched. */

const OLD = '20260601-old';
const NEW = '20260601-new';

function stage(root: string, session: string, content: string) {
  const run = `${session.slice(0, 8)}-001-build`;
  for (const args of [
    ['session', 'create', '--id', session],
    ['run', 'start', '--session', session, '--id', run],
    ['knowledge', 'stage', 'spec', 'Rule', content, '--session', session, '--run', run],
    ['run', 'complete', run, '--session', session, '--seal'],
  ]) {
    const r = maestro(root, ...args);
    expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
  }
}

function gate(root: string, ...args: string[]) {
  const r = maestro(root, 'knowledge', 'gate', ...args, '--json');
  return { code: r.code, doc: GateOutput.parse(r.json()) as GateResult };
}

/** main holds a session with no receipt (red); the branch adds a reviewed one (green). */
function buildBranchRepo(): string {
  const root = repo({}, false);
  stage(root, OLD, 'Feature flags are removed two sprints after rollout.');
  commitAll(root, 'old session, never reviewed');
  ok(root, 'checkout', '-q', '-b', 'feature');
  stage(root, NEW, 'Webhook deliveries are retried with exponential backoff.');
  expect(maestro(root, 'knowledge', 'review', NEW, '--refresh').code).toBe(0);
  commitAll(root, 'new session, reviewed');
  return root;
}

describe('maestro knowledge gate in CI', () => {
  /** A fresh copy of that repository per test (built once per file: nine CLI runs and a dozen git ones). */
  const branchRepo = projectTemplate(buildBranchRepo);

  it('--changed-since gates only the sessions the branch touched', () => {
    const root = branchRepo();
    const all = gate(root, '--all');
    expect(all.code).toBe(1);
    expect(all.doc.reasons.map((r) => [r.code, r.session_id])).toEqual([['missing-receipt', OLD]]);
    const branch = gate(root, '--changed-since', 'main');
    expect(branch.code).toBe(0);
    expect(branch.doc.selection).toEqual({ mode: 'changed-since', ref: 'main', changed_sessions: [NEW] });
    expect(branch.doc.sessions.map((s) => s.session_id)).toEqual([NEW]);
    // Uncommitted work counts too: a new candidate on the branch's session, not yet reviewed.
    const fix = `${NEW.slice(0, 8)}-002-fix`;
    expect(maestro(root, 'run', 'start', '--session', NEW, '--id', fix).code).toBe(0);
    expect(
      maestro(root, 'knowledge', 'stage', 'spec', 'More', 'Retry at most five times.', '--session', NEW, '--run', fix)
        .code,
    ).toBe(0);
    const dirty = gate(root, '--changed-since', 'main');
    expect(dirty.code).toBe(1);
    expect(dirty.doc.reasons.map((r) => r.session_id)).toEqual([NEW]);
  }, 120_000);

  it('a ref git does not know is bad input (exit 2) naming it', () => {
    const root = branchRepo();
    const r = maestro(root, 'knowledge', 'gate', '--changed-since', 'origin/nope', '--json');
    expect(r.code).toBe(2);
    const error = r.json<{ error: { code: string; message: string; hint: string } }>().error;
    expect(error).toMatchObject({ code: 'UNKNOWN_GIT_REF', hint: expect.stringContaining('fetch-depth: 0') });
    expect(error.message).toContain('"origin/nope"');
    const usage = maestro(root, 'knowledge', 'gate', '--all', '--changed-since', 'main');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('exclude each other');
  }, 120_000);

  it('--format markdown is a job summary: verdict, scope, a row per session, each reason with its fix', () => {
    const root = branchRepo();
    const red = maestro(root, 'knowledge', 'gate', '--all', '--format', 'markdown');
    expect(red.code).toBe(1);
    expect(red.stdout).toMatch(/^## ❌ Knowledge gate failed\n\nChecked all 2 session\(s\): /);
    expect(red.stdout).toContain('| Session | Runs checked | Fresh | Stale | Missing | Awaiting review | Promoting |');
    expect(red.stdout).toContain(`| \`${OLD}\` | 1 | 0 | 0 | 1 | 0 | 0 |`);
    expect(red.stdout).toContain(`| \`missing-receipt\` | ${OLD} / ${OLD.slice(0, 8)}-001-build |`);
    expect(red.stdout).toContain(`| \`maestro knowledge review ${OLD} --refresh\` |`);
    expect(red.stdout).not.toMatch(/\u001b\[/);
    const green = maestro(root, 'knowledge', 'gate', '--changed-since', 'main', '--format', 'markdown');
    expect(green.code).toBe(0);
    expect(green.stdout).toMatch(
      /^## ✅ Knowledge gate passed\n\nChecked sessions changed since `main` \(1 touched, 1 gated\)/,
    );
    expect(green.stdout).not.toContain('reason(s)');
    const both = maestro(root, 'knowledge', 'gate', '--format', 'markdown', '--json');
    expect(both.code).toBe(2);
  }, 120_000);

  it('docs/ci/gate.sh writes the document and the report and exits with the gate’s code', () => {
    const root = branchRepo();
    const sh = (...args: string[]) =>
      spawnSync('sh', [join(CI, 'gate.sh'), ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, MAESTRO: `${process.execPath} ${CLI_BIN}` },
      });
    const branch = sh('main');
    expect(branch.status, branch.stderr).toBe(0);
    expect(branch.stdout).toMatch(/^## ✅ Knowledge gate passed/);
    expect(GateOutput.parse(JSON.parse(readFileSync(join(root, 'knowledge-gate.json'), 'utf8'))).ok).toBe(true);
    const all = sh();
    expect(all.status).toBe(1);
    expect(all.stderr).toContain('knowledge gate failed (exit 1)');
    expect(readFileSync(join(root, 'knowledge-gate.md'), 'utf8')).toContain('missing-receipt');
    expect(sh('no-such-ref').status).toBe(2);
  }, 120_000);

  it('docs/ci/github-actions.yml runs the gate with --json, uploads it and writes the Markdown summary', () => {
    const text = readFileSync(join(CI, 'github-actions.yml'), 'utf8');
    expect(text).toContain('fetch-depth: 0');
    expect(text).toMatch(/maestro knowledge gate "\$@" --json > knowledge-gate\.json/);
    expect(text).toMatch(/maestro knowledge gate "\$@" --format markdown >> "\$GITHUB_STEP_SUMMARY"/);
    expect(text).toMatch(/uses: actions\/upload-artifact@v4[\s\S]*path: knowledge-gate\.json/);
    expect(text).toContain('set -- --changed-since "origin/$BASE_REF"');
    // Untrusted event fields reach the script through env, never spliced into it.
    const spliced = text.split('\n').filter((l) => l.includes('${{') && !/^\s+([A-Z_]+|if): /.test(l));
    expect(spliced).toEqual([]);
  });
});

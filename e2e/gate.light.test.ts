import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_BIN, projectTemplate, runMaestro, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

// On an unchanged corpus whose checks and audit are stored, the gate answers from the light entry
// points (audit/summary, ledger/session, reconcile/revision, promote/intent, spec/intent). This
// proves it by recording every module the CLI process loads (a `load` hook registered through
// `node:module`, writing each URL to a file) and refusing the heavy packages.

const env = { MAESTRO_NOW: '2026-06-01T09:00:00.000Z' };
const S = '20260601-release';
const R = '20260601-001-build';

const HOOKS = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  appendFileSync(out, url + '\\n');
  return next(url, context);
}`;
const REGISTER = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { out: process.env.LOADED_LOG } });
`;

/** Runs the CLI with the load hook; returns its exit code, stdout and the URLs it loaded. */
function traced(root: string, args: string[]): { code: number | null; stdout: string; urls: string[] } {
  const log = join(tmpDir('maestro-loaded-'), 'loaded.txt');
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(REGISTER)}`, CLI_BIN, ...args, '--workflow-root', root],
    { encoding: 'utf8', env: { ...process.env, ...env, NO_COLOR: '1', LOADED_LOG: log } },
  );
  expect(r.stderr).not.toMatch(/Error/);
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { code: r.status, stdout: r.stdout, urls };
}

/** The modules a gate that reuses its stored results has no business loading. */
const HEAVY: [string, RegExp][] = [
  ['the matcher (reconcile index or matcher/)', /\/packages\/reconcile\/dist\/(?!revision\.js$)/],
  ['the promoter', /\/packages\/promote\/dist\/(?!intent-file\.js$)/],
  ['git', /\/packages\/git\//],
  ['the graph', /\/packages\/graph\//],
  [
    'the corpus parser (@maestro/spec beyond its intent file and schemas)',
    /\/packages\/spec\/dist\/(?!(intent-file|schemas)\.js$)/,
  ],
  ['yaml', /\/node_modules\/(\.pnpm\/)?yaml[@/]/],
  ['the full audit', /\/packages\/audit\/dist\/(audit|rules-pipeline|read-pipeline)\.js$/],
];

function project(): string {
  const root = tmpProject();
  const m = (args: string[]) => runMaestro([...args, '--workflow-root', root], { env });
  expect(m(['init']).code).toBe(0);
  expect(m(['session', 'create', '--id', S]).code).toBe(0);
  expect(m(['run', 'start', '--session', S, '--id', R]).code).toBe(0);
  const retries = 'Retry webhook deliveries with exponential backoff, at most five attempts.';
  expect(m(['knowledge', 'stage', 'spec', 'Webhook retries', retries, '--session', S, '--run', R]).code).toBe(0);
  expect(m(['run', 'complete', R, '--session', S, '--seal']).code).toBe(0);
  expect(m(['spec', 'add', 'debug', 'Flaky CI', 'Re-run the failing job once before investigating.']).code).toBe(0);
  expect(m(['knowledge', 'review', S, '--refresh']).code).toBe(0);
  return root;
}

const reviewed = projectTemplate(project);

describe('maestro knowledge gate on an unchanged corpus', () => {
  it('answers from stored results without loading the matcher, promoter, git, graph or parser', () => {
    const root = reviewed();
    // The first gate computes the session checks and the audit, and stores them.
    const first = traced(root, ['knowledge', 'gate', '--json']);
    expect(first.code).toBe(0);
    expect(first.urls.some((u) => /\/packages\/reconcile\/dist\/index\.js$/.test(u))).toBe(true);
    const again = traced(root, ['knowledge', 'gate', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    // The hook saw the gate's own light modules, so an empty list below means something.
    for (const light of ['/packages/gate/dist/gate.js', '/packages/audit/dist/summary.js']) {
      expect(again.urls.some((u) => u.endsWith(light))).toBe(true);
    }
    const loaded = HEAVY.flatMap(([what, re]) => again.urls.filter((u) => re.test(u)).map((u) => `${what}: ${u}`));
    expect(loaded).toEqual([]);
  });
});

// A newcomer's walk through the main job on a temp project, using the built `maestro` binary.
// Each step says what it shows, runs the real command and prints its output.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const bin = resolve(import.meta.dirname, '../../apps/maestro/dist/main.js');
const project = mkdtempSync(join(tmpdir(), 'maestro-demo-'));
const env = { ...process.env, MAESTRO_NOW: '2026-11-29T10:00:00Z' };
const S = '20261129-auth-hardening';
const R1 = '20261129-001-plan';
const R2 = '20261129-002-build';
const S2 = '20261130-logging';
const R3 = '20261130-001-build';

function run(args, { allowFail = false, quiet = false } = {}) {
  const shown = args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
  if (!quiet) console.log(`\n$ maestro ${shown}`);
  const r = spawnSync(process.execPath, [bin, ...args, '--workflow-root', project], { encoding: 'utf8', env });
  if (!quiet) process.stdout.write(r.stdout);
  process.stdout.write(r.stderr);
  if (r.status !== 0 && !allowFail) throw new Error(`maestro ${shown} exited ${r.status}`);
  return r;
}
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (t) => `\u001b[1m${t}\u001b[22m` : (t) => t;
function say(text) {
  console.log(`\n${bold(`# ${text}`)}`);
}
function write(rel, text) {
  const abs = join(project, rel);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
  console.log(`\n(wrote ${rel})`);
}

const json = (args) => JSON.parse(run([...args, '--json'], { quiet: true }).stdout);
let ids = {};

const steps = [
  () => say(`A fresh project in ${project}: create the .workflow/ skeleton.`),
  () => run(['init']),
  () => say('Add a few project rules; each gets a stable sid. A same-titled rule is skipped, not duplicated.'),
  () =>
    run([
      'spec',
      'add',
      'coding',
      'HTTP retry policy',
      'HTTP clients retry idempotent requests up to 3 times with exponential backoff.',
      '--keywords',
      'http,retry',
    ]),
  () =>
    run([
      'spec',
      'add',
      'arch',
      'Session store',
      'Sessions must be kept in Postgres, never in process memory.',
      '--keywords',
      'session,storage',
    ]),
  () => run(['spec', 'add', 'coding', '日志脱敏', '日志中禁止输出用户手机号和身份证号。', '--keywords', '日志,隐私']),
  () => run(['spec', 'add', 'coding', 'http retry policy', 'A second rule with the same title.']),
  () => run(['spec', 'list']),
  () => run(['spec', 'health']),
  () => {
    const entries = json(['spec', 'list']).entries;
    ids = Object.fromEntries(entries.map((e) => [e.title, e.id]));
  },
  () => say('An agent session with two runs. Loading a rule by id records it as consumed; search never does.'),
  () => run(['session', 'create', '--id', S, '--title', 'Auth hardening']),
  () => run(['run', 'start', '--session', S, '--id', R1, '--command', 'plan']),
  () => run(['run', 'start', '--session', S, '--id', R2, '--command', 'build']),
  () => run(['search', 'session storage']),
  () => run(['load', '--id', ids['Session store'], '--session', S, '--run', R1]),
  () => say('The runs stage what they learned: the same rule twice (corroborated), a Chinese rule, a replacement.'),
  () =>
    run([
      'knowledge',
      'stage',
      'spec',
      'Access token lifetime',
      'Access tokens must expire after 15 minutes.',
      '--session',
      S,
      '--run',
      R1,
      '--category',
      'arch',
    ]),
  () =>
    run([
      'knowledge',
      'stage',
      'spec',
      'Token lifetime',
      'Access tokens must expire after 15 minutes.',
      '--session',
      S,
      '--run',
      R2,
      '--category',
      'arch',
    ]),
  () =>
    run([
      'knowledge',
      'stage',
      'spec',
      '令牌日志',
      '接口日志中禁止输出访问令牌和刷新令牌。',
      '--session',
      S,
      '--run',
      R2,
      '--category',
      'coding',
    ]),
  () =>
    run([
      'knowledge',
      'stage',
      'spec',
      'HTTP retry policy',
      'HTTP clients retry idempotent requests up to 5 times with exponential backoff and jitter.',
      '--session',
      S,
      '--run',
      R2,
      '--action',
      'supersede',
      '--category',
      'coding',
    ]),
  () =>
    write(
      `.workflow/sessions/${S}/runs/${R1}/report.md`,
      '---\ndecisions:\n  - text: Sessions are kept in process memory for speed\n    status: accepted\n  - text: Maybe adopt JWE later\n    status: proposed\n---\n# Plan report\n',
    ),
  () => say('Completing a run stages its accepted decisions; it never edits specs. Nothing is promotable yet.'),
  () => run(['run', 'complete', R1, '--session', S, '--seal']),
  () => run(['run', 'complete', R2, '--session', S, '--seal']),
  () => run(['knowledge', 'promote', S, '--all'], { allowFail: true }),
  () => say('Reconcile: every candidate gets a verdict with evidence, bound to a fenced receipt.'),
  () => run(['knowledge', 'review', S, '--refresh']),
  () =>
    say(
      'A person resolves what needs judgement: the process-memory decision contradicts a rule; the retry change supersedes one.',
    ),
  () => {
    const review = json(['knowledge', 'review', S]);
    const by = (pred) => review.candidates.find(pred).candidate_id;
    run([
      'knowledge',
      'review',
      S,
      '--resolve',
      by((c) => c.title.startsWith('Sessions are kept')),
      '--as',
      'conflict',
      '--reason',
      'Sessions stay in Postgres: memory loses them on every deploy',
    ]);
    run([
      'knowledge',
      'review',
      S,
      '--resolve',
      by((c) => c.action === 'supersede'),
      '--as',
      'supersede',
      '--target',
      ids['HTTP retry policy'],
      '--reason',
      'Measured: 5 attempts with jitter halve failed calls',
    ]);
  },
  () =>
    say('Promotion is explicit, locked and replay-safe; the superseded rule is deprecated on both sides of the link.'),
  () => run(['knowledge', 'promote', S, '--all']),
  () => run(['spec', 'history', ids['HTTP retry policy']]),
  () =>
    say('Search serves the new rule and hides the deprecated one; a single Chinese character finds the Chinese rule.'),
  () => run(['search', 'retry idempotent requests', '--limit', '3']),
  () => run(['search', '令', '--limit', '3']),
  () => run(['context', 'how many times should the http client retry?', '--budget', '300']),
  () =>
    say(
      'Maintenance: two identical notes in different files; the audit plans a soft prune, applies it with a backup, and restore undoes it.',
    ),
  () => run(['spec', 'add', 'debug', 'Restart the dev server', 'Restart the dev server after editing .env files.']),
  () => run(['spec', 'add', 'learning', 'Restart the dev server', 'Restart the dev server after editing .env files.']),
  () => run(['knowledge', 'audit', '--prune']),
  () => {
    const applied = json(['knowledge', 'audit', '--prune', '--apply']);
    console.log(`\n(applied ${applied.applied.count} action(s); backup ${applied.applied.backup_id})`);
    run(['knowledge', 'restore', applied.applied.backup_id]);
  },
  () => say('Release gate: green when receipts are fresh, reviews resolved, nothing half-applied and no P0 finding.'),
  () => run(['session', 'seal', S]),
  () => run(['knowledge', 'gate', '--all']),
  () => say('A second session is left pending, for the review page: a conflict, a Chinese refinement, a new rule.'),
  () => run(['session', 'create', '--id', S2, '--title', 'Logging clean-up']),
  () => run(['run', 'start', '--session', S2, '--id', R3, '--command', 'build']),
  () => {
    const stage = (title, text, category) =>
      run(['knowledge', 'stage', 'spec', title, text, '--session', S2, '--run', R3, '--category', category], {
        quiet: true,
      });
    stage('Session store', 'Sessions may be kept in process memory during local development.', 'arch');
    stage('日志脱敏', '日志中禁止输出用户手机号、身份证号和邮箱地址。', 'coding');
    stage('Feature flags', 'Remove feature flags within two sprints after full rollout.', 'coding');
    stage(
      'Log <script> tags as text',
      'Never write raw <script> or </textarea> from user input into the admin page.',
      'coding',
    );
  },
  () => run(['run', 'complete', R3, '--session', S2, '--seal']),
  () => run(['knowledge', 'review', S2, '--refresh']),
];

// The project is kept so the review page can be opened on it (`--clean` removes it instead).
const keep = !process.argv.includes('--clean');
let failed = false;
try {
  for (const step of steps) step();
  if (keep) {
    say('Review in the browser: the backlog, each session side by side with its matches, entry history, audit.');
    console.log(`\nnode ${bin} review serve --workflow-root ${project} --open`);
    console.log(`\nDone. The demo project is ${project} (remove it with: rm -rf ${project}).`);
  } else console.log(`\nDone. The demo project was ${project} (removed).`);
} catch (err) {
  console.error(`\ndemo failed: ${err.message}`);
  failed = true;
}
if (!keep || failed) rmSync(project, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;

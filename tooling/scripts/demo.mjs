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

function run(args, { allowFail = false, quiet = false } = {}) {
  const shown = args.map((a) => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
  console.log(`\n$ maestro ${shown}`);
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

const steps = [
  () => say(`A fresh project in ${project}: create the .workflow/ skeleton.`),
  () => run(['init']),
  () => say('Add a few project rules; each gets a stable sid.'),
  () =>
    run([
      'spec',
      'add',
      'coding',
      'Use UTC timestamps',
      'Store and compare all times in UTC; convert only at the edges.',
      '--keywords',
      'time,utc',
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
  () =>
    run([
      'spec',
      'add',
      'coding',
      'use utc timestamps',
      'A second rule with the same title is skipped, not duplicated.',
    ]),
  () => say('List them and check the corpus health.'),
  () => run(['spec', 'list']),
  () => run(['spec', 'health']),
  () => say('An agent session: two runs use knowledge and stage what they learned.'),
  () => run(['session', 'create', '--id', S, '--title', 'Auth hardening']),
  () => run(['run', 'start', '--session', S, '--id', '20261129-001-plan', '--command', 'plan']),
  () => run(['run', 'start', '--session', S, '--id', '20261129-002-build', '--command', 'build']),
  () => say('Loading a rule by id is the only thing that records it as consumed (search is exposure only).'),
  () => {
    const sid = JSON.parse(run(['spec', 'list', '--json'], { quiet: true }).stdout).entries.find(
      (e) => e.title === 'Session store',
    ).id;
    run(['load', '--id', sid, '--session', S, '--run', '20261129-002-build']);
  },
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
      '20261129-001-plan',
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
      '20261129-002-build',
      '--category',
      'arch',
    ]),
  () =>
    write(
      `.workflow/sessions/${S}/runs/20261129-001-plan/report.md`,
      '---\ndecisions:\n  - text: Keep sessions in process memory for speed\n    status: accepted\n  - text: Maybe adopt JWE later\n    status: proposed\nconstraints:\n  - text: Never log access tokens\n    status: locked\n---\n# Plan report\n',
    ),
  () => say('Completing a run stages its accepted decisions and locked constraints; it never edits specs.'),
  () => run(['run', 'complete', '20261129-001-plan', '--session', S, '--seal']),
  () => run(['run', 'complete', '20261129-002-build', '--session', S, '--seal']),
  () => run(['session', 'show', S]),
];

let failed = false;
try {
  for (const step of steps) step();
  console.log(`\nDone. The demo project was ${project} (removed).`);
} catch (err) {
  console.error(`\ndemo failed: ${err.message}`);
  failed = true;
}
rmSync(project, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;

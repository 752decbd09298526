// Promotion cost: `maestro knowledge promote <session> --all` of 100 reviewed candidates (85 spec
// entries across the categories, 10 knowhow tips, 5 over 2048 characters) into a generated
// 10k-entry corpus, end to end through the binary: corpus lock, fence check (incremental
// fingerprint), one corpus parse, title preflight, planning, intent, commit. Also the no-op rerun
// (everything already promoted) and, for context, the receipt refresh before it.
// Env: BENCH_REPS (default 5), BENCH_KEEP=1 keeps the reviewed 10k template for profiling.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const dist = (p) => pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href;
const { candidateId, fixedRuntime } = await import(dist('core'));
const { workflowLayout } = await import(dist('fs'));
const { reconcileSession } = await import(dist('reconcile'));
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const AT = '2026-01-02T00:00:00.000Z';
const NOW = '2026-07-01T00:00:00.000Z';
const S = '20260102-bench';
const R = '20260102-001-bench';
const REPS = Number(process.env.BENCH_REPS ?? 5);
const CATS = ['coding', 'arch', 'debug', 'test', 'review', 'learning', 'ui', 'other'];
const SYL = ['ka', 'lu', 'mi', 'no', 're', 'sa', 'ti', 'vo', 'ze', 'qua', 'bri', 'dro', 'fle', 'gno', 'plu', 'stra'];

/** Pseudo-words unique per candidate: no candidate resembles the corpus or another candidate. */
const word = (i, k) => {
  let n = i * 131 + k * 7 + 17;
  let w = '';
  for (let s = 0; s < 4; s++) {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length) + (s + 1) * 5 + i;
  }
  return `${w}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7 + k) % 26))}`;
};

function candidate(i) {
  const w = Array.from({ length: 9 }, (_, k) => word(i, k));
  const target = i % 10 === 9 ? 'knowhow' : 'spec';
  let content = `Every ${w[3]} keeps its ${w[4]} beside the ${w[5]}; ${w[6]} ${w[7]} ${w[8]}.`;
  if (i % 20 === 7) content = `${content} `.repeat(40).trim();
  return {
    candidate_id: candidateId(target, content),
    target,
    action: 'propose',
    title: `${w[0]} ${w[1]} ${w[2]}`,
    content,
    category: CATS[i % CATS.length],
    source_kind: 'manual',
    evidence_refs: [`run:${R}`],
    occurrences: 1,
    first_recorded_at: AT,
    last_recorded_at: AT,
    status: 'pending',
    promoted_id: null,
    promotion_receipt: null,
  };
}

const json = (v) => `${JSON.stringify(v, null, 2)}\n`;

async function template(entries) {
  const root = mkdtempSync(join(tmpdir(), 'maestro-bench-promote-'));
  generateCorpus(root, { entries, seed: 1 });
  const dir = join(root, '.workflow/sessions', S);
  mkdirSync(join(dir, 'runs', R), { recursive: true });
  const lifecycle = { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] };
  writeFileSync(
    join(dir, 'session.json'),
    json({
      schema_version: 'maestro-session/1.0',
      session_id: S,
      title: 'bench',
      status: 'running',
      created_at: AT,
      updated_at: AT,
      revision: 0,
      lifecycle,
    }),
  );
  writeFileSync(
    join(dir, 'runs', R, 'run.json'),
    json({
      schema_version: 'maestro-run/1.0',
      run_id: R,
      session_id: S,
      command: 'bench',
      status: 'sealed',
      created_at: AT,
      updated_at: AT,
      completed_at: AT,
      sealed_at: AT,
      summary: null,
      revision: 0,
    }),
  );
  const candidates = Array.from({ length: 100 }, (_, i) => candidate(i));
  writeFileSync(
    join(dir, 'runs', R, 'knowledge-delta.json'),
    json({
      schema_version: 'run-knowledge-delta/1.0',
      session_id: S,
      run_id: R,
      revision: 1,
      created_at: AT,
      updated_at: AT,
      inputs: [],
      candidates,
    }),
  );
  const t0 = performance.now();
  await reconcileSession(workflowLayout(root), S, { refresh: true }, fixedRuntime(NOW));
  return { root, refreshMs: performance.now() - t0 };
}

/** Runs the binary with a preload that reports the child's peak RSS at exit. */
function timed(root, args) {
  const out = join(root, '.rss');
  const hook = join(root, '.rss-hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(${JSON.stringify(out)}, JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime })); });\n`,
  );
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(hook).href, bin, ...args, '--workflow-root', root], {
    encoding: 'utf8',
    env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`maestro ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const usage = JSON.parse(readFileSync(out, 'utf8'));
  return { ms, cpuMs: usage.cpu / 1000, rssMiB: usage.rss / 1024, json: JSON.parse(r.stdout) };
}

const load = loadavg()[0];
const { root: base, refreshMs } = await template(10_000);
const cold = [];
const cpu = [];
const noop = [];
let rss = 0;
let last;
for (let i = 0; i < REPS; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'maestro-bench-promote-run-'));
  cpSync(base, dir, { recursive: true });
  const first = timed(dir, ['knowledge', 'promote', S, '--all', '--json']);
  cold.push(first.ms);
  cpu.push(first.cpuMs);
  rss = Math.max(rss, first.rssMiB);
  last = first.json;
  noop.push(timed(dir, ['knowledge', 'promote', S, '--all', '--json']).ms);
  rmSync(dir, { recursive: true, force: true });
}
if (process.env.BENCH_KEEP) process.stderr.write(`kept ${base}\n`);
else rmSync(base, { recursive: true, force: true });
const promoted = last.promoted.length;
const skipped = Object.values(last.skipped).reduce((n, l) => n + l.length, 0);

const table = [
  '## Promotion (`maestro knowledge promote --all`)',
  '',
  `100 reviewed candidates (85 spec, 10 knowhow, 5 over 2048 characters) into a generated 10k-entry corpus;`,
  `median of ${REPS} runs, wall time of the whole process (Node startup included); 1-min load average at start ${load.toFixed(1)}.`,
  '',
  '| measure | value |',
  '| --- | --- |',
  `| promote 100 into 10k, wall | ${median(cold).toFixed(0)} ms |`,
  `| promote 100 into 10k, CPU (user + sys) | ${median(cpu).toFixed(0)} ms |`,
  `| promote 100 into 10k, peak RSS | ${rss.toFixed(0)} MiB |`,
  `| rerun (all already promoted), wall | ${median(noop).toFixed(0)} ms |`,
  `| promoted / skipped | ${promoted} / ${skipped} |`,
  `| context: receipt refresh (in process, before promotion) | ${refreshMs.toFixed(0)} ms |`,
  '',
].join('\n');
process.stdout.write(`${table}\n`);
writeResults('promote', table, [
  { name: 'promote 100 into 10k wall', value: median(cold), unit: 'ms', better: 'lower' },
  { name: 'promote 100 into 10k cpu', value: median(cpu), unit: 'ms', better: 'lower' },
  { name: 'promote 100 into 10k peak rss', value: rss, unit: 'MiB', better: 'lower' },
  { name: 'promote rerun no-op wall', value: median(noop), unit: 'ms', better: 'lower' },
]);

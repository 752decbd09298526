// Runs every benchmark, then rewrites bench/RESULTS.md: machine, date, each benchmark's section,
// and a summary of every figure with the ratio against the previous run (results/summary.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';

const here = import.meta.dirname;
// `--assemble` only rebuilds RESULTS.md from the results already in bench/results/.
const assembleOnly = process.argv.includes('--assemble');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const scripts = assembleOnly
  ? []
  : readdirSync(here)
      .filter((f) => f.endsWith('.mjs') && f !== 'run-all.mjs')
      .filter((f) => only.length === 0 || only.includes(f.replace(/\.mjs$/, '')))
      .sort();
const failed = [];
for (const script of scripts) {
  console.error(`\n=== bench/${script}`);
  const r = spawnSync(process.execPath, ['--expose-gc', resolve(here, script)], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(script);
}

const resultsDir = resolve(here, 'results');
const summaryPath = resolve(resultsDir, 'summary.json');
const previous = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { metrics: {} };
// When only assembling, the comparison is against the run before the last one.
if (assembleOnly && previous.previous) Object.assign(previous, previous.previous);
const current = {
  date: new Date().toISOString(),
  metrics: {},
  previous: { date: previous.date, metrics: previous.metrics },
};
const sections = [];
const rows = [];
for (const file of readdirSync(resultsDir)
  .filter((f) => f.endsWith('.md'))
  .sort()) {
  sections.push(readFileSync(resolve(resultsDir, file), 'utf8').trim());
  const jsonPath = resolve(resultsDir, file.replace(/\.md$/, '.json'));
  if (!existsSync(jsonPath)) continue;
  const { name, metrics } = JSON.parse(readFileSync(jsonPath, 'utf8'));
  for (const m of metrics) {
    const key = `${name}: ${m.name}`;
    current.metrics[key] = { value: m.value, unit: m.unit };
    const prev = previous.metrics[key];
    const ratio = prev?.value ? (m.value / prev.value).toFixed(2) : '—';
    rows.push(`| ${key} | ${fmt(m.value)} ${m.unit} | ${prev ? `${fmt(prev.value)} ${prev.unit}` : '—'} | ${ratio} |`);
  }
}
function fmt(v) {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}
const cpu = cpus();
const doc = [
  '# Benchmark results',
  '',
  `Machine: ${cpu[0]?.model ?? 'unknown CPU'} × ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}.`,
  `Run: ${current.date}${previous.date ? ` (previous: ${previous.date})` : ''}. Regenerate with \`pnpm bench\` (\`node bench/run-all.mjs [name...]\`).`,
  'Absolute times depend on load; compare ratios measured within one run.',
  '',
  '## Summary (ratio = this run / previous run)',
  '',
  '| figure | this run | previous | ratio |',
  '|---|---|---|---|',
  ...rows,
  '',
  ...sections.flatMap((s) => [s, '']),
].join('\n');
writeFileSync(resolve(here, 'RESULTS.md'), doc);
writeFileSync(summaryPath, `${JSON.stringify(current, null, 2)}\n`);
if (failed.length) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exitCode = 1;
}

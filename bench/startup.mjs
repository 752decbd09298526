// Start-up cost of `maestro --help` and `maestro --version` over bare `node`, measured round-robin
// in one run (medians), so the figure is a difference and a ratio, not an absolute time.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { median, writeResults } from './lib/report.mjs';

const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const n = Number(process.env.BENCH_N ?? 20);
const cases = {
  'node -e ""': ['-e', ''],
  'maestro --help': [bin, '--help'],
  'maestro --version': [bin, '--version'],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < n; i++) {
  for (const [name, args] of Object.entries(cases)) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`${name} exited ${r.status}`);
    times[name].push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
}
const base = median(times['node -e ""']);
const rows = Object.entries(times).map(([name, xs]) => {
  const m = median(xs);
  return `| ${name} | ${m.toFixed(1)} | +${(m - base).toFixed(1)} | ${(m / base).toFixed(2)} |`;
});
const over = Math.max(median(times['maestro --help']), median(times['maestro --version'])) - base;
const table = [
  `## Start-up (n=${n}, round-robin medians)`,
  '',
  '| command | median ms | over bare node ms | ratio to bare node |',
  '|---|---|---|---|',
  ...rows,
  '',
  `Target: --help and --version within 30 ms of bare node: ${over <= 30 ? 'met' : 'NOT met'} (+${over.toFixed(1)} ms).`,
  '',
].join('\n');
console.log(table);
writeResults('startup', table, [
  { name: '--help over bare node', value: median(times['maestro --help']) - base, unit: 'ms' },
  { name: '--version over bare node', value: median(times['maestro --version']) - base, unit: 'ms' },
  { name: '--help / bare node', value: median(times['maestro --help']) / base, unit: 'x' },
]);

// Corpus costs at scale: generate 10k and 100k-entry `.workflow/` corpora (English and Chinese),
// then measure in separate processes (so figures do not share a heap): the parse of the whole
// corpus (`loadCorpus`), `maestro spec list --json` wall time through the real binary, its peak
// memory (the same CLI code run in a child that reports `process.resourceUsage().maxRSS`), and one
// `maestro spec add` (which re-reads the corpus under the lock to keep sids unique).
//
// Before/after on a busy machine: `SPEC_BENCH_BASELINE=/path/to/other/build node bench/spec.mjs`
// where the path is the root of another built checkout (its packages/*/dist and
// apps/maestro/dist are used). Every measurement then runs for both builds, interleaved, with the
// median of 3 at every size, and the table shows both; the metrics written stay this build's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const sizes = (process.env.SPEC_BENCH_SIZES ?? '10000,100000').split(',').map(Number);
const baseline = process.env.SPEC_BENCH_BASELINE ? resolve(process.env.SPEC_BENCH_BASELINE) : null;

/** One build to measure: its CLI binary and the child scripts importing its dist/. */
function build(root) {
  const url = (p) => pathToFileURL(resolve(root, p)).href;
  return { bin: resolve(root, 'apps/maestro/dist/main.js'), parse: PARSE(url), list: LIST(url) };
}

// Child: parse the corpus once, print {ms, entries, issues, rssMiB}.
const PARSE = (url) => `
const { loadCorpus } = await import(${JSON.stringify(url('packages/spec/dist/index.js'))});
const { workflowLayout } = await import(${JSON.stringify(url('packages/fs/dist/index.js'))});
const layout = workflowLayout(process.argv.at(-1));
const t = performance.now();
const c = loadCorpus(layout);
const ms = performance.now() - t;
process.stdout.write(JSON.stringify({ ms, entries: c.entries.length, issues: c.issues.length, rssMiB: process.resourceUsage().maxRSS / 1024 }));
`;

// Child: the CLI's own code path (runCli) for \`spec list --json\`, stdout counted not kept.
const LIST = (url) => `
const { runCli } = await import(${JSON.stringify(url('apps/maestro/dist/cli.js'))});
let bytes = 0;
const code = await runCli(['spec', 'list', '--json', '--include-deprecated', '--workflow-root', process.argv.at(-1)], {
  stdout: (t) => { bytes += Buffer.byteLength(t); }, stderr: () => {}, cwd: process.cwd(), env: process.env,
  stdoutIsTTY: false, stderrIsTTY: false, readStdin: async () => '' });
process.stdout.write(JSON.stringify({ code, bytes, rssMiB: process.resourceUsage().maxRSS / 1024 }));
`;

function child(script, root) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, root], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

function wall(bin, args, root) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args, '--workflow-root', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return performance.now() - t;
}

const builds = [build(resolve(import.meta.dirname, '..')), ...(baseline ? [build(baseline)] : [])];

/** Runs `fn(build)` `runs` times for every build, interleaved; returns one result array per build. */
function each(runs, fn) {
  const out = builds.map(() => []);
  for (let i = 0; i < runs; i++) for (const [k, b] of builds.entries()) out[k].push(fn(b));
  return out;
}

/** Measures one corpus with every build: [{parsed, parseMs, listMs, list, addMs}] (this build first). */
function measure(root, entries) {
  const runs = entries <= 10_000 || baseline ? 3 : 1;
  const parses = each(runs, (b) => child(b.parse, root));
  const lists = each(runs, (b) => wall(b.bin, ['spec', 'list', '--json'], root));
  const listMem = each(1, (b) => child(b.list, root));
  writeFileSync(join(root, 'content.txt'), 'Benchmark rule body.\n');
  // Each build adds a rule of its own title (a second add of one title is a no-op duplicate).
  let n = 0;
  const adds = each(1, (b) =>
    wall(
      b.bin,
      ['spec', 'add', 'coding', `Benchmark added rule ${++n}`, '--content-file', join(root, 'content.txt')],
      root,
    ),
  );
  return builds.map((_, k) => ({
    parsed: parses[k][0].entries,
    parseMs: median(parses[k].map((p) => p.ms)),
    parseRss: median(parses[k].map((p) => p.rssMiB)),
    listMs: median(lists[k]),
    list: listMem[k][0],
    addMs: adds[k][0],
  }));
}

const load = loadavg()[0];
const rows = [];
const metrics = [];
for (const entries of sizes) {
  for (const lang of ['en', 'zh']) {
    const root = mkdtempSync(join(tmpdir(), `maestro-bench-spec-${lang}-`));
    try {
      const g0 = performance.now();
      const info = generateCorpus(root, { entries, lang, seed: 7 });
      const genMs = performance.now() - g0;
      const [now, before] = measure(root, entries);
      const mib = (info.bytes / 1048576).toFixed(1);
      const cell = (f, unit) =>
        before ? `${f(before).toFixed(0)} → ${f(now).toFixed(0)} ${unit}` : `${f(now).toFixed(0)} ${unit}`;
      rows.push(
        `| ${entries.toLocaleString('en')} | ${lang} | ${mib} MiB | ${now.parsed.toLocaleString('en')} | ${genMs.toFixed(0)} ms | ${cell((m) => m.parseMs, 'ms')} | ${cell((m) => m.parseRss, 'MiB')} | ${cell((m) => m.listMs, 'ms')} | ${cell((m) => m.list.rssMiB, 'MiB')} | ${(now.list.bytes / 1048576).toFixed(1)} MiB | ${cell((m) => m.addMs, 'ms')} |`,
      );
      const key = `${entries / 1000}k ${lang}`;
      metrics.push(
        { name: `parse ${key}`, value: Math.round(now.parseMs), unit: 'ms', better: 'lower' },
        { name: `parse peak RSS ${key}`, value: Math.round(now.parseRss), unit: 'MiB', better: 'lower' },
        { name: `spec list --json ${key}`, value: Math.round(now.listMs), unit: 'ms', better: 'lower' },
        { name: `spec list peak RSS ${key}`, value: Math.round(now.list.rssMiB), unit: 'MiB', better: 'lower' },
        { name: `spec add ${key}`, value: Math.round(now.addMs), unit: 'ms', better: 'lower' },
      );
      console.error(rows.at(-1));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}

const md = [
  '## spec — corpus parse, list and add at scale',
  '',
  'Corpus from `bench/lib/gen-corpus.mjs` (7 spec files + one knowhow document per 50 entries; ~40% entries without',
  'sid, supersede pairs, contested entries, a few legacy entries). *parse* = `loadCorpus` in a fresh process (median',
  `of 3${baseline ? '' : ' at 10k, 1 run at 100k'}) and its peak RSS; *list* = \`maestro spec list --json\` wall time through the`,
  'binary, node start-up included; *list RSS* = the same CLI code path in a child process (`process.resourceUsage().maxRSS`);',
  '*add* = one `maestro spec add` (reads the corpus under the lock for sid uniqueness).',
  `Load average at start: ${load.toFixed(1)} (${cpus().length} cores).`,
  ...(baseline
    ? [
        '',
        `\`before → after\`: ${process.env.SPEC_BENCH_BASELINE_LABEL ?? 'the baseline build'} → this build, measured in the same run`,
        '(interleaved, medians of 3), so machine load affects both alike.',
      ]
    : []),
  '',
  '| entries | lang | corpus | parsed | generate | parse | parse RSS | spec list --json | list RSS | JSON out | spec add |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(md);
writeResults('spec', md, metrics);

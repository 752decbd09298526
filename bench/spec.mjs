// Corpus costs at scale: generate 10k and 100k-entry `.workflow/` corpora (English and Chinese),
// then measure in separate processes (so figures do not share a heap): the parse of the whole
// corpus (`loadCorpus`), `maestro spec list --json` wall time through the real binary, its peak
// memory (the same CLI code run in a child that reports `process.resourceUsage().maxRSS`), and one
// `maestro spec add` (which re-reads the corpus under the lock to keep sids unique).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const url = (p) => pathToFileURL(resolve(import.meta.dirname, p)).href;
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const sizes = (process.env.SPEC_BENCH_SIZES ?? '10000,100000').split(',').map(Number);

// Child: parse the corpus once (after one warm-up when small), print {ms, entries, issues, rssMiB}.
const PARSE = `
const { loadCorpus } = await import(${JSON.stringify(url('../packages/spec/dist/index.js'))});
const { workflowLayout } = await import(${JSON.stringify(url('../packages/fs/dist/index.js'))});
const layout = workflowLayout(process.argv.at(-1));
const t = performance.now();
const c = loadCorpus(layout);
const ms = performance.now() - t;
process.stdout.write(JSON.stringify({ ms, entries: c.entries.length, issues: c.issues.length, rssMiB: process.resourceUsage().maxRSS / 1024 }));
`;

// Child: the CLI's own code path (runCli) for \`spec list --json\`, stdout counted not kept.
const LIST = `
const { runCli } = await import(${JSON.stringify(url('../apps/maestro/dist/cli.js'))});
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

function wall(args, root) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args, '--workflow-root', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return performance.now() - t;
}

const rows = [];
const metrics = [];
for (const entries of sizes) {
  for (const lang of ['en', 'zh']) {
    const root = mkdtempSync(join(tmpdir(), `maestro-bench-spec-${lang}-`));
    try {
      const g0 = performance.now();
      const info = generateCorpus(root, { entries, lang, seed: 7 });
      const genMs = performance.now() - g0;
      const runs = entries <= 10_000 ? 3 : 1;
      const parses = Array.from({ length: runs }, () => child(PARSE, root));
      const parseMs = median(parses.map((p) => p.ms));
      const listMs = median(Array.from({ length: runs }, () => wall(['spec', 'list', '--json'], root)));
      const list = child(LIST, root);
      writeFileSync(join(root, 'content.txt'), 'Benchmark rule body.\n');
      const addMs = wall(
        ['spec', 'add', 'coding', 'Benchmark added rule', '--content-file', join(root, 'content.txt')],
        root,
      );
      const mib = (info.bytes / 1048576).toFixed(1);
      rows.push(
        `| ${entries.toLocaleString('en')} | ${lang} | ${mib} MiB | ${parses[0].entries.toLocaleString('en')} | ${genMs.toFixed(0)} ms | ${parseMs.toFixed(0)} ms | ${listMs.toFixed(0)} ms | ${list.rssMiB.toFixed(0)} MiB | ${(list.bytes / 1048576).toFixed(1)} MiB | ${addMs.toFixed(0)} ms |`,
      );
      const key = `${entries / 1000}k ${lang}`;
      metrics.push(
        { name: `parse ${key}`, value: Math.round(parseMs), unit: 'ms', better: 'lower' },
        { name: `spec list --json ${key}`, value: Math.round(listMs), unit: 'ms', better: 'lower' },
        { name: `spec list peak RSS ${key}`, value: Math.round(list.rssMiB), unit: 'MiB', better: 'lower' },
        { name: `spec add ${key}`, value: Math.round(addMs), unit: 'ms', better: 'lower' },
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
  'of 3 at 10k, 1 run at 100k); *list* = `maestro spec list --json` wall time through the binary, node start-up',
  'included; *peak RSS* = the same CLI code path in a child process (`process.resourceUsage().maxRSS`);',
  '*add* = one `maestro spec add` (reads the corpus under the lock for sid uniqueness).',
  '',
  '| entries | lang | corpus | parsed | generate | parse | spec list --json | peak RSS | JSON out | spec add |',
  '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
].join('\n');
console.log(md);
writeResults('spec', md, metrics);

// The knowledge graph at scale on generated corpora (bench/lib/gen-corpus.mjs) plus generated run
// ledgers (one run per 50 entries, ten runs per session, 20 inputs each: sids, positional maestro-flow ids, and a few
// contradicted signals): cold build (nothing stored), update after a one-file change, and
// `graph show` latency p50/p95 over 200 ids — warm in-process (graph stored and loaded) and as cold
// `maestro graph show --json` processes (node start-up included).
//
//   node bench/graph.mjs                    # 10k and 100k entries
//   GRAPH_BENCH=10000 node bench/graph.mjs
//   GRAPH_BENCH_COLD=10 node bench/graph.mjs
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus, rng } from './lib/gen-corpus.mjs';
import { peakRssMiB, percentile, writeResults } from './lib/report.mjs';

const here = import.meta.dirname;
const dist = (p) => pathToFileURL(resolve(here, '..', p)).href;
const { openGraph, graphShow, graphDir, graphSources, GRAPH_FILE } = await import(dist('packages/graph/dist/index.js'));
const { workflowLayout } = await import(dist('packages/fs/dist/index.js'));
const bin = resolve(here, '../apps/maestro/dist/main.js');

const cases = (process.env.GRAPH_BENCH ?? '10000,100000').split(',').map(Number);
const SHOWS = 200;
const coldCalls = Number(process.env.GRAPH_BENCH_COLD ?? 20);
const STEMS = ['coding-conventions', 'architecture-constraints', 'learnings'];

/** One run ledger per 50 entries, in run-knowledge-delta/1.0 (what both tools write). */
function writeLedgers(root, sids, runs) {
  const r = rng(11);
  const at = '2026-09-01T00:00:00.000Z';
  for (let i = 0; i < runs; i++) {
    // Ten runs per session, as a session of work has several.
    const session = `20260901-s${Math.floor(i / 10)}`;
    const run = `20260901-${String(1 + (i % 10)).padStart(3, '0')}-run`;
    const inputs = Array.from({ length: 20 }, (_, k) => {
      const positional = k % 5 === 4;
      const id = positional
        ? `spec:project:${STEMS[k % 3]}-${String(1 + Math.floor(r() * 500)).padStart(3, '0')}`
        : sids[Math.floor(r() * sids.length)];
      const signal = k === 7 ? 'contradicted' : k % 3 === 0 ? 'cited' : 'consumed';
      return { knowledge_id: id, signal, source: 'load', count: 1, first_recorded_at: at, last_recorded_at: at };
    });
    const dir = join(root, '.workflow/sessions', session, 'runs', run);
    mkdirSync(dir, { recursive: true });
    const delta = {
      schema_version: 'run-knowledge-delta/1.0',
      session_id: session,
      run_id: run,
      revision: 1,
      created_at: at,
      updated_at: at,
      inputs,
      candidates: [],
    };
    writeFileSync(join(dir, 'knowledge-delta.json'), `${JSON.stringify(delta, null, 2)}\n`);
  }
}

const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

async function runCase(entries) {
  const root = resolve(here, `.out/graph-${entries}`);
  rmSync(root, { recursive: true, force: true });
  const info = generateCorpus(root, { entries, lang: 'en', seed: 1 });
  const runs = Math.max(1, Math.floor(entries / 50));
  writeLedgers(root, info.sids, runs);
  const layout = workflowLayout(root);
  const backdate = new Date(Date.now() - 60_000);
  spawnSync('find', [join(root, '.workflow'), '-type', 'f', '-exec', 'touch', '-d', backdate.toISOString(), '{}', '+']);

  let t = performance.now();
  const built = await openGraph(layout);
  const buildMs = performance.now() - t;
  const bytes = statSync(join(graphDir(layout), GRAPH_FILE)).size;

  // One changed knowhow document: only its edges are extracted again.
  const doc = join(root, '.workflow/knowhow', readdirSync(join(root, '.workflow/knowhow'))[0]);
  appendFileSync(doc, '\nOne more line.\n');
  t = performance.now();
  const updated = await openGraph(layout);
  const updateMs = performance.now() - t;

  const r = rng(5);
  const ids = Array.from({ length: SHOWS }, () => info.sids[Math.floor(r() * info.sids.length)]);
  await graphShow(layout, ids[0]); // warm: graph stored, loaded and assembled once
  const warm = [];
  for (const id of ids) {
    t = performance.now();
    await graphShow(layout, id);
    warm.push(performance.now() - t);
  }
  // The floor under a warm show: listing the sessions and stat'ing every source path, nothing else.
  const floor = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    for (const p of graphSources(layout)) statSync(`${layout.workflow}/${p}`, { throwIfNoEntry: false });
    floor.push(performance.now() - t);
  }
  const cold = [];
  for (const id of ids.slice(0, coldCalls)) {
    t = performance.now();
    const p = spawnSync(process.execPath, [bin, 'graph', 'show', id, '--json', '--workflow-root', root], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
    });
    cold.push(performance.now() - t);
    if (p.status !== 0) throw new Error(`graph show ${id} failed: ${p.stderr}`);
  }
  const nodes = built.files.reduce((n, f) => n + f.nodes.length, 0);
  const edges = built.files.reduce((n, f) => n + f.edges.length, 0);
  const result = {
    entries,
    runs,
    nodes,
    edges,
    buildMs,
    bytes,
    updateMs,
    reextracted: updated.reextracted.length,
    warm,
    floor,
    sources: graphSources(layout).length,
    cold,
    rss: peakRssMiB(),
  };
  rmSync(root, { recursive: true, force: true });
  return result;
}

const results = [];
for (const entries of cases) {
  console.error(`graph: ${entries} entries…`);
  results.push(await runCase(entries));
}
const rows = results.map(
  (x) =>
    `| ${x.entries.toLocaleString('en')} | ${x.runs} | ${x.nodes.toLocaleString('en')} / ${x.edges.toLocaleString('en')} | ${ms(x.buildMs)} | ${(x.bytes / 2 ** 20).toFixed(1)} MiB | ${ms(x.updateMs)} (${x.reextracted} file) | ${ms(percentile(x.warm, 50))} / ${ms(percentile(x.warm, 95))} | ${x.sources.toLocaleString('en')}: ${ms(percentile(x.floor, 50))} | ${ms(percentile(x.cold, 50))} / ${ms(percentile(x.cold, 95))} |`,
);
const md = [
  '## Knowledge graph (`bench/graph.mjs`)',
  '',
  `Generated corpus plus one run ledger per 50 entries (20 inputs each, a fifth of them positional maestro-flow ids). Load average at the end: ${loadavg()[0].toFixed(2)}. Peak RSS ${peakRssMiB().toFixed(0)} MiB.`,
  `Warm = \`graphShow()\` in one process over ${SHOWS} random sids (graph stored; a stat per source file per call); cold = \`maestro graph show --json\` processes (${coldCalls} calls). Target: warm p95 ≤ 100 ms. The stat floor is the same process listing the sessions and stat'ing every source path, nothing else: a warm show costs that plus the walk.`,
  '',
  '| entries | runs | nodes / edges | cold build | graph.json | update after 1 file | warm show p50 / p95 | source paths: stat floor p50 | cold CLI p50 / p95 |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows,
].join('\n');
const metrics = results.flatMap((x) => [
  { name: `${x.entries} build`, value: x.buildMs, unit: 'ms' },
  { name: `${x.entries} update 1 file`, value: x.updateMs, unit: 'ms' },
  { name: `${x.entries} warm show p50`, value: percentile(x.warm, 50), unit: 'ms' },
  { name: `${x.entries} warm show p95`, value: percentile(x.warm, 95), unit: 'ms' },
  { name: `${x.entries} stat floor p50`, value: percentile(x.floor, 50), unit: 'ms' },
  { name: `${x.entries} cold CLI p95`, value: percentile(x.cold, 95), unit: 'ms' },
]);
writeResults('graph', md, metrics);
console.log(md);

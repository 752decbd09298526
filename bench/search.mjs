// Search at scale on generated corpora (bench/lib/gen-corpus.mjs): index build, incremental
// update, and query latency p50/p95 over a fixed set of 200 queries — warm in-process (the pure
// ranking on a loaded index, and the whole `search()` call) and as cold `maestro search --json`
// processes (node start-up included, index read from disk, nothing cached).
//
//   node bench/search.mjs                  # en 10k, en 100k, zh 10k
//   SEARCH_BENCH=en:10000 node bench/search.mjs
//   SEARCH_BENCH_COLD=50 node bench/search.mjs   # fewer cold CLI calls
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus, rng } from './lib/gen-corpus.mjs';
import { percentile, writeResults } from './lib/report.mjs';

const here = import.meta.dirname;
const dist = (p) => pathToFileURL(resolve(here, '..', p)).href;
const { search, openSearchIndex, rankIndex, searchIndexDir } = await import(dist('packages/search/dist/index.js'));
const { loadCorpus } = await import(dist('packages/spec/dist/index.js'));
const { workflowLayout } = await import(dist('packages/fs/dist/index.js'));
const bin = resolve(here, '../apps/maestro/dist/main.js');

const cases = (process.env.SEARCH_BENCH ?? 'en:10000,en:100000,zh:10000').split(',').map((c) => {
  const [lang, n] = c.split(':');
  return { lang, entries: Number(n) };
});
const QUERIES = 200;
const coldCalls = Number(process.env.SEARCH_BENCH_COLD ?? QUERIES);
const NOW = new Date('2026-09-01T00:00:00Z');
const runtime = { now: () => NOW, randomBytes: (n) => new Uint8Array(n) };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * 200 queries drawn from entry titles (seeded): 1–3 words (60%), a quoted two-word phrase (10%),
 * a facet (--type / --category, 15%), relevance mode (10%), a single CJK character or a word (5%).
 */
function makeQueries(index, lang) {
  const r = rng(7);
  const words = (d) =>
    lang === 'zh'
      ? (index.doc(d).title.match(/\p{Script=Han}{2}/gu) ?? [])
      : index
          .doc(d)
          .title.split(/\s+/)
          .filter((w) => /^[a-z]{3,}$/.test(w));
  const out = [];
  while (out.length < QUERIES) {
    const d = Math.floor(r() * index.size);
    const w = words(d);
    if (w.length < 2) continue;
    const k = out.length % 20;
    const pickN = (n) => Array.from({ length: n }, () => w[Math.floor(r() * w.length)]).join(' ');
    if (k < 12) out.push({ q: pickN(1 + (k % 3)), args: [], options: {} });
    else if (k < 14) out.push({ q: `"${w[0]}${lang === 'zh' ? '' : ' '}${w[1]}"`, args: [], options: {} });
    else if (k < 16) out.push({ q: pickN(2), args: ['--type', 'spec'], options: { type: 'spec' } });
    else if (k < 17) out.push({ q: pickN(2), args: ['--category', 'arch'], options: { category: 'arch' } });
    else if (k < 19) out.push({ q: pickN(2), args: ['--mode', 'relevance'], options: { mode: 'relevance' } });
    else out.push({ q: lang === 'zh' ? w[0][0] : w[0], args: [], options: {} });
  }
  return out;
}

function time(fn) {
  const t = performance.now();
  const v = fn();
  return { ms: performance.now() - t, v };
}

async function timeAsync(fn) {
  const t = performance.now();
  const v = await fn();
  return { ms: performance.now() - t, v };
}

const ms = (x) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;
const pair = (xs) => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 95))}`;

async function runCase({ lang, entries }) {
  const root = resolve(here, `.out/search-${lang}-${entries}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const gen = generateCorpus(root, { entries, lang, seed: 1 });
  await sleep(2100); // past the racy-timestamp window, as a real corpus would be
  const layout = workflowLayout(root);
  const parse = time(() => loadCorpus(layout));
  const build = await timeAsync(() => openSearchIndex(layout));
  if (build.v.status !== 'built') throw new Error(`expected a build, got ${build.v.status}`);
  const dir = searchIndexDir(layout);
  const indexBytes = statSync(join(dir, 'index.bin')).size + statSync(join(dir, 'manifest.json')).size;
  const index = build.v.index;
  const queries = makeQueries(index, lang);

  // Warm: the pure ranking on the loaded index, then the whole search() (freshness stats, exposure).
  for (const { q, options } of queries.slice(0, 20)) rankIndex(index, q, options, { now: NOW, exposure: null });
  const rank = queries.map(
    ({ q, options }) => time(() => rankIndex(index, q, options, { now: NOW, exposure: null })).ms,
  );
  const full = [];
  let hits = 0;
  for (const { q, options } of queries) {
    const t = await timeAsync(() => search(layout, q, options, runtime));
    if (t.v.index.status !== 'fresh') throw new Error(`index not fresh: ${t.v.index.status}`);
    hits += t.v.count;
    full.push(t.ms);
  }

  // Cold: one process per query, as an agent hook or a shell would run it.
  const cold = [];
  for (const { q, args } of queries.slice(0, coldCalls)) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [bin, 'search', q, ...args, '--json', '--workflow-root', root], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: { ...process.env, MAESTRO_NOW: NOW.toISOString(), NO_COLOR: '1' },
    });
    cold.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`maestro search ${q}: ${r.stderr}`);
  }

  // Incremental: one new knowhow document, then one edited spec file (every entry in it re-indexed).
  appendFileSync(
    join(root, '.workflow/knowhow/TIP-20260901-bench-new.md'),
    '---\ntitle: "bench new"\ntype: tip\n---\n\nnew body\n',
  );
  const addOne = await timeAsync(() => openSearchIndex(layout));
  const ui = join(root, '.workflow/specs/ui-conventions.md');
  writeFileSync(ui, readFileSync(ui, 'utf8').replace('</spec-entry>', 'edited by the benchmark\n\n</spec-entry>'));
  const editSpec = await timeAsync(() => openSearchIndex(layout));
  rmSync(root, { recursive: true, force: true });
  return {
    label: `${lang} ${entries.toLocaleString('en-US')}`,
    lang,
    entries,
    docs: index.size,
    files: gen.files.length,
    corpusMiB: gen.bytes / 1048576,
    indexMiB: indexBytes / 1048576,
    parse: parse.ms,
    build: build.ms,
    addOne: { ms: addOne.ms, reindexed: addOne.v.reindexed },
    editSpec: { ms: editSpec.ms, reindexed: editSpec.v.reindexed },
    rank,
    full,
    cold,
    hitsPerQuery: hits / queries.length,
  };
}

const loadBefore = loadavg()[0];
const results = [];
for (const c of cases) {
  process.stderr.write(`search bench: ${c.lang} ${c.entries}…\n`);
  results.push(await runCase(c));
}

const rows = results.map(
  (r) =>
    `| ${r.label} | ${r.docs.toLocaleString('en-US')} | ${r.corpusMiB.toFixed(1)} MiB | ${r.indexMiB.toFixed(1)} MiB | ${ms(r.build)} (parse ${ms(r.parse)}) | ${ms(r.addOne.ms)} (${r.addOne.reindexed}) | ${ms(r.editSpec.ms)} (${r.editSpec.reindexed.toLocaleString('en-US')}) | ${pair(r.rank)} | ${pair(r.full)} | ${pair(r.cold)} (n=${r.cold.length}) |`,
);
const en100 = results.find((r) => r.lang === 'en' && r.entries === 100_000);
const en10 = results.find((r) => r.lang === 'en' && r.entries === 10_000);
const verdict = (name, value, limit) =>
  value === undefined
    ? `${name}: not measured`
    : `${name}: ${ms(value)} — ${value < limit ? 'met' : 'NOT met'} (< ${limit} ms)`;
const md = [
  '## search — BM25F projection: build, incremental update, warm and cold queries',
  '',
  `Corpora from \`bench/lib/gen-corpus.mjs\` (seed 1; 7 spec files plus one knowhow file per 50 entries). ${QUERIES} seeded`,
  'queries drawn from entry titles: 1–3 words, quoted phrases, `--type`/`--category` facets, relevance mode, single',
  'words/characters (balanced mode, limit 10, unless stated). *Build* is the first `openSearchIndex` (corpus parse +',
  'tokenise + write `index.bin`/`manifest.json`; the parse alone is shown). *+1 knowhow* and *edit spec file* are the',
  'next opens after adding one knowhow file / editing one entry of `ui-conventions.md` (entries re-indexed in brackets;',
  'the corpus is parsed once either way). *rankIndex* is the pure ranking on a loaded index; *search()* is the whole in-process',
  'call (manifest read, one stat per corpus file, ranking, exposure append); *cold CLI* spawns `maestro search --json`',
  'per query (node start-up included, index read from disk). Latencies are p50 / p95.',
  '',
  '| corpus | entries | corpus size | index size | build | +1 knowhow | edit spec file | rankIndex p50/p95 | search() p50/p95 | cold CLI p50/p95 |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows,
  '',
  `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} (shared with other jobs; cold-call tails move with it).`,
  '',
  `Targets: ${verdict('warm 100k query in-process (search() p95)', en100 && percentile(en100.full, 95), 50)}; ${verdict('cold `maestro search --json` on 10k (p95)', en10 && percentile(en10.cold, 95), 300)}.`,
  '',
].join('\n');
console.log(md);
const metrics = results.flatMap((r) => [
  { name: `${r.label} build`, value: r.build, unit: 'ms' },
  { name: `${r.label} search() p50`, value: percentile(r.full, 50), unit: 'ms' },
  { name: `${r.label} search() p95`, value: percentile(r.full, 95), unit: 'ms' },
  { name: `${r.label} cold CLI p50`, value: percentile(r.cold, 50), unit: 'ms' },
  { name: `${r.label} cold CLI p95`, value: percentile(r.cold, 95), unit: 'ms' },
]);
writeResults('search', md, metrics);
writeFileSync(
  resolve(here, '.out/search-raw.json'),
  JSON.stringify(
    results.map(({ rank, full, cold, ...r }) => r),
    null,
    2,
  ),
);

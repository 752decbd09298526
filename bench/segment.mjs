// Chinese segmentation: jieba (`segmentChinese` of @maestro/lexicon, @node-rs/jieba over data/zh-dict.txt)
// against the hand-written segmenter it replaced (fewest CC-CEDICT words by dynamic programming, kept
// here only as the baseline), on every Han run of the real-world corpora and the labelled sets.
//   node bench/segment.mjs [--corpora <dir>] [--runs n]
// Figures: the first segmentation in a fresh process (loads the binary and the words of the text),
// over a process that only imports the package; throughput per character, warm, in one process
// (past 4,000 characters the whole dictionary is loaded) and in fresh processes of 600 runs each (under the 4,000 characters after which everything is loaded)
// (only the words met are loaded); that both cut every run exactly as jieba given the whole
// dictionary at once; how often old and new cut a run alike; the share of characters that land in a
// word CC-CEDICT glosses (what reconcile, search and the pack selector can carry across languages).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { englishGlosses, lexicon, segmentChinese } from '../packages/lexicon/dist/index.js';
import { median, writeResults } from './lib/report.mjs';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { corpora: { type: 'string' }, runs: { type: 'string' } } });
const sources = [
  resolve(values.corpora ?? '/work/shared/corpora/real-world'),
  resolve(root, '../shared/eval/reconcile-v1'),
  join(root, 'bench/reconcile-sets'),
  join(root, 'bench/context-prompts'),
  join(root, 'bench/context-prompts-2'),
];
const TEXT = /\.(md|json|jsonl|ya?ml|txt)$/;

function gather(dir, into) {
  for (const name of readdirSync(dir)) {
    if (name === '.index' || name === 'node_modules' || name === '.git') continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) gather(p, into);
    else if (TEXT.test(name) && st.size < 5e6)
      for (const m of readFileSync(p, 'utf8').matchAll(/\p{Script=Han}+/gu)) into.push(m[0]);
  }
}
const runs = [];
for (const s of sources) if (existsSync(s)) gather(s, runs);
const chars = runs.reduce((n, r) => n + r.length, 0);

/** The replaced segmenter: fewest pieces over a word test (ties: the longer first piece). */
function fewestPieces(run, isWord, max) {
  const n = run.length;
  const cost = new Array(n + 1).fill(0);
  const next = new Array(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    cost[i] = cost[i + 1] + 1;
    next[i] = i + 1;
    for (let len = Math.min(max, n - i); len >= 2; len--) {
      if (!isWord(run.slice(i, i + len))) continue;
      if (cost[i + len] + 1 < cost[i]) {
        cost[i] = cost[i + len] + 1;
        next[i] = i + len;
      }
    }
  }
  const out = [];
  for (let i = 0; i < n; i = next[i]) out.push(run.slice(i, next[i]));
  return out;
}
const lex = lexicon();
const before = (run) => fewestPieces(run, (w) => englishGlosses(w).length > 0 || lex.glosses(w).length > 0, 4);

// Cold: a fresh process imports the package, then segments one short run, by either segmenter
// (round-robin medians). The replaced one read the gloss table on its first lookup.
const N = Number(values.runs ?? 15);
const dist = join(root, 'packages/lexicon/dist/index.js');
const SAMPLE = '数据库连接池的超时时间';
const child = {
  import: '',
  before: `const f=${fewestPieces.toString()};f(${JSON.stringify(SAMPLE)},(w)=>l.englishGlosses(w).length>0,4);`,
  after: `l.segmentChinese(${JSON.stringify(SAMPLE)});`,
};
const cold = Object.fromEntries(Object.keys(child).map((k) => [k, { first: [], wall: [] }]));
for (let i = 0; i < N; i++) {
  for (const [name, seg] of Object.entries(child)) {
    const code =
      `const l=await import(${JSON.stringify(dist)});const t=performance.now();${seg}` +
      'console.log(performance.now()-t)';
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    cold[name].wall.push(performance.now() - t0);
    cold[name].first.push(Number(r.stdout));
  }
}
const over = (name) => `+${(median(cold[name].wall) - median(cold.import.wall)).toFixed(1)} ms`;

function timed(fn) {
  for (const r of runs.slice(0, 200)) fn(r); // warm: tables read, binary loaded, JIT
  const t0 = performance.now();
  const out = runs.map((r) => fn(r));
  return { ms: performance.now() - t0, out };
}
const old = timed(before);
const now = timed(segmentChinese);

// Fresh processes of ~3,000 runs each: only the words met are given to jieba.
const tmp = mkdtempSync(join(tmpdir(), 'maestro-seg-'));
const SLICE = 600;
const sliced = [];
let slicedMs = 0;
try {
  for (let at = 0; at < runs.length; at += SLICE) {
    const file = join(tmp, `runs-${at}.json`);
    writeFileSync(file, JSON.stringify(runs.slice(at, at + SLICE)));
    const code =
      `const l=await import(${JSON.stringify(dist)});const fs=await import('node:fs');` +
      `const rs=JSON.parse(fs.readFileSync(${JSON.stringify(file)},'utf8'));const t=performance.now();` +
      'const out=rs.map((r)=>l.segmentChinese(r));console.log(JSON.stringify([performance.now()-t,out]))';
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    if (r.status !== 0) throw new Error(r.stderr);
    const [ms, out] = JSON.parse(r.stdout);
    slicedMs += ms;
    for (const c of out) sliced.push(c);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
// The reference: jieba given the whole compiled dictionary at once (the placeholder word at 1).
const { Jieba } = createRequire(join(root, 'packages/lexicon/package.json'))('@node-rs/jieba');
const whole = Jieba.withDict(
  Buffer.concat([readFileSync(join(root, 'packages/lexicon/data/zh-dict.txt')), Buffer.from('\uE000 1\n')]),
);
let asWhole = 0;
let slicedAsWhole = 0;
for (let i = 0; i < runs.length; i++) {
  const ref = whole.cut(runs[i], false).join('|');
  if (now.out[i].join('|') === ref) asWhole++;
  if (sliced[i].join('|') === ref) slicedAsWhole++;
}

let same = 0;
let joinsBack = 0;
const glossedChars = (cuts) => {
  let n = 0;
  for (const cut of cuts) for (const w of cut) if (w.length > 1 && englishGlosses(w).length > 0) n += w.length;
  return n;
};
for (let i = 0; i < runs.length; i++) {
  if (old.out[i].join('|') === now.out[i].join('|')) same++;
  if (now.out[i].join('') === runs[i]) joinsBack++;
}
const pieces = (cuts) => cuts.reduce((n, c) => n + c.length, 0);
const pct = (x, of) => `${((100 * x) / of).toFixed(1)} %`;
const mchar = (ms) => (chars / ms / 1000).toFixed(2);
const table = [
  `## Chinese segmentation: jieba (@node-rs/jieba + CC-CEDICT words) vs fewest CC-CEDICT words`,
  '',
  `${runs.length} Han runs, ${chars} characters (real-world corpora, the labelled reconcile sets, the context prompts).`,
  '',
  '| figure | fewest CC-CEDICT words (before) | jieba (after) |',
  '|---|---|---|',
  `| first segmentation in a fresh process (median of ${N}) | ${median(cold.before.first).toFixed(1)} ms | ${median(cold.after.first).toFixed(1)} ms |`,
  `| whole process (import + one segmentation) over one that only imports | ${over('before')} | ${over('after')} |`,
  `| all runs, warm, one process | ${old.ms.toFixed(0)} ms (${mchar(old.ms)} M chars/s) | ${now.ms.toFixed(0)} ms (${mchar(now.ms)} M chars/s) |`,
  `| all runs, fresh processes of ${SLICE} runs (only the words met loaded) | | ${slicedMs.toFixed(0)} ms (${mchar(slicedMs)} M chars/s) |`,
  `| runs cut exactly as by the whole dictionary at once (one process / fresh processes) | | ${pct(asWhole, runs.length)} / ${pct(slicedAsWhole, runs.length)} |`,
  `| pieces | ${pieces(old.out)} | ${pieces(now.out)} |`,
  `| characters in a word CC-CEDICT glosses | ${pct(glossedChars(old.out), chars)} | ${pct(glossedChars(now.out), chars)} |`,
  `| runs cut alike | ${pct(same, runs.length)} | |`,
  `| runs whose pieces join back to the run | | ${pct(joinsBack, runs.length)} |`,
  '',
].join('\n');
console.log(table);
writeResults('segment', table, [
  { name: 'first segmentation, fresh process', value: median(cold.after.first), unit: 'ms' },
  { name: 'jieba throughput', value: chars / now.ms / 1000, unit: 'M chars/s', better: 'higher' },
]);

// Issue 17's table at scale: every command of the table, end to end through the built binary, on
// generated 1k / 10k / 100k-entry corpora (bench/lib/gen-corpus.mjs, generated on the fly into a
// temp dir), for THIS checkout and for the PREVIOUS build in the same run (a git worktree of
// BENCH_BASE_REV, installed offline and built once, cached under the temp dir by commit). Each
// command's wall time, CPU (user + sys) and peak RSS come from the child itself (a preload that
// writes process.resourceUsage() at exit). Reported: both builds, the ratio this/previous, the
// growth factors 10k/1k and 100k/10k, and the goal of the issue (at 100k) met or not.
//
//   node bench/scale.mjs
//   BENCH_SIZES=1000,10000 BENCH_REPS=1 node bench/scale.mjs     (a quick run)
//   BENCH_BASE_REV=<rev> node bench/scale.mjs                    (another previous build)
//   BENCH_BASE_REV=none node bench/scale.mjs                     (this build only)
//   BENCH_KEEP=1 node bench/scale.mjs                            (keep the corpora for profiling)
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus, rng } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const here = import.meta.dirname;
const repo = resolve(here, '..');
const REPS = Math.max(1, Number(process.env.BENCH_REPS ?? 3));
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
/** The main commit before issue 17's store work. */
const BASE_REV = process.env.BENCH_BASE_REV ?? '3cbfb8c';
const KEEP = Boolean(process.env.BENCH_KEEP);
// Midday, not midnight: the audit's time rules change findings on day boundaries, and a stored
// audit result is never reused across a boundary less than a minute away, so a clock pinned at
// 00:00 would measure a recomputation on every gate.
const NOW = '2026-07-01T12:00:00.000Z';
const AT = '2026-01-02T00:00:00.000Z';
const S = '20260102-bench';
const R = '20260102-001-bench';
const K = 100; // candidates in the reviewed session
const PROMOTE_N = 31;
const MiB = 1024 * 1024;
const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
const git = (...args) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

// ---------------------------------------------------------------------------------------------
// The builds

/** The previous build: a detached worktree of `rev`, installed offline and built, cached by commit. */
function baselineBuild(rev) {
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const dir = join(tmpdir(), `maestro-bench-base-${commit.slice(0, 12)}`);
  const marker = join(dir, '.bench-built');
  const bin = join(dir, 'apps/maestro/dist/main.js');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === commit && existsSync(bin)) return { commit, bin };
  process.stderr.write(`scale: building the previous build ${commit.slice(0, 12)} in ${dir}\n`);
  if (existsSync(dir)) {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: repo, stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  }
  git('worktree', 'prune');
  git('worktree', 'add', '--detach', dir, commit);
  const run = (cmd, args) => {
    const r = spawnSync(cmd, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: '1' } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${dir}:\n${r.stdout}\n${r.stderr}`);
  };
  run('pnpm', ['install', '--frozen-lockfile', '--offline']);
  run('pnpm', ['build']);
  writeFileSync(marker, commit);
  return { commit, bin };
}

function thisBuild() {
  const bin = join(repo, 'apps/maestro/dist/main.js');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm build first`);
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
  return { commit: `${git('rev-parse', 'HEAD')}${dirty ? '+changes' : ''}`, bin };
}

// ---------------------------------------------------------------------------------------------
// Running one command

let work; // temp dir of this run: corpora, preload hook, usage files
let calls = 0;

/**
 * Runs `maestro <args>` of one build on one corpus. Returns wall ms, CPU ms, peak RSS MiB, exit
 * status and the parsed JSON. Only the exit codes in `ok` are accepted (the gate exits 1 when it fails).
 */
function maestro(build, root, args, { ok = [0] } = {}) {
  const usage = join(work, `usage-${++calls}.json`);
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(work, 'usage-hook.mjs')).href,
      build.bin,
      ...args,
      '--json',
      '--workflow-root',
      root,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1', MAESTRO_USAGE_FILE: usage },
      maxBuffer: 512 * MiB,
    },
  );
  const ms = performance.now() - t0;
  if (!ok.includes(r.status)) {
    throw new Error(
      `maestro ${args.join(' ')} exited ${r.status} (${build.commit}):\n${r.stdout.slice(0, 4000)}\n${r.stderr}`,
    );
  }
  const u = JSON.parse(readFileSync(usage, 'utf8'));
  rmSync(usage, { force: true });
  let out = null;
  try {
    out = JSON.parse(r.stdout);
  } catch {}
  return { ms, cpuMs: u.cpu / 1000, rssMiB: u.rss / 1024, status: r.status, json: out, stderr: r.stderr };
}

// ---------------------------------------------------------------------------------------------
// The corpus and its sessions

/** Entry contents of the generated spec files (for realistic candidates), read back from the text. */
function entryContents(root) {
  const dir = join(root, '.workflow/specs');
  const out = [];
  for (const f of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(/\n### [^\n]*\n\n([\s\S]*?)\n\n<\/spec-entry>/g)) {
      out.push(m[1]);
      if (out.length >= 5000) return out;
    }
  }
  return out;
}

function candidate(content, category, target = 'spec', title = content.slice(0, 60)) {
  return {
    candidate_id: candidateId(target, content),
    target,
    action: 'propose',
    title,
    content,
    category,
    source_kind: 'manual',
    evidence_refs: [`run:${R}`],
    occurrences: 1,
    first_recorded_at: AT,
    last_recorded_at: AT,
    status: 'pending',
    promoted_id: null,
  };
}

/** The reconcile bench's mix: ¼ exact copies of entries, ¼ edited copies, ½ new text from the corpus words. */
function reviewCandidates(contents) {
  const r = rng(42);
  const words = contents.slice(0, 500).flatMap((c) => c.split(/\s+/));
  const out = new Map();
  for (let i = 0; i < K; i++) {
    const e = contents[Math.floor(r() * contents.length)];
    let content;
    if (i % 4 === 0) content = e;
    else if (i % 4 === 1) content = `${e.split(/\s+/).slice(1).join(' ')} Also document it.`;
    else content = `${Array.from({ length: 14 + (i % 9) }, () => words[Math.floor(r() * words.length)]).join(' ')}.`;
    const c = candidate(content, 'arch');
    out.set(c.candidate_id, c);
  }
  return [...out.values()];
}

const SYL = ['ka', 'lu', 'mi', 'no', 're', 'sa', 'ti', 'vo', 'ze', 'qua', 'bri', 'dro', 'fle', 'gno', 'plu', 'stra'];
const CATS = ['coding', 'arch', 'debug', 'test', 'review', 'learning', 'ui', 'other'];

/** Pseudo-words unique per candidate: no promotion candidate resembles the corpus or another one. */
function word(i, k) {
  let n = i * 131 + k * 7 + 17;
  let w = '';
  for (let s = 0; s < 4; s++) {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length) + (s + 1) * 5 + i;
  }
  return `${w}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7 + k) % 26))}`;
}

/** 31 new, unrelated candidates (every tenth a knowhow tip): all eligible after review. */
function promoteCandidates(rep) {
  return Array.from({ length: PROMOTE_N }, (_, j) => {
    const i = rep * 1000 + j;
    const w = Array.from({ length: 9 }, (_, k) => word(i, k));
    const target = j % 10 === 9 ? 'knowhow' : 'spec';
    const content = `Every ${w[3]} keeps its ${w[4]} beside the ${w[5]}; ${w[6]} ${w[7]} ${w[8]}.`;
    return candidate(content, CATS[j % CATS.length], target, `${w[0]} ${w[1]} ${w[2]}`);
  });
}

function writeSession(root, session, run, cands) {
  const dir = join(root, '.workflow/sessions', session);
  mkdirSync(join(dir, 'runs', run), { recursive: true });
  const lifecycle = { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] };
  writeFileSync(
    join(dir, 'session.json'),
    json({
      schema_version: 'maestro-session/1.0',
      session_id: session,
      title: 'bench',
      status: 'running',
      created_at: AT,
      updated_at: AT,
      revision: 0,
      lifecycle,
    }),
  );
  writeFileSync(
    join(dir, 'runs', run, 'run.json'),
    json({
      schema_version: 'maestro-run/1.0',
      run_id: run,
      session_id: session,
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
  const evidence = cands.map((c) => ({ ...c, evidence_refs: [`run:${run}`] }));
  writeFileSync(
    join(dir, 'runs', run, 'knowledge-delta.json'),
    json({
      schema_version: 'run-knowledge-delta/1.0',
      session_id: session,
      run_id: run,
      revision: 1,
      created_at: AT,
      updated_at: AT,
      inputs: [],
      candidates: evidence,
    }),
  );
}

function walk(dir, skip, out = []) {
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, d.name);
    if (p === skip) continue;
    if (d.isDirectory()) walk(p, skip, out);
    else if (d.isFile()) out.push(p);
  }
  return out;
}

/** Size, mtime and content hash of every file of the project outside `.workflow/.index/`. */
function snapshot(root) {
  const skip = join(root, '.workflow/.index');
  const out = new Map();
  for (const p of walk(root, skip)) {
    const st = statSync(p, { bigint: true });
    const sha = createHash('sha256').update(readFileSync(p)).digest('hex');
    out.set(relative(root, p), `${st.size}:${st.mtimeNs}:${sha}`);
  }
  return out;
}

function changedFiles(before, after) {
  const out = [];
  for (const [p, v] of after) if (before.get(p) !== v) out.push(before.has(p) ? p : `${p} (new)`);
  for (const p of before.keys()) if (!after.has(p)) out.push(`${p} (deleted)`);
  return out.sort();
}

/** Bytes of the files under `dir` that are new or changed (size or mtime) since `before` (a `statsUnder`). */
function statsUnder(dir) {
  const out = new Map();
  if (!existsSync(dir)) return out;
  for (const p of walk(dir, null)) {
    const st = statSync(p, { bigint: true });
    out.set(p, { key: `${st.size}:${st.mtimeNs}`, size: Number(st.size) });
  }
  return out;
}

function rewritten(before, after) {
  let bytes = 0;
  let files = 0;
  for (const [p, v] of after) {
    if (before.get(p)?.key === v.key) continue;
    bytes += v.size;
    files++;
  }
  return { bytes, files };
}

function bytesUnder(dir) {
  if (!existsSync(dir)) return 0;
  return walk(dir, null).reduce((n, p) => n + statSync(p).size, 0);
}

// ---------------------------------------------------------------------------------------------
// The table of the issue, on one build and one corpus

const MEASURES = [
  { key: 'review-cold', label: '`review --refresh` cold', goalMs: 3000 },
  { key: 'review-1', label: '`review --refresh` after a one-entry change', goalMs: 500 },
  { key: 'review-ro', label: '`review S` (read-only) after one `spec add`', goalMs: 500 },
  { key: 'search-cold', label: '`search` cold', goalMs: 3000 },
  { key: 'search-warm', label: '`search` warm', goalMs: 100 },
  { key: 'context-warm', label: '`context` warm index', goalMs: 200 },
  { key: 'context-cold', label: '`context` cold', goalMs: 3000 },
  { key: 'load', label: '`load --id` one entry', goalMs: 150 },
  { key: 'spec-add', label: '`spec add`', goalMs: 300 },
  { key: 'promote', label: `\`promote --all\` (${PROMOTE_N})`, goalMs: 1500 },
  { key: 'gate', label: '`knowledge gate` (unchanged corpus)', goalMs: 500 },
];
const RSS_GOAL_MiB = 400;
const QUERIES = ['retry backoff', 'cache eviction ttl', 'jwt session token', 'deadlock isolation', 'queue worker'];
const PROMPT = 'How should the queue worker handle retry backoff and the lock timeout?';

/**
 * Runs the table on every build at once: each step runs on each build's own copy of the corpus
 * before the next step starts, the order of the builds alternating, so that the load of the
 * machine (shared, drifting) falls on both builds alike and the ratios stay meaningful.
 */
function runTable(ctxs, sids) {
  let turn = 0;
  const each = (fn) => {
    const order = turn++ % 2 === 0 ? ctxs : [...ctxs].reverse();
    for (const c of order) fn(c);
  };
  for (const c of ctxs) {
    c.samples = Object.fromEntries(MEASURES.map((m) => [m.key, []]));
    c.notes = { roWrites: [], roIndexWrites: [], gate: null, promoted: [], review: null };
    c.index = join(c.root, '.workflow/.index');
    c.run = (args, options) => maestro(c.build, c.root, args, options);
    c.add = (key, r) => {
      c.samples[key].push(r);
      return r;
    };
  }
  const receipt = (c) => join(c.root, '.workflow/sessions', S, 'runs', R, 'knowledge-reconciliation.json');
  const noPacks = ['--user-root', join(work, 'no-user-packs')];

  // review --refresh cold: no derived state at all, no receipt.
  for (let i = 0; i < REPS; i++) {
    each((c) => {
      rmSync(c.index, { recursive: true, force: true });
      rmSync(receipt(c), { force: true });
      c.notes.review = c.add('review-cold', c.run(['knowledge', 'review', S, '--refresh'])).json?.counts ?? null;
    });
  }
  for (let i = 0; i < REPS; i++) {
    // One entry of the largest spec file edited by hand, then the refresh.
    each((c) => {
      const arch = join(c.root, '.workflow/specs/architecture-constraints.md');
      const text = readFileSync(arch, 'utf8');
      const at = text.indexOf('\n\n</spec-entry>', Math.floor(text.length * ((i + 1) / (REPS + 2))));
      writeFileSync(arch, `${text.slice(0, at)} Edited by the bench, pass ${i + 1}.${text.slice(at)}`);
      c.add('review-1', c.run(['knowledge', 'review', S, '--refresh']));
    });
    // One `spec add`, then the read-only review: its writes outside .index/ are recorded.
    const title = `bench added rule ${i + 1} ${word(9000 + i, 1)}`;
    const content = `Every ${word(9000 + i, 2)} keeps its ${word(9000 + i, 3)} beside the ${word(9000 + i, 4)}.`;
    each((c) => c.add('spec-add', c.run(['spec', 'add', 'arch', title, content])));
    each((c) => {
      const before = snapshot(c.root);
      const indexBefore = statsUnder(c.index);
      c.add('review-ro', c.run(['knowledge', 'review', S]));
      for (const f of changedFiles(before, snapshot(c.root))) c.notes.roWrites.push(f);
      c.notes.roIndexWrites.push(rewritten(indexBefore, statsUnder(c.index)));
    });
  }
  // search: cold (no derived state), then warm queries.
  for (let i = 0; i < REPS; i++) {
    each((c) => {
      rmSync(c.index, { recursive: true, force: true });
      c.add('search-cold', c.run(['search', ...QUERIES[i % QUERIES.length].split(' ')]));
    });
    for (const q of QUERIES) each((c) => c.add('search-warm', c.run(['search', ...q.split(' ')])));
  }
  // context: warm index (right after the searches), then cold.
  for (let i = 0; i < REPS; i++) {
    each((c) => c.add('context-warm', c.run(['context', PROMPT, ...noPacks])));
    each((c) => {
      rmSync(c.index, { recursive: true, force: true });
      c.add('context-cold', c.run(['context', PROMPT, ...noPacks]));
    });
  }
  // load --id: one entry at a time, ids far from the supersession chains at the front.
  each((c) => c.run(['load', '--id', sids[sids.length - 1]]));
  for (let i = 0; i < Math.max(3, REPS); i++) {
    each((c) => c.add('load', c.run(['load', '--id', sids[sids.length - 2 - i * 7]])));
  }
  // promote --all: a new session of 31 reviewed, eligible candidates each time.
  for (let i = 0; i < REPS; i++) {
    const session = `20260103-promote-${i + 1}`;
    const run = `20260103-001-promote-${i + 1}`;
    each((c) => {
      writeSession(c.root, session, run, promoteCandidates(i));
      const eligible = c.run(['knowledge', 'review', session, '--refresh']).json?.counts?.eligible;
      if (eligible !== PROMOTE_N) throw new Error(`promote session ${session}: ${eligible} eligible, not ${PROMOTE_N}`);
    });
    each((c) =>
      c.notes.promoted.push(
        c.add('promote', c.run(['knowledge', 'promote', session, '--all'])).json?.promoted?.length ?? 0,
      ),
    );
  }
  // gate on an unchanged corpus (every receipt fresh, pending reviews tolerated, so the whole gate
  // runs): the first run after the promotions is not measured.
  const gate = ['knowledge', 'gate', '--all', '--max-pending-review', '1000'];
  each((c) => {
    c.run(['knowledge', 'review', S, '--refresh']);
    c.run(gate, { ok: [0, 1] });
  });
  for (let i = 0; i < REPS; i++) {
    each((c) => {
      const r = c.add('gate', c.run(gate, { ok: [0, 1] }));
      c.notes.gate = r.json ? `ok ${r.json.ok}, audit ${JSON.stringify(r.json.audit)}` : `exit ${r.status}`;
    });
  }
  const out = {};
  for (const c of ctxs) {
    const sizes = {
      index: bytesUnder(c.index),
      corpus: bytesUnder(join(c.root, '.workflow/specs')) + bytesUnder(join(c.root, '.workflow/knowhow')),
    };
    const summary = Object.fromEntries(
      Object.entries(c.samples).map(([k, xs]) => [
        k,
        {
          ms: median(xs.map((x) => x.ms)),
          cpuMs: median(xs.map((x) => x.cpuMs)),
          rssMiB: xs.reduce((m, x) => Math.max(m, x.rssMiB), 0),
          n: xs.length,
        },
      ]),
    );
    out[c.build.name] = { summary, sizes, notes: c.notes };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Main

const { candidateId } = await import(pathToFileURL(join(repo, 'packages/core/dist/index.js')).href);
const builds = [{ name: 'this', ...thisBuild() }];
if (BASE_REV !== 'none') builds.unshift({ name: 'previous', ...baselineBuild(BASE_REV) });

// The table runs synchronously, so a signal handler would never get to clean up: instead each run
// leaves its pid in its temp dir and removes the dirs of earlier runs that are no longer alive.
for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith('maestro-bench-scale-'))) {
  const dir = join(tmpdir(), name);
  let pid = 0;
  try {
    pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    process.kill(pid, 0);
  } catch (err) {
    if (pid === 0 || err.code === 'ESRCH') rmSync(dir, { recursive: true, force: true });
  }
}
work = mkdtempSync(join(tmpdir(), 'maestro-bench-scale-'));
writeFileSync(join(work, 'pid'), String(process.pid));
writeFileSync(
  join(work, 'usage-hook.mjs'),
  "import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(process.env.MAESTRO_USAGE_FILE, JSON.stringify({ rss: u.maxRSS, cpu: u.userCPUTime + u.systemCPUTime })); });\n",
);
mkdirSync(join(work, 'no-user-packs'));
const load0 = loadavg()[0];
const results = {}; // results[size][build] = { summary, sizes, notes }
let cleanup = () => {
  if (KEEP) process.stderr.write(`scale: kept ${work}\n`);
  else rmSync(work, { recursive: true, force: true });
};
try {
  for (const n of SIZES) {
    const template = join(work, `template-${n}`);
    const info = generateCorpus(template, { entries: n, seed: 7 });
    writeSession(template, S, R, reviewCandidates(entryContents(template)));
    const ctxs = builds.map((build) => {
      const root = join(work, `${build.name}-${n}`);
      cpSync(template, root, { recursive: true });
      return { build, root };
    });
    process.stderr.write(`scale: ${n.toLocaleString('en')} entries, ${builds.map((b) => b.name).join(' + ')}\n`);
    const t0 = performance.now();
    results[n] = runTable(ctxs, info.sids);
    process.stderr.write(`scale:   done in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    if (!KEEP) for (const c of ctxs) rmSync(c.root, { recursive: true, force: true });
    if (!KEEP) rmSync(template, { recursive: true, force: true });
  }
} finally {
  cleanup();
  cleanup = () => {};
}

// ---------------------------------------------------------------------------------------------
// Report

const sec = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const mib = (x) => `${x.toFixed(0)} MiB`;
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const x = (a, b) => (b > 0 ? `${(a / b).toFixed(2)}×` : '—');
const top = SIZES[SIZES.length - 1];
const hasBase = builds.length === 2;
const cur = (n) => results[n].this;
const prev = (n) => results[n].previous;
const ro = (n, b) => {
  const w = results[n][b].notes.roWrites;
  return w.length === 0 ? 'nothing outside `.index/`' : `wrote ${[...new Set(w)].slice(0, 4).join(', ')}`;
};

const goalRows = MEASURES.map((m) => {
  const c = cur(top).summary[m.key];
  const p = hasBase ? prev(top).summary[m.key] : null;
  let met = c.ms <= m.goalMs;
  let extra = '';
  if (m.key === 'review-ro') {
    met = met && cur(top).notes.roWrites.length === 0;
    extra = `; ${ro(top, 'this')}`;
  }
  const cell = (v) => `${sec(v.ms)}, ${mib(v.rssMiB)} (CPU ${sec(v.cpuMs)})`;
  return `| ${m.label} | ${p ? cell(p) : '—'} | ${cell(c)}${extra} | ${p ? `${x(c.ms, p.ms)} (CPU ${x(c.cpuMs, p.cpuMs)})` : '—'} | ≤ ${sec(m.goalMs)} | ${met ? 'met' : '**not met**'} |`;
});
const idxRatio = (n, b) => results[n][b].sizes.index / results[n][b].sizes.corpus;
goalRows.push(
  `| \`.workflow/.index/\` size | ${hasBase ? `${mb(prev(top).sizes.index)} for ${mb(prev(top).sizes.corpus)} (${idxRatio(top, 'previous').toFixed(2)}×)` : '—'} | ${mb(cur(top).sizes.index)} for ${mb(cur(top).sizes.corpus)} (${idxRatio(top, 'this').toFixed(2)}×) | ${hasBase ? x(cur(top).sizes.index, prev(top).sizes.index) : '—'} | ≤ 1× the corpus | ${idxRatio(top, 'this') <= 1 ? 'met' : '**not met**'} |`,
);
const peak = (n, b) => MEASURES.reduce((top, m) => Math.max(top, results[n][b].summary[m.key].rssMiB), 0);
const worst = (n, b) =>
  MEASURES.reduce((w, m) => (results[n][b].summary[m.key].rssMiB > results[n][b].summary[w.key].rssMiB ? m : w));
goalRows.push(
  `| peak RSS of every command | ${hasBase ? `${mib(peak(top, 'previous'))} (${worst(top, 'previous').label})` : '—'} | ${mib(peak(top, 'this'))} (${worst(top, 'this').label}) | ${hasBase ? x(peak(top, 'this'), peak(top, 'previous')) : '—'} | ≤ ${RSS_GOAL_MiB} MiB | ${peak(top, 'this') <= RSS_GOAL_MiB ? 'met' : '**not met**'} |`,
);

const growth = (b, key, field) =>
  SIZES.slice(1)
    .map((n, i) => x(results[n][b].summary[key][field], results[SIZES[i]][b].summary[key][field]))
    .join(' | ');
const growthHead = SIZES.slice(1)
  .map((n, i) => `${n / 1000}k/${SIZES[i] / 1000}k`)
  .join(' | ');
const multi = SIZES.length > 1;
const allRows = [];
for (const m of MEASURES) {
  for (const b of builds) {
    const cells = SIZES.map((n) => {
      const s = results[n][b.name].summary[m.key];
      return `${sec(s.ms)} · ${mib(s.rssMiB)}`;
    });
    const ratio =
      b.name === 'this' && hasBase ? SIZES.map((n) => x(cur(n).summary[m.key].ms, prev(n).summary[m.key].ms)) : [];
    allRows.push(
      `| ${b === builds[0] ? m.label : ''} | ${b.name} | ${cells.join(' | ')} |${multi ? ` ${growth(b.name, m.key, 'ms')} |` : ''} ${ratio.join(' / ')} |`,
    );
  }
}
for (const b of builds) {
  allRows.push(
    `| \`.index/\` size / corpus | ${b.name} | ${SIZES.map((n) => `${mb(results[n][b.name].sizes.index)} / ${mb(results[n][b.name].sizes.corpus)}`).join(' | ')} |${
      multi
        ? ` ${SIZES.slice(1)
            .map((n, i) => x(results[n][b.name].sizes.index, results[SIZES[i]][b.name].sizes.index))
            .join(' | ')} |`
        : ''
    } |`,
  );
}
const roNotes = SIZES.flatMap((n) =>
  builds.map(
    (b) =>
      `${n.toLocaleString('en')} ${b.name}: ${ro(n, b.name)}, ${indexWrites(results[n][b.name].notes.roIndexWrites)}`,
  ),
);
/** The largest write of the read-only review into `.index/` over its runs. */
function indexWrites(list) {
  const w = list.reduce((a, v) => (v.bytes > a.bytes ? v : a), { bytes: 0, files: 0 });
  return w.files === 0 ? 'nothing rewritten in `.index/`' : `rewrote ${w.files} file(s), ${mb(w.bytes)} in \`.index/\``;
}
const c0 = cur(SIZES[0]).notes;
const buildLine = builds
  .map((b) => `${b.name} = \`${b.commit.slice(0, 12)}${b.commit.endsWith('+changes') ? '+changes' : ''}\``)
  .join(', ');
const md = [
  '## Scale: issue 17’s table (1k / 10k / 100k entries, this build vs the previous one)',
  '',
  `Built binaries end to end (Node start-up included), ${buildLine}; generated EN corpora (bench/lib/gen-corpus.mjs,`,
  `seed 7), each build on its own copy, every step run on both builds in turn (alternating which goes first) so that the`,
  `machine's drifting load falls on both alike. Medians of ${REPS} (warm search: ${QUERIES.length} queries × ${REPS}; \`load\`: ${Math.max(3, REPS)}),`,
  'wall time; CPU = user + sys of the command; peak RSS = the maximum over its runs. 1-min load average at start',
  `${load0.toFixed(1)} on 2 shared cores: compare ratios within the run. "cold" = after \`rm -rf .workflow/.index\`;`,
  `review: a session of ${c0.review?.candidates ?? K} candidates (¼ copies, ¼ edited copies, ½ new text; the reconcile bench's mix);`,
  'one-entry change = one entry of the largest spec file edited by hand; promote: a fresh session of 31 reviewed,',
  'eligible candidates; gate `--all` measured after one unmeasured run. Reproduce: `node bench/scale.mjs`',
  `(BENCH_SIZES=${SIZES.join(',')} BENCH_REPS=${REPS} BENCH_BASE_REV=${BASE_REV}).`,
  '',
  `### At ${top.toLocaleString('en')} entries: goals of the issue${top === 100_000 ? '' : ' (stated at 100,000 entries)'}`,
  '',
  '| measure | previous | this build | ratio wall (CPU) | goal | |',
  '|---|---|---|---|---|---|',
  ...goalRows,
  '',
  '### Every size (wall · peak RSS), growth factors and ratios this/previous',
  '',
  `| measure | build | ${SIZES.map((n) => `${n / 1000}k`).join(' | ')} |${multi ? ` ${growthHead} |` : ''} this/previous (${SIZES.map((n) => `${n / 1000}k`).join(' / ')}) |`,
  `|---|---|${SIZES.map(() => '---|').join('')}${SIZES.slice(1)
    .map(() => '---|')
    .join('')}---|`,
  ...allRows,
  '',
  `Read-only review after one \`spec add\`: ${roNotes.join('; ')}.`,
  `Promoted per run: ${SIZES.map((n) => builds.map((b) => `${b.name} ${results[n][b.name].notes.promoted.join('/')}`).join(', ')).join('; ')}. Gate on the generated corpus: ${builds.map((b) => `${b.name} ${results[top][b.name].notes.gate}`).join('; ')}.`,
  '',
].join('\n');
process.stdout.write(md);

// The summary of RESULTS.md gets the figures at the largest size only (the section has the rest).
const metrics = MEASURES.map((m) => ({
  name: `${m.key} ${top} wall`,
  value: Math.round(cur(top).summary[m.key].ms),
  unit: 'ms',
  better: 'lower',
}));
if (hasBase) {
  const ratios = MEASURES.map((m) => cur(top).summary[m.key].ms / prev(top).summary[m.key].ms);
  const geomean = Math.exp(ratios.reduce((a, r) => a + Math.log(r), 0) / ratios.length);
  metrics.push({ name: `${top} this/previous (geometric mean)`, value: geomean, unit: 'x', better: 'lower' });
}
metrics.push({ name: `peak rss ${top}`, value: peak(top, 'this'), unit: 'MiB', better: 'lower' });
metrics.push({ name: `index/corpus ${top}`, value: idxRatio(top, 'this'), unit: 'x', better: 'lower' });
writeResults('scale', md, metrics);

// Reconciliation cost: wall time of `maestro knowledge review <session> --refresh` (the binary, end
// to end: fingerprint, one corpus parse, index build, matching, receipt write) for K = 10 and 100
// candidates against generated 1k, 10k and 100k-entry corpora. Candidates are a realistic mix: a
// quarter copied from corpus entries (exact duplicates), a quarter edited copies, half new text
// from the same vocabulary (the worst case for retrieval: every word is common). Also the
// read-only review of fresh receipts (fence check by stat, no parse), the review after a
// one-entry change to the largest spec file (read-only and --refresh: the receipt is revalidated
// against the store's `match` section, which re-derives that file only), and the in-process split.
//   node bench/reconcile.mjs            (BENCH_REPS=3, BENCH_SIZES=1000,10000,100000)
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus, rng } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const dist = (p) => pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href;
const { candidateId } = await import(dist('core'));
const { workflowLayout } = await import(dist('fs'));
const { loadCorpus } = await import(dist('spec'));
const { reconcile } = await import(dist('reconcile'));
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const AT = '2026-01-02T00:00:00.000Z';
const NOW = '2026-07-01T00:00:00.000Z';
const S = '20260102-bench';
const R = '20260102-001-bench';
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const KS = [10, 100];
const json = (v) => `${JSON.stringify(v, null, 2)}\n`;

function candidates(entries, k) {
  const r = rng(42);
  const words = entries.slice(0, 500).flatMap((e) => e.content.split(/\s+/));
  const out = [];
  for (let i = 0; i < k; i++) {
    const e = entries[Math.floor(r() * entries.length)];
    let content;
    if (i % 4 === 0) content = e.content;
    else if (i % 4 === 1) content = `${e.content.split(/\s+/).slice(1).join(' ')} Also document it.`;
    else content = `${Array.from({ length: 14 + (i % 9) }, () => words[Math.floor(r() * words.length)]).join(' ')}.`;
    out.push({
      candidate_id: candidateId('spec', content),
      target: 'spec',
      action: 'propose',
      title: content.slice(0, 60),
      content,
      category: 'arch',
      source_kind: 'manual',
      evidence_refs: [`run:${R}`],
      occurrences: 1,
      first_recorded_at: AT,
      last_recorded_at: AT,
      status: 'pending',
      promoted_id: null,
    });
  }
  return [...new Map(out.map((c) => [c.candidate_id, c])).values()];
}

function writeSession(root, cands) {
  const dir = join(root, '.workflow/sessions', S);
  mkdirSync(join(dir, 'runs', R), { recursive: true });
  const lifecycle = { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] };
  const session = { schema_version: 'maestro-session/1.0', session_id: S, title: 'bench', status: 'running' };
  writeFileSync(
    join(dir, 'session.json'),
    json({ ...session, created_at: AT, updated_at: AT, revision: 0, lifecycle }),
  );
  const run = { schema_version: 'maestro-run/1.0', run_id: R, session_id: S, command: 'bench', status: 'sealed' };
  const times = { created_at: AT, updated_at: AT, completed_at: AT, sealed_at: AT, summary: null, revision: 0 };
  writeFileSync(join(dir, 'runs', R, 'run.json'), json({ ...run, ...times }));
  const delta = { schema_version: 'run-knowledge-delta/1.0', session_id: S, run_id: R, revision: 1 };
  const body = { created_at: AT, updated_at: AT, inputs: [], candidates: cands };
  writeFileSync(join(dir, 'runs', R, 'knowledge-delta.json'), json({ ...delta, ...body }));
}

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

/** One `knowledge review`, timed: wall ms, and CPU s and peak RSS MiB when /usr/bin/time exists. */
function review(root, refresh) {
  const args = ['knowledge', 'review', S, ...(refresh ? ['--refresh'] : []), '--json', '--workflow-root', root];
  const [cmd, argv] = TIME
    ? [TIME, ['-f', 'TIME %e %U %S %M', process.execPath, bin, ...args]]
    : [process.execPath, [bin, ...args]];
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, {
    encoding: 'utf8',
    env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`review failed (${r.status}):\n${r.stderr}`);
  const t = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr ?? '');
  const cpu = t ? Number(t[2]) + Number(t[3]) : null;
  const rss = t ? Number(t[4]) / 1024 : null;
  return { ms, cpu, rss, view: JSON.parse(r.stdout) };
}

/** Drops every derived file: the next command starts from the text files alone. */
function dropIndex(root) {
  rmSync(join(root, '.workflow/.index'), { recursive: true, force: true });
}

function dirBytes(dir) {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

/** Appends one spec entry to the largest spec file (what `spec add` does to a category file). */
function addOneEntry(root, k) {
  const dir = join(root, '.workflow/specs');
  const files = readdirSync(dir).map((f) => ({ f, size: statSync(join(dir, f)).size }));
  const largest = files.sort((a, b) => b.size - a.size)[0].f;
  appendFileSync(
    join(dir, largest),
    `<spec-entry category="arch" keywords="bench" date="2026-06-30" sid="S-20260630-ad${k.toString(36).padStart(2, '0')}">\n\n### Bench addition ${k}\n\nEvery queue consumer acknowledges only after the write commits (bench ${k}).\n\n</spec-entry>\n\n`,
  );
}

const f1 = (x) => (x === null ? '–' : x.toFixed(1));
const f0 = (x) => (x === null ? '–' : x.toFixed(0));

const rows = [];
const changes = [];
const metrics = [];
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'maestro-bench-reconcile-'));
  generateCorpus(root, { entries: n, seed: 7 });
  const layout = workflowLayout(root);
  const corpusBytes = dirBytes(join(root, '.workflow/specs')) + dirBytes(join(root, '.workflow/knowhow'));
  const t0 = performance.now();
  const corpus = loadCorpus(layout);
  const parseMs = performance.now() - t0;
  for (const k of KS) {
    const cands = candidates(corpus.entries, k);
    writeSession(root, cands);
    const receipt = join(root, '.workflow/sessions', S, 'runs', R, 'knowledge-reconciliation.json');
    // Cold: no derived state at all (no .workflow/.index/: every file hashed, parsed and indexed).
    dropIndex(root);
    rmSync(receipt, { force: true });
    const coldRun = review(root, true);
    const refresh = [];
    let view;
    for (let rep = 0; rep < REPS; rep++) {
      rmSync(receipt, { force: true });
      const out = review(root, true);
      refresh.push(out.ms);
      view = out.view;
    }
    const readOnly = Array.from({ length: REPS }, () => review(root, false).ms);
    const t1 = performance.now();
    reconcile(cands, { entries: [...corpus.entries] });
    const matchMs = performance.now() - t1;
    const c = view.counts;
    rows.push(
      `| ${n.toLocaleString('en')} | ${k} | ${median(refresh).toFixed(0)} | ${coldRun.ms.toFixed(0)} | ${f1(coldRun.cpu)} | ${f0(coldRun.rss)} | ${median(readOnly).toFixed(0)} | ${parseMs.toFixed(0)} | ${matchMs.toFixed(0)} | ${c.review_required}/${c.eligible}/${c.suppressed} |`,
    );
    metrics.push({
      name: `review --refresh ${k}×${n}`,
      value: Math.round(median(refresh)),
      unit: 'ms',
      better: 'lower',
    });
    metrics.push({
      name: `review --refresh cold ${k}×${n}`,
      value: Math.round(coldRun.ms),
      unit: 'ms',
      better: 'lower',
    });
    if (coldRun.cpu !== null) {
      metrics.push({ name: `review --refresh cold CPU ${k}×${n}`, value: coldRun.cpu, unit: 's', better: 'lower' });
      metrics.push({
        name: `review --refresh cold RSS ${k}×${n}`,
        value: Math.round(coldRun.rss),
        unit: 'MiB',
        better: 'lower',
      });
    }
    // One entry added to the largest spec file: the receipt's only moved fence is the corpus.
    addOneEntry(root, 2 * k);
    const ro = review(root, false);
    addOneEntry(root, 2 * k + 1);
    const rf = review(root, true);
    const indexBytes = dirBytes(join(root, '.workflow/.index'));
    changes.push(
      `| ${n.toLocaleString('en')} | ${k} | ${ro.ms.toFixed(0)} | ${f1(ro.cpu)} | ${f0(ro.rss)} | ${rf.ms.toFixed(0)} | ${f1(rf.cpu)} | ${f0(rf.rss)} | ${(indexBytes / 1e6).toFixed(1)} / ${(corpusBytes / 1e6).toFixed(1)} |`,
    );
    metrics.push({ name: `review after one change ${k}×${n}`, value: Math.round(ro.ms), unit: 'ms', better: 'lower' });
    if (ro.cpu !== null) {
      metrics.push({ name: `review after one change CPU ${k}×${n}`, value: ro.cpu, unit: 's', better: 'lower' });
      metrics.push({
        name: `review after one change RSS ${k}×${n}`,
        value: Math.round(ro.rss),
        unit: 'MiB',
        better: 'lower',
      });
    }
    metrics.push({
      name: `.index size ${k}×${n}`,
      value: Math.round(indexBytes / 1e5) / 10,
      unit: 'MB',
      better: 'lower',
    });
    metrics.push({
      name: `review --refresh after one change ${k}×${n}`,
      value: Math.round(rf.ms),
      unit: 'ms',
      better: 'lower',
    });
  }
  rmSync(root, { recursive: true, force: true });
}

const load = (await import('node:os')).loadavg()[0].toFixed(1);
const md = [
  '## Reconciliation (`maestro knowledge review --refresh`)',
  '',
  `Built binary, process start included; generated EN corpus (bench/lib/gen-corpus.mjs, seed 7); load average ${load} on this machine.`,
  'Candidates: ¼ exact copies of entries, ¼ edited copies, ½ new text from the corpus vocabulary (every word common:',
  'a worst case for retrieval). "refresh" is the median of',
  `${REPS} regenerations with the corpus unchanged (the store's \`match\` section current, .workflow/.index/maestro.db);`,
  '"cold" is the first refresh without any derived state (`.workflow/.index/` deleted: every file hashed, parsed,',
  'indexed and written to the store), with its CPU seconds (user + sys) and peak RSS from /usr/bin/time.',
  '"review (fresh)" is the read-only view when every receipt is fresh: fence check by stat through the',
  'store file table, no corpus parse. "parse" is one `loadCorpus` and "match" the pure matcher',
  '(index build included) in-process, for the split.',
  '',
  '| entries | K | refresh ms | cold ms | cold CPU s | cold MiB | review (fresh) ms | parse ms | match ms | review/eligible/suppressed |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'After a one-entry change to the largest spec file (an entry appended, as `spec add` does): the read-only',
  '`review` (the receipt is revalidated in memory) and, after a second change, `review --refresh` (revalidated',
  'and written back). Both re-derive the changed file only. Last column: `.workflow/.index/` / corpus size (MB).',
  '',
  '| entries | K | review ms | CPU s | MiB | review --refresh ms | CPU s | MiB | .index / corpus MB |',
  '|---|---|---|---|---|---|---|---|---|',
  ...changes,
  '',
  'Target: K = 100 against 10k entries under 1 s.',
  '',
].join('\n');
process.stdout.write(md);
writeResults('reconcile', md, metrics);

// Reconciliation cost: wall time of `maestro knowledge review <session> --refresh` (the binary, end
// to end: fingerprint, one corpus parse, index build, matching, receipt write) for K = 10 and 100
// candidates against generated 1k, 10k and 100k-entry corpora. Candidates are a realistic mix: a
// quarter copied from corpus entries (exact duplicates), a quarter edited copies, half new text
// from the same vocabulary (the worst case for retrieval: every word is common). Also the
// read-only review of fresh receipts (fence check by stat, no parse) and the in-process split.
//   node bench/reconcile.mjs            (BENCH_REPS=3, BENCH_SIZES=1000,10000,100000)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus, rng } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const dist = (p) => pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href;
const { candidateId } = await import(dist('core'));
const { workflowLayout } = await import(dist('fs'));
const { loadCorpus } = await import(dist('spec'));
const { reconcile, computeCorpusFingerprint } = await import(dist('reconcile'));
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

function review(root, refresh) {
  const args = ['knowledge', 'review', S, ...(refresh ? ['--refresh'] : []), '--json', '--workflow-root', root];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1' },
    maxBuffer: 256 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`review failed (${r.status}):\n${r.stderr}`);
  return { ms, view: JSON.parse(r.stdout) };
}

const rows = [];
const metrics = [];
for (const n of SIZES) {
  const root = mkdtempSync(join(tmpdir(), 'maestro-bench-reconcile-'));
  generateCorpus(root, { entries: n, seed: 7 });
  const layout = workflowLayout(root);
  const t0 = performance.now();
  const corpus = loadCorpus(layout);
  const parseMs = performance.now() - t0;
  await computeCorpusFingerprint(layout); // first hash of the corpus files (cold cache)
  for (const k of KS) {
    const cands = candidates(corpus.entries, k);
    writeSession(root, cands);
    const receipt = join(root, '.workflow/sessions', S, 'runs', R, 'knowledge-reconciliation.json');
    // Cold: the first refresh after a corpus change (no cached matching index: one corpus parse).
    rmSync(join(root, '.workflow/.index/reconcile-index.json'), { force: true });
    rmSync(receipt, { force: true });
    const cold = review(root, true).ms;
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
      `| ${n.toLocaleString('en')} | ${k} | ${median(refresh).toFixed(0)} | ${cold.toFixed(0)} | ${median(readOnly).toFixed(0)} | ${parseMs.toFixed(0)} | ${matchMs.toFixed(0)} | ${c.review_required}/${c.eligible}/${c.suppressed} |`,
    );
    metrics.push({
      name: `review --refresh ${k}×${n}`,
      value: Math.round(median(refresh)),
      unit: 'ms',
      better: 'lower',
    });
    metrics.push({ name: `review --refresh cold ${k}×${n}`, value: Math.round(cold), unit: 'ms', better: 'lower' });
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
  `${REPS} regenerations with the corpus unchanged (cached matching index, .workflow/.index/reconcile-index.json);`,
  '"cold" is the first refresh after a corpus change (one `loadCorpus` parse + index build + cache write).',
  '"review (fresh)" is the read-only view when every receipt is fresh: fence check by stat through the',
  'fingerprint cache, no corpus parse. "parse" is one `loadCorpus` and "match" the pure matcher',
  '(index build included) in-process, for the split.',
  '',
  '| entries | K | refresh ms | cold ms | review (fresh) ms | parse ms | match ms | review/eligible/suppressed |',
  '|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  'Target: K = 100 against 10k entries under 1 s.',
  '',
].join('\n');
process.stdout.write(md);
writeResults('reconcile', md, metrics);

// Revalidation cost (issue 18): a session reviewed against a generated 10k-entry corpus, then 12
// unrelated entries land (another session's promotion). Times, through the binary, the read-only
// check that revalidates in memory (`knowledge gate --session`), the promotion that revalidates
// under the lock and writes `revalidated_from`, and, for comparison, a full regeneration
// (`review --refresh` with the receipt removed). Also the receipt's size with its entry hashes.
// Env: BENCH_REPS (default 3).
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateCorpus } from './lib/gen-corpus.mjs';
import { median, writeResults } from './lib/report.mjs';

const dist = (p) => pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href;
const { candidateId, fixedRuntime } = await import(dist('core'));
const { workflowLayout } = await import(dist('fs'));
const { reconcileSession } = await import(dist('reconcile'));
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const NOW = '2026-07-01T00:00:00.000Z';
const S = '20260102-bench';
const R = '20260102-001-bench';
const REPS = Number(process.env.BENCH_REPS ?? 3);
const SYL = ['ka', 'lu', 'mi', 'no', 're', 'sa', 'ti', 'vo', 'ze', 'qua', 'bri', 'dro', 'fle', 'gno', 'plu', 'stra'];
const word = (i, k) => {
  let n = i * 131 + k * 7 + 17;
  let w = '';
  for (let s = 0; s < 4; s++) {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length) + (s + 1) * 5 + i;
  }
  return `${w}${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i * 7 + k) % 26))}`;
};
const text = (i) =>
  `Every ${word(i, 3)} keeps its ${word(i, 4)} beside the ${word(i, 5)}; ${word(i, 6)} ${word(i, 7)}.`;

const AT = '2026-01-02T00:00:00.000Z';
const json = (v) => `${JSON.stringify(v, null, 2)}\n`;

/** One sealed run with 20 pending candidates that share no words with the corpus or each other. */
function writeSession(root) {
  const dir = join(root, '.workflow/sessions', S);
  mkdirSync(join(dir, 'runs', R), { recursive: true });
  const lifecycle = { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] };
  const base = { created_at: AT, updated_at: AT, revision: 0 };
  writeFileSync(
    join(dir, 'session.json'),
    json({
      schema_version: 'maestro-session/1.0',
      session_id: S,
      title: 'bench',
      status: 'running',
      ...base,
      lifecycle,
    }),
  );
  const run = { schema_version: 'maestro-run/1.0', run_id: R, session_id: S, command: 'bench', status: 'sealed' };
  writeFileSync(
    join(dir, 'runs', R, 'run.json'),
    json({ ...run, ...base, completed_at: AT, sealed_at: AT, summary: null }),
  );
  const candidates = Array.from({ length: 20 }, (_, i) => ({
    candidate_id: candidateId('spec', text(i)),
    target: 'spec',
    action: 'propose',
    title: `${word(i, 0)} ${word(i, 1)}`,
    content: text(i),
    category: 'learning',
    source_kind: 'manual',
    evidence_refs: [`run:${R}`],
    occurrences: 1,
    first_recorded_at: AT,
    last_recorded_at: AT,
    status: 'pending',
    promoted_id: null,
    promotion_receipt: null,
  }));
  writeFileSync(
    join(dir, 'runs', R, 'knowledge-delta.json'),
    json({
      schema_version: 'run-knowledge-delta/1.0',
      session_id: S,
      run_id: R,
      ...base,
      revision: 1,
      inputs: [],
      candidates,
    }),
  );
}

function cli(root, args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args, '--workflow-root', root], {
    encoding: 'utf8',
    env: { ...process.env, MAESTRO_NOW: NOW, NO_COLOR: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`maestro ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { ms, json: JSON.parse(r.stdout) };
}

const template = mkdtempSync(join(tmpdir(), 'maestro-bench-revalidate-'));
generateCorpus(template, { entries: 10_000, seed: 1 });
writeSession(template);
await reconcileSession(workflowLayout(template), S, { refresh: true }, fixedRuntime(NOW));
const receiptFile = join(template, `.workflow/sessions/${S}/runs/${R}/knowledge-reconciliation.json`);
const receipt = JSON.parse(readFileSync(receiptFile, 'utf8'));
const entryHashesBytes = JSON.stringify(receipt.corpus_entries, null, 2).length;
const unrelated = Array.from(
  { length: 12 },
  (_, i) =>
    `\n<spec-entry category="learning" keywords="bench" date="2026-07-01" sid="S-20260701-u${String(i).padStart(3, '0')}" title="${word(5000 + i, 0)}">\n\n${text(5000 + i)}\n\n</spec-entry>\n`,
).join('');

const rows = { baseline: [], gate: [], promote: [], regenerate: [] };
for (let rep = 0; rep < REPS; rep++) {
  const root = mkdtempSync(join(tmpdir(), 'maestro-bench-revalidate-run-'));
  cpSync(template, root, { recursive: true });
  rows.baseline.push(cli(root, ['knowledge', 'gate', '--session', S, '--json']).ms);
  appendFileSync(join(root, '.workflow/specs/learnings.md'), unrelated);
  const gate = cli(root, ['knowledge', 'gate', '--session', S, '--json']);
  if (!gate.json.ok) throw new Error(`gate not ok: ${JSON.stringify(gate.json.reasons)}`);
  rows.gate.push(gate.ms);
  const other = mkdtempSync(join(tmpdir(), 'maestro-bench-revalidate-regen-'));
  cpSync(root, other, { recursive: true });
  const promote = cli(root, ['knowledge', 'promote', S, '--all', '--json']);
  if (promote.json.promoted.length !== 20) throw new Error('promote did not promote all 20');
  rows.promote.push(promote.ms);
  rmSync(join(other, `.workflow/sessions/${S}/runs/${R}/knowledge-reconciliation.json`));
  rows.regenerate.push(cli(other, ['knowledge', 'review', S, '--refresh', '--json']).ms);
  for (const d of [root, other]) rmSync(d, { recursive: true, force: true });
}
const size = statSync(receiptFile).size;
rmSync(template, { recursive: true, force: true });
const f = (ms) => `${Math.round(ms)} ms`;
const md = [
  '## Revalidation (issue 18)',
  '',
  `10,000-entry corpus, one run with 20 reviewed candidates, then 12 unrelated entries added; median of ${REPS} (load ${loadavg()[0].toFixed(1)}).`,
  '',
  '| step | time |',
  '|---|---:|',
  `| \`knowledge gate --session\` before the change (receipt fresh: no matching) | ${f(median(rows.baseline))} |`,
  `| \`knowledge gate --session\` after it (revalidates in memory, passes) | ${f(median(rows.gate))} |`,
  `| \`knowledge promote --all\` (revalidates under the lock, writes \`revalidated_from\`, promotes 20) | ${f(median(rows.promote))} |`,
  `| \`knowledge review --refresh\` with the receipt removed (full regeneration, for comparison) | ${f(median(rows.regenerate))} |`,
  '',
  `Receipt: ${(size / 1024).toFixed(0)} KiB, of which ${(entryHashesBytes / 1024).toFixed(0)} KiB are the 10,000 entry hashes (${(entryHashesBytes / 10_000).toFixed(0)} bytes each).`,
].join('\n');
console.log(md);
writeResults('revalidate', md, [
  { name: 'gate revalidating 20 candidates over 10k wall', value: median(rows.gate), unit: 'ms', better: 'lower' },
  { name: 'promote 20 on a revalidated receipt wall', value: median(rows.promote), unit: 'ms', better: 'lower' },
  { name: 'regenerate receipt of 20 over 10k wall', value: median(rows.regenerate), unit: 'ms', better: 'lower' },
  { name: 'receipt with 10k entry hashes', value: size / 1024, unit: 'KiB', better: 'lower' },
]);

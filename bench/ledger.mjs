// Run-ledger costs: one staging into a run as the session grows (staging reads the whole session
// to refuse cross-run action conflicts), the session summary over many runs, four processes
// staging into one ledger at once, and `maestro knowledge stage` end to end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, writeResults } from './lib/report.mjs';

const dist = (p) => pathToFileURL(resolve(import.meta.dirname, `../packages/${p}/dist/index.js`)).href;
const { stageKnowledge, summarizeSession, runPaths } = await import(dist('ledger'));
const { workflowLayout } = await import(dist('fs'));
const { candidateId, systemRuntime } = await import(dist('core'));
const bin = resolve(import.meta.dirname, '../apps/maestro/dist/main.js');
const AT = '2026-01-02T00:00:00.000Z';
const S = '20260102-bench';

const json = (v) => `${JSON.stringify(v, null, 2)}\n`;
function candidate(content) {
  return {
    candidate_id: candidateId('spec', content),
    target: 'spec',
    action: 'propose',
    title: content.slice(0, 40),
    content,
    category: null,
    source_kind: 'manual',
    evidence_refs: [],
    occurrences: 1,
    first_recorded_at: AT,
    last_recorded_at: AT,
    status: 'pending',
    promoted_id: null,
    promotion_receipt: null,
  };
}

/** A project with `runs` runs of `perRun` candidates each; half of each run's candidates are shared. */
function project(runs, perRun, status = 'running') {
  const root = mkdtempSync(join(tmpdir(), 'maestro-bench-ledger-'));
  const layout = workflowLayout(root);
  const base = join(layout.sessions, S);
  mkdirSync(base, { recursive: true });
  writeFileSync(
    join(base, 'session.json'),
    json({
      schema_version: 'maestro-session/1.0',
      session_id: S,
      title: '',
      status: 'running',
      created_at: AT,
      updated_at: AT,
      revision: 0,
      lifecycle: { sealed_at: null, seal_summary: null, promoted_spec_ids: [], promoted_knowhow_ids: [] },
    }),
  );
  const ids = [];
  for (let r = 1; r <= runs; r++) {
    const runId = `20260102-${String(r).padStart(3, '0')}-bench`;
    ids.push(runId);
    const p = runPaths(layout, S, runId);
    mkdirSync(p.dir, { recursive: true });
    writeFileSync(
      p.runJson,
      json({
        schema_version: 'maestro-run/1.0',
        run_id: runId,
        session_id: S,
        command: 'bench',
        status,
        created_at: AT,
        updated_at: AT,
        completed_at: null,
        sealed_at: null,
        summary: null,
        revision: 0,
      }),
    );
    const cands = Array.from({ length: perRun }, (_, i) => candidate(i % 2 ? `Shared rule ${i}` : `Rule ${r}-${i}`));
    writeFileSync(
      p.delta,
      json({
        schema_version: 'run-knowledge-delta/1.0',
        session_id: S,
        run_id: runId,
        revision: 1,
        created_at: AT,
        updated_at: AT,
        inputs: [],
        candidates: cands,
      }),
    );
  }
  return { root, layout, runIds: ids };
}

function time(fn) {
  const t0 = process.hrtime.bigint();
  const out = fn();
  return out instanceof Promise
    ? out.then(() => Number(process.hrtime.bigint() - t0) / 1e6)
    : Number(process.hrtime.bigint() - t0) / 1e6;
}

const rows = [];
const metrics = [];
for (const [runs, perRun] of [
  [1, 100],
  [10, 100],
  [50, 100],
]) {
  const { root, layout, runIds } = project(runs, perRun);
  const xs = [];
  for (let i = 0; i < 30; i++) {
    const content = `New rule ${i}`;
    xs.push(
      await time(() =>
        stageKnowledge(
          layout,
          { session_id: S, run_id: runIds[0], target: 'spec', title: content, content },
          systemRuntime,
        ),
      ),
    );
  }
  const sum = [];
  for (let i = 0; i < 10; i++) sum.push(time(() => summarizeSession(layout, S)));
  rows.push(`| ${runs} × ${perRun} | ${median(xs).toFixed(2)} | ${median(sum).toFixed(2)} |`);
  metrics.push({ name: `stage, session ${runs}×${perRun}`, value: median(xs), unit: 'ms' });
  metrics.push({ name: `summarize, session ${runs}×${perRun}`, value: median(sum), unit: 'ms' });
  rmSync(root, { recursive: true, force: true });
}

// Four processes × 50 stagings into one ledger.
const race = project(1, 0);
const worker = join(race.root, 'w.mjs');
writeFileSync(
  worker,
  `
const { stageKnowledge } = await import(${JSON.stringify(dist('ledger'))});
const { workflowLayout } = await import(${JSON.stringify(dist('fs'))});
const { systemRuntime } = await import(${JSON.stringify(dist('core'))});
const layout = workflowLayout(process.argv[2]);
for (let i = 0; i < 50; i++) {
  const content = 'Rule ' + process.argv[3] + '-' + i;
  await stageKnowledge(layout, { session_id: '${S}', run_id: '${race.runIds[0]}', target: 'spec', title: content, content }, systemRuntime);
}`,
);
const raceMs = await time(() =>
  Promise.all(
    [0, 1, 2, 3].map(
      (w) =>
        new Promise((done, fail) => {
          spawn(process.execPath, [worker, race.root, String(w)], { stdio: 'inherit' }).on('close', (c) =>
            c === 0 ? done() : fail(new Error(`worker ${w} exited ${c}`)),
          );
        }),
    ),
  ),
);
const final = summarizeSession(race.layout, S).candidates.length;
rmSync(race.root, { recursive: true, force: true });
metrics.push({ name: '4 processes × 50 stagings, wall', value: raceMs, unit: 'ms' });

// CLI end to end.
const cli = project(1, 0);
const cliXs = [];
for (let i = 0; i < 10; i++) {
  cliXs.push(
    time(() => {
      const r = spawnSync(
        process.execPath,
        [
          bin,
          'knowledge',
          'stage',
          'spec',
          `T${i}`,
          `Rule ${i}`,
          '--session',
          S,
          '--run',
          cli.runIds[0],
          '--workflow-root',
          cli.root,
        ],
        { stdio: 'ignore' },
      );
      if (r.status !== 0) throw new Error(`maestro knowledge stage exited ${r.status}`);
    }),
  );
}
rmSync(cli.root, { recursive: true, force: true });
metrics.push({ name: 'maestro knowledge stage (CLI)', value: median(cliXs), unit: 'ms' });

const table = [
  '## Run ledger',
  '',
  '| session (runs × candidates per run) | stage one candidate, median ms | summarize session, median ms |',
  '|---|---|---|',
  ...rows,
  '',
  `4 processes × 50 stagings into one ledger: ${raceMs.toFixed(0)} ms wall, ${final} of 200 candidates present (${(raceMs / 200).toFixed(1)} ms per locked write).`,
  `\`maestro knowledge stage\` end to end (process start included): median ${median(cliXs).toFixed(0)} ms.`,
  '',
].join('\n');
console.log(table);
if (final !== 200) throw new Error(`lost stagings: ${final} of 200`);
writeResults('ledger', table, metrics);

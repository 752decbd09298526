import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionTree, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

// Real processes importing the built package: four writers stage into one run's ledger at once.
const LEDGER = pathToFileURL(resolve(import.meta.dirname, '../packages/ledger/dist/index.js')).href;
const FS = pathToFileURL(resolve(import.meta.dirname, '../packages/fs/dist/index.js')).href;
const S = '20260102-race';
const R = '20260102-001-race';

const WORKER = `
const { stageKnowledge } = await import(${JSON.stringify(LEDGER)});
const { workflowLayout } = await import(${JSON.stringify(FS)});
const { systemRuntime } = await import(${JSON.stringify(pathToFileURL(resolve(import.meta.dirname, '../packages/core/dist/index.js')).href)});
const [root, worker] = process.argv.slice(2);
const layout = workflowLayout(root);
for (let i = 0; i < 50; i++) {
  // 40 contents unique to this worker, 10 shared by all four.
  const content = i < 40 ? 'Rule ' + worker + '-' + i : 'Shared rule ' + i;
  await stageKnowledge(layout, { session_id: '${S}', run_id: '${R}', target: 'spec', title: content, content,
    evidence: ['worker:' + worker] }, systemRuntime);
}
`;

function run(script: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

test('4 processes × 50 stagings into one run lose nothing', async () => {
  const root = tmpProject(sessionTree({ sessionId: S, runs: [{ runId: R, status: 'running' }] }));
  const script = join(root, 'worker.mjs');
  writeFileSync(script, WORKER);
  const results = await Promise.all([0, 1, 2, 3].map((w) => run(script, [root, String(w)])));
  for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
  const dir = join(root, '.workflow/sessions', S, 'runs', R);
  const delta = JSON.parse(readFileSync(join(dir, 'knowledge-delta.json'), 'utf8'));
  expect(delta.revision).toBe(200);
  expect(delta.candidates).toHaveLength(4 * 40 + 10);
  const shared = delta.candidates.filter((c: { content: string }) => c.content.startsWith('Shared'));
  expect(shared.map((c: { occurrences: number }) => c.occurrences)).toEqual(Array(10).fill(4));
  for (const c of shared)
    expect(c.evidence_refs.sort()).toEqual([`run:${R}`, 'worker:0', 'worker:1', 'worker:2', 'worker:3']);
  expect(readdirSync(dir).sort()).toEqual(['knowledge-delta.json', 'run.json']);
}, 60_000);

// Runs every vitest project once and ends with the plain `N passed, N failed` line CI reads.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const out = '.vitest.json';
rmSync(out, { force: true });
const args = [
  'exec',
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${out}`,
  ...process.argv.slice(2),
];
const run = spawnSync('pnpm', args, { stdio: 'inherit' });
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = run.status === 0 && failed === 0 ? 0 : 1;

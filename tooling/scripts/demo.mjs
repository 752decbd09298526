// A short walk through the main job on a temp project, using the built `maestro` binary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const bin = resolve(import.meta.dirname, '../../apps/maestro/dist/main.js');
const project = mkdtempSync(join(tmpdir(), 'maestro-demo-'));
const steps = [['init']];

let failed = false;
for (const args of steps) {
  console.log(`\n$ maestro ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const r = spawnSync(process.execPath, [bin, ...args, '--workflow-root', project], { encoding: 'utf8' });
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  if (r.status !== 0) {
    failed = true;
    break;
  }
}
rmSync(project, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;

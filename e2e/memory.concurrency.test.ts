import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestroAsync, tmpDir, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

test('four processes adding, recalling and consolidating at once lose no memory', async () => {
  const root = tmpProject();
  const base = tmpDir('maestro-mem-');
  const env = { MAESTRO_MEMORY_DIR: base, MAESTRO_AGENT: 'swarm' };
  const run = (args: string[]) => runMaestroAsync([...args, '--workflow-root', root], { env });
  const writers = [0, 1, 2, 3].map(async (w) => {
    for (let i = 0; i < 5; i++) {
      const r = await run(['memory', 'add', `worker ${w} learned distinct fact ${w * 10 + i} about zone${w}x${i}`]);
      expect(r.code, r.stderr).toBe(0);
    }
  });
  const readers = (async () => {
    for (let i = 0; i < 4; i++) {
      const r = await run(['memory', 'recall', 'worker learned distinct fact', '--threshold', '0.1']);
      expect(r.code, r.stderr).toBe(0);
      const c = await run(['memory', 'consolidate']);
      expect(c.code, c.stderr).toBe(0);
    }
  })();
  await Promise.all([...writers, readers]);
  const list = await run(['memory', 'list', '--json']);
  const texts = list.json<{ records: { text: string }[] }>().records.map((r) => r.text);
  for (let w = 0; w < 4; w++)
    for (let i = 0; i < 5; i++)
      expect(texts).toContain(`worker ${w} learned distinct fact ${w * 10 + i} about zone${w}x${i}`);
  const dir = join(base, readdirSync(base)[0], 'swarm');
  expect(readdirSync(dir)).toEqual(['memories.json']);
  expect(statSync(join(dir, 'memories.json')).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(join(dir, 'memories.json'), 'utf8')).revision).toBeGreaterThanOrEqual(20);
}, 120_000);

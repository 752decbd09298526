import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';

const add = (root: string, title: string, env: NodeJS.ProcessEnv = {}) =>
  runMaestro(['spec', 'add', 'coding', title, 'body', '--workflow-root', root], { env });
const temps = (root: string) => readdirSync(join(root, '.workflow/specs')).filter((n) => n.endsWith('.tmp'));

test('a write killed before its rename leaves a temp that health and audit report and the next write removes', () => {
  const root = tmpProject({ '.workflow/specs/.keep': '' });
  expect(add(root, 'First').code).toBe(0);
  const killed = add(root, 'Killed', { MAESTRO_CRASH_AT: 'atomic:before-rename' });
  expect(killed.code).not.toBe(0);
  const [temp] = temps(root);
  expect(temp).toMatch(/^coding-conventions\.md\.\d+\.[0-9a-f]{8}\.tmp$/);

  const health = runMaestro(['spec', 'health', '--json', '--workflow-root', root]);
  expect(health.json<{ leftoverTemps: string[] }>().leftoverTemps).toEqual([`specs/${temp}`]);
  expect(runMaestro(['spec', 'health', '--workflow-root', root]).stdout).toContain(
    `leftover temp file .workflow/specs/${temp}`,
  );
  const audit = runMaestro(['knowledge', 'audit', '--json', '--workflow-root', root]);
  expect(audit.json<{ findings: { subtype: string; priority: string; target: string }[] }>().findings).toContainEqual(
    expect.objectContaining({ subtype: 'leftover-temp-file', priority: 'P2', target: `.workflow/specs/${temp}` }),
  );

  expect(add(root, 'Next').code).toBe(0);
  expect(temps(root)).toEqual([]);
  expect(
    runMaestro(['spec', 'health', '--json', '--workflow-root', root]).json<{ leftoverTemps: string[] }>().leftoverTemps,
  ).toEqual([]);
});

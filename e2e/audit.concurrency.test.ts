import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runMaestro, runMaestroAsync, tmpProject } from '@maestro/test-utils';
import { expect, it } from 'vitest';

const SPEC = '.workflow/specs/coding-conventions.md';
const HEAD = '---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n# Coding Conventions\n\n## Entries\n\n';
const tag = (sid: string, title: string, extra = '') =>
  `<spec-entry category="coding" keywords="time" date="2026-02-20" sid="${sid}" title="${title}"${extra}>\n\n### ${title}\n\n${title}.\n\n</spec-entry>\n`;

function locks(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory()) walk(join(dir, d.name));
      else if (/\.lock$|\.tmp/.test(d.name)) out.push(join(dir, d.name));
    }
  };
  walk(join(root, '.workflow'));
  return out;
}

// The apply reads the corpus inside the corpus lock and writes under it, so concurrent `spec add`s
// (which take the same lock) can neither be lost nor slip between the audit's read and its write.
it('an apply racing three spec adds loses nothing and leaves no lock behind', async () => {
  const root = tmpProject({
    [SPEC]:
      HEAD +
      tag('S-20260101-old', 'Old rule') +
      '\n' +
      tag('S-20260201-new', 'New rule', ' supersedes="S-20260101-old"'),
  });
  const opts = { env: { MAESTRO_LOCK_TIMEOUT_MS: '30000' } };
  const runs = await Promise.all([
    runMaestroAsync(['knowledge', 'audit', '--prune', '--apply', '--json', '--workflow-root', root], opts),
    ...[1, 2, 3].map((i) =>
      runMaestroAsync(['spec', 'add', 'coding', `Added rule ${i}`, `Added body ${i}.`, '--workflow-root', root], opts),
    ),
  ]);
  for (const r of runs) expect(r.code, r.stderr).toBe(0);
  const text = readFileSync(join(root, SPEC), 'utf8');
  for (const i of [1, 2, 3]) expect(text).toContain(`### Added rule ${i}`);
  expect(text).toMatch(/sid="S-20260101-old"[^>]*status="deprecated"/);
  const again = runMaestro(['knowledge', 'audit', '--prune', '--json', '--workflow-root', root]);
  expect(again.json<{ prune_plan: { actions: unknown[] } }>().prune_plan.actions).toEqual([]);
  expect(locks(root)).toEqual([]);
});

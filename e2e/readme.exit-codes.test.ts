import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runMaestro, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const abs = join(dir, name);
    if (name === 'node_modules' || name === 'dist') continue;
    if (statSync(abs).isDirectory()) out.push(...sources(abs));
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(abs);
  }
  return out;
}

/** Every error code thrown in the code base, with the exit code(s) of its throw sites. */
function thrownCodes(): Map<string, Set<number>> {
  const codes = new Map<string, Set<number>>();
  const add = (code: string, exit: number) => codes.set(code, (codes.get(code) ?? new Set()).add(exit));
  const helpers: [RegExp, number][] = [
    [/refusedError\(\s*'([A-Z][A-Z0-9_]+)'/g, 1],
    [/inputError\(\s*'([A-Z][A-Z0-9_]+)'/g, 2],
    [/environmentError\(\s*'([A-Z][A-Z0-9_]+)'/g, 3],
  ];
  const direct = /(?:new MaestroError|super)\(\s*'([A-Z][A-Z0-9_]+)'[\s\S]{0,400}?exitCode(?::\s*(\d|EXIT_[A-Z_]+))?/g;
  const named: Record<string, number> = { EXIT_REFUSED: 1, EXIT_BAD_INPUT: 2, EXIT_ENVIRONMENT: 3 };
  for (const file of [...sources(join(ROOT, 'packages')), ...sources(join(ROOT, 'apps'))]) {
    const text = readFileSync(file, 'utf8');
    for (const [re, exit] of helpers) for (const m of text.matchAll(re)) add(m[1], exit);
    for (const m of text.matchAll(direct)) {
      const exit = m[2] === undefined ? Number.NaN : (named[m[2]] ?? Number(m[2]));
      if (!Number.isNaN(exit))
        add(m[1], exit); // `exitCode` computed at run time: not checkable here
      else if (!codes.has(m[1])) codes.set(m[1], new Set());
    }
  }
  return codes;
}

/** `(exit, CODE)` for every error code named in a row of an exit-code table in the README. */
function readmeRows(): { exit: number; code: string; row: string }[] {
  const out: { exit: number; code: string; row: string }[] = [];
  for (const row of readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')) {
    const m = /^\|\s*([0-3])\s*\|(.*)\|\s*$/.exec(row);
    if (!m) continue;
    for (const c of m[2].matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)) out.push({ exit: Number(m[1]), code: c[1], row });
  }
  return out;
}

describe('the README exit-code tables', () => {
  it('name only codes the code throws, each with the exit code it really has', () => {
    const thrown = thrownCodes();
    const rows = readmeRows();
    expect(rows.length).toBeGreaterThan(10);
    const wrong = rows
      .filter(({ exit, code }) => {
        const exits = thrown.get(code);
        return exits === undefined || (exits.size > 0 && !(exits.size === 1 && exits.has(exit)));
      })
      .map(
        ({ exit, code }) =>
          `${code}: README says ${exit}, code throws ${[...(thrown.get(code) ?? [])].join('/') || 'nothing'}`,
      );
    expect(wrong).toEqual([]);
  });

  it('a torn promotion, spec or restore intent is INTENT_DAMAGED, exit 3, as the README says', () => {
    for (const intent of [
      '.promote-commit.intent.json',
      '.spec-commit.intent.json',
      '.knowledge-restore.intent.json',
    ]) {
      const root = tmpProject({ '.workflow/specs/.keep': '' });
      writeFileSync(join(root, '.workflow', intent), '{"schema_version": "maestro-commit-int');
      const args =
        intent === '.knowledge-restore.intent.json'
          ? ['knowledge', 'audit', '--prune', '--apply']
          : intent === '.spec-commit.intent.json'
            ? ['spec', 'add', 'coding', 'T', 'b']
            : ['knowledge', 'promote', '20260101-x', '--all'];
      expect(runMaestro(['session', 'create', '--id', '20260101-x', '--workflow-root', root]).code).toBe(0);
      const r = runMaestro([...args, '--json', '--workflow-root', root]);
      expect([intent, r.code]).toEqual([intent, 3]);
      expect(r.json<{ error: { code: string } }>().error.code).toBe('INTENT_DAMAGED');
    }
  });
});

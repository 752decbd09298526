import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LinkRepairOutput } from '@maestro/spec';
import { copyDir, readTree, runMaestro, runMaestroAsync, tmpDir, tmpProject } from '@maestro/test-utils';
import { describe, expect, test } from 'vitest';

/**
 * Issue 19 item 5: every hint names a command that works. Each test runs the command a hint
 * names, the way a user would copy it.
 */

const env = { MAESTRO_NOW: '2026-05-01T10:00:00Z' };
const CORPUS = resolve(import.meta.dirname, '../../shared/corpora/real-world');

const m = (root: string, args: string[]) => runMaestro([...args, '--workflow-root', root], { env });
/** Runs a `maestro …` command line as printed (no quoting in the ones we run). */
const run = (root: string, line: string) => m(root, line.replace(/^maestro /, '').split(' '));

function project(): string {
  const root = tmpProject();
  expect(m(root, ['init']).code).toBe(0);
  return root;
}

const sid = (root: string, ...args: string[]) =>
  m(root, ['spec', 'add', ...args, '--json']).json<{ sid: string }>().sid;

describe('hints name commands that work', () => {
  test('search --include-deprecated: the load hint of a deprecated hit loads it', () => {
    const root = project();
    const old = sid(root, 'coding', 'Retry forever', 'Retry the call until it works.');
    const next = sid(root, 'coding', 'Retry with backoff', 'Back off between attempts; stop after five.');
    expect(m(root, ['spec', 'supersede', old, '--by', next]).code).toBe(0);
    const s = m(root, ['search', 'forever', '--include-deprecated']);
    const hint = /load one: (maestro load --id \S+(?: --include-deprecated)?)/.exec(s.stdout)?.[1];
    expect(hint).toBe(`maestro load --id ${old} --include-deprecated`);
    const load = run(root, hint as string);
    expect(load.code).toBe(0);
    expect(load.stdout).toContain('Retry the call until it works.');
  });

  test('a dangling superseded-by: the gate names spec link repair, whose dry run writes nothing and whose run fixes it', () => {
    const root = project();
    const a = sid(root, 'coding', 'Old rule', 'Use tabs.');
    const file = join(root, '.workflow/specs/coding-conventions.md');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(`sid="${a}"`, `sid="${a}" status="deprecated" superseded-by="ISS-20260722-001"`));
    const gate = m(root, ['knowledge', 'gate', '--all']);
    expect(gate.code).toBe(1);
    const fix = /fix: (maestro spec link repair)/.exec(gate.stdout)?.[1];
    expect(fix).toBe('maestro spec link repair');
    const before = readTree(root);
    const dry = m(root, ['spec', 'link', 'repair', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(LinkRepairOutput.parse(dry.json())).toMatchObject({
      dryRun: true,
      repairs: [{ id: a, attribute: 'superseded-by', missing: 'ISS-20260722-001' }],
      files: ['specs/coding-conventions.md'],
    });
    expect(readTree(root)).toEqual(before);
    expect(run(root, fix as string).code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after).not.toContain('superseded-by=');
    // The entry stays deprecated, and the successor it named is kept in its reason.
    expect(after).toMatch(/status="deprecated".*deprecated-reason="superseded by ISS-20260722-001, which is no entry/);
    expect(m(root, ['knowledge', 'gate', '--all']).code).toBe(0);
    // A second run has nothing left to do.
    expect(m(root, ['spec', 'link', 'repair']).stdout).toContain('No dangling supersession links.');
  });

  test('knowhow links written by file stem (maestro-flow) are whole, not dangling', () => {
    const root = project();
    const kh = join(root, '.workflow/knowhow');
    writeFileSync(
      join(kh, 'AST-20260713-old.md'),
      '---\ntitle: Old\ntype: asset\nstatus: deprecated\nsupersededBy: AST-20260717-new\n---\nold body\n',
    );
    writeFileSync(
      join(kh, 'AST-20260717-new.md'),
      '---\ntitle: New\ntype: asset\nsupersedes: [AST-20260713-old]\n---\nnew\n',
    );
    const h = m(root, ['spec', 'health', '--json']);
    expect(h.code).toBe(0);
    const audit = m(root, ['knowledge', 'audit', '--json']);
    expect(audit.stdout).not.toMatch(/dangling-super/);
    expect(m(root, ['knowledge', 'gate', '--all']).code).toBe(0);
    const history = m(root, ['knowhow', 'history', 'knowhow-ast-20260713-old', '--json']);
    expect(history.json<{ broken: unknown[] }>().broken).toEqual([]);
  });

  test('the real-world corpora pass the gate, or fail only for reasons whose named command clears them', {
    timeout: 300_000,
  }, async () => {
    const copy = tmpDir('maestro-hints-real-');
    copyDir(CORPUS, copy);
    const dirs = readdirProjects(copy);
    expect(dirs.length).toBeGreaterThanOrEqual(28);
    const failures = await Promise.all(
      chunks(dirs, 4).map(async (group) => {
        const out: string[] = [];
        for (const dir of group) out.push(...(await gateOrFix(dir)));
        return out;
      }),
    );
    expect(failures.flat()).toEqual([]);
  });
});

function readdirProjects(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(join(dir, '.workflow'))) out.push(dir);
    if (depth === 0) return;
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory() && !d.name.startsWith('.')) walk(join(dir, d.name), depth - 1);
    }
  };
  walk(root, 2);
  return out.sort();
}

function chunks<T>(items: T[], n: number): T[][] {
  const out: T[][] = Array.from({ length: n }, () => []);
  items.forEach((x, i) => {
    out[i % n].push(x);
  });
  return out;
}

/** Problems with one project: a reason without a command, a command that fails, a gate still red. */
async function gateOrFix(dir: string): Promise<string[]> {
  const gate = await runMaestroAsync(['knowledge', 'gate', '--all', '--json', '--workflow-root', dir], { env });
  if (gate.code === 0) return [];
  const problems: string[] = [];
  for (const r of gate.json<{ reasons: { code: string; command: string | null }[] }>().reasons) {
    if (!r.command?.startsWith('maestro ')) {
      problems.push(`${dir}: ${r.code} names no command (${r.command})`);
      continue;
    }
    const args = r.command.replace(/^maestro /, '').split(' ');
    const fixed = await runMaestroAsync([...args, '--workflow-root', dir], { env });
    if (fixed.code !== 0) problems.push(`${dir}: \`${r.command}\` exit ${fixed.code}: ${fixed.stderr}`);
  }
  const again = await runMaestroAsync(['knowledge', 'gate', '--all', '--workflow-root', dir], { env });
  if (again.code !== 0) problems.push(`${dir} still fails after the named commands:\n${again.stdout}`);
  return problems;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { copyDir, readTree, runMaestroAsync, tmpDir } from '@maestro/test-utils';
import { expect, test } from 'vitest';

// The real-world corpus: 122 files from 28 public repositories written by maestro-flow users.
// Copied to a temp dir (never edited in place); expectations are computed from the raw files.
const CORPUS = resolve(import.meta.dirname, '../../shared/corpora/real-world');
const VALID = new Set(['coding', 'arch', 'debug', 'test', 'review', 'learning', 'ui']);

/** Every directory holding a .workflow/ (repo roots plus nested ones such as desktop/). */
function projects(root: string): string[] {
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

const mdFiles = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isFile() && d.name.endsWith('.md'))
        .map((d) => join(dir, d.name))
    : [];

/** Raw expectations: opening tags (`<spec-entry` + whitespace), their lines, and invalid categories. */
function expected(project: string) {
  const tags: { file: string; line: number; category: string | null }[] = [];
  const untagged: { file: string; bytes: number }[] = [];
  for (const file of mdFiles(join(project, '.workflow/specs'))) {
    const text = readFileSync(file, 'utf8');
    if (!/<spec-entry\s/.test(text))
      untagged.push({ file: relative(join(project, '.workflow'), file), bytes: text.length });
    for (const m of text.matchAll(/<spec-entry\s[\s\S]*?>/g)) {
      const line = text.slice(0, m.index).split('\n').length;
      const category = /\bcategory="([^"]*)"/.exec(m[0])?.[1] ?? null;
      tags.push({ file: relative(project, file), line, category });
    }
  }
  return { tags, untagged, knowhow: mdFiles(join(project, '.workflow/knowhow')).length };
}

interface ListOutput {
  entries: { store: string; legacy: boolean }[];
  issues: { code: string; file: string; line?: number }[];
}

async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

test('spec list and spec health read every real-world project, count every entry and change no byte', async () => {
  // The corpus ships in shared/, which sits beside the checkout (also in CI).
  expect(existsSync(CORPUS), `the real-world corpus is expected at ${CORPUS} (shared/ beside the checkout)`).toBe(true);
  const copy = tmpDir('maestro-real-world-');
  copyDir(CORPUS, copy);
  const before = readTree(copy);
  const dirs = projects(copy);
  expect(dirs.length).toBeGreaterThanOrEqual(28);
  const results = await pool(dirs, 4, async (dir) => {
    const want = expected(dir);
    const list = await runMaestroAsync(['spec', 'list', '--include-deprecated', '--json', '--workflow-root', dir]);
    const health = await runMaestroAsync(['spec', 'health', '--json', '--workflow-root', dir]);
    // Text mode (issues on stderr) and knowhow only where there is something to see.
    const invalid = want.tags.some((t) => t.category && !VALID.has(t.category));
    const text = invalid ? await runMaestroAsync(['spec', 'list', '--workflow-root', dir]) : list;
    const kh = want.knowhow ? await runMaestroAsync(['knowhow', 'list', '--json', '--workflow-root', dir]) : null;
    return { dir, want, list, text, health, kh };
  });
  let total = 0;
  let unread = 0;
  for (const { dir, want, list, text, health, kh } of results) {
    const name = relative(copy, dir);
    for (const r of [list, text, health, kh]) if (r) expect(r.code, `${name}: ${r.stderr}`).toBe(0);
    const out = list.json<ListOutput>();
    const tagged = out.entries.filter((e) => !e.legacy);
    expect(tagged.length, name).toBe(want.tags.length);
    const h = health.json<{ total: number; unindexedProse: { file: string }[] }>();
    expect(h.total, name).toBe(out.entries.length);
    // Spec files holding text but no entry are named by health; big ones always, tagged ones never.
    const flagged = h.unindexedProse.map((p) => p.file);
    for (const f of flagged)
      expect(
        want.untagged.map((u) => u.file),
        `${name} ${f}`,
      ).toContain(f);
    for (const u of want.untagged.filter((u) => u.bytes > 1000)) expect(flagged, `${name} ${u.file}`).toContain(u.file);
    unread += flagged.length;
    expect(kh?.json<{ count: number }>().count ?? 0, name).toBe(want.knowhow);
    total += tagged.length;
    // Every entry with a category outside the seven is reported at its file:line.
    for (const t of want.tags.filter((t) => t.category && !VALID.has(t.category))) {
      const hit = out.issues.find((i) => i.code === 'SPEC_CATEGORY_INVALID' && i.file === t.file && i.line === t.line);
      expect(hit, `${name} ${t.file}:${t.line}`).toBeDefined();
      expect(text.stderr).toContain(`${t.file}:${t.line}:`);
    }
  }
  expect(total).toBe(728);
  expect(unread).toBe(12);
  expect(readTree(copy)).toEqual(before);
  expect(readTree(copy)).toEqual(readTree(CORPUS));
}, 120_000);

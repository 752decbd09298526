import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fixedRuntime } from '@maestro/core';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { closeStores } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { entryAliases } from './aliases.js';
import { findEntry, loadCorpus } from './corpus.js';
import { lookupCorpus } from './lookup.js';
import type { Corpus } from './model.js';
import { specHistory } from './queries.js';
import { addSpecEntry } from './spec-add.js';

const REAL = resolve(import.meta.dirname, '../../../../shared/corpora/real-world');
const GEN = resolve(import.meta.dirname, '../../../bench/lib/gen-corpus.mjs');

const roots: string[] = [];
function temp(): string {
  const root = mkdtempSync(join(tmpdir(), 'maestro-spec-lookup-'));
  roots.push(root);
  return root;
}
afterEach(() => {
  closeStores();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function age(layout: WorkflowLayout): void {
  const past = new Date(Date.now() - 10_000);
  for (const dir of [layout.specs, layout.knowhow]) {
    if (!existsSync(dir)) continue;
    for (const n of readdirSync(dir)) utimesSync(join(dir, n), past, past);
  }
}

async function generated(entries: number): Promise<WorkflowLayout> {
  const { generateCorpus } = (await import(GEN)) as {
    generateCorpus: (root: string, o: { entries: number; seed?: number }) => unknown;
  };
  const root = temp();
  generateCorpus(root, { entries, seed: 3 });
  const layout = workflowLayout(root);
  age(layout);
  return layout;
}

/** What a lookup answers for `id` is what the whole corpus answers: the entry, its aliases, its history. */
function expectSameAnswer(layout: WorkflowLayout, full: Corpus, id: string): boolean {
  const part = lookupCorpus(layout, [id]);
  const fe = findEntry(full, id);
  if (part === null) return false;
  const pe = findEntry(part, id);
  expect(pe, id).toStrictEqual(fe);
  expect(JSON.stringify(pe), id).toBe(JSON.stringify(fe));
  if (fe && pe) expect(entryAliases(part, pe), id).toEqual(entryAliases(full, fe));
  if (fe?.store === 'spec') {
    const linked = lookupCorpus(layout, [id], { links: true });
    if (linked) expect(specHistory(linked, id), id).toEqual(specHistory(full, id));
  }
  return true;
}

describe('lookupCorpus', () => {
  it('answers every id of a generated corpus as the whole corpus does', { timeout: 300_000 }, async () => {
    const layout = await generated(1500);
    const full = loadCorpus(layout, { store: false });
    let answered = 0;
    full.entries.forEach((e, i) => {
      if (i % 7 !== 0 && e.store === 'spec' && e.supersedes.length === 0 && !e.supersededBy) return;
      if (expectSameAnswer(layout, full, e.id)) answered++;
    });
    expect(answered).toBeGreaterThan(200);
  });

  it.skipIf(!existsSync(REAL))(
    'answers the ids of the real-world corpora as the whole corpus does',
    { timeout: 300_000 },
    () => {
      let answered = 0;
      let asked = 0;
      for (const name of readdirSync(REAL).sort()) {
        if (!existsSync(join(REAL, name, '.workflow'))) continue;
        const root = temp();
        cpSync(join(REAL, name, '.workflow'), join(root, '.workflow'), { recursive: true });
        rmSync(join(root, '.workflow', '.index'), { recursive: true, force: true });
        const layout = workflowLayout(root);
        const full = loadCorpus(layout, { store: false });
        for (const e of full.entries) {
          asked++;
          if (expectSameAnswer(layout, full, e.id)) answered++;
        }
        closeStores();
      }
      expect(answered).toBeGreaterThan(asked / 2);
    },
  );

  it('sees a file edited behind its back, even with the same size and mtime', async () => {
    const layout = await generated(300);
    const full = loadCorpus(layout);
    const e = full.entries.find(
      (x) => x.store === 'spec' && x.hasSid && x.file.endsWith('architecture-constraints.md'),
    )!;
    expect(lookupCorpus(layout, [e.id])).not.toBeNull();
    const path = join(layout.workflow, e.file);
    const before = statSync(path);
    const text = readFileSync(path, 'utf8');
    const word = e.content.slice(0, 4);
    const swapped = word.split('').reverse().join('');
    const changed = text.replace(e.content, swapped + e.content.slice(4));
    expect(changed.length).toBe(text.length);
    writeFileSync(path, changed);
    utimesSync(path, before.atime, before.mtime);
    const part = lookupCorpus(layout, [e.id]);
    const now = loadCorpus(layout, { store: false });
    expect(findEntry(part!, e.id)).toStrictEqual(findEntry(now, e.id));
    expect(findEntry(part!, e.id)?.content.startsWith(swapped)).toBe(true);
  });

  it('leaves aliases, duplicate sids and unknown ids to the whole corpus', async () => {
    const layout = await generated(300);
    const full = loadCorpus(layout);
    const e = full.entries.find((x) => x.store === 'spec' && x.hasSid)!;
    expect(lookupCorpus(layout, [`spec:${e.id}`])).toBeNull();
    expect(lookupCorpus(layout, ['S-29990101-none'])).toBeNull();
    const k = full.entries.find((x) => x.store === 'knowhow')!;
    expect(lookupCorpus(layout, [k.file.slice('knowhow/'.length)])).toBeNull();
    expect(lookupCorpus(layout, [k.id])).not.toBeNull();
    // the same sid in a second file: the whole corpus names the copies
    cpSync(join(layout.workflow, e.file), join(layout.specs, 'aa-copy.md'));
    expect(lookupCorpus(layout, [e.id])).toBeNull();
  });

  it('spec add: the duplicate check and the new sid come from the rows', async () => {
    const layout = await generated(400);
    const full = loadCorpus(layout, { store: false });
    const target = full.entries.filter(
      (x) => x.file === 'specs/coding-conventions.md' && x.titleSource !== 'content' && x.titleSource !== 'none',
    );
    const title = target[5].title.trim();
    const first = target.find((x) => x.title.trim().toLowerCase() === title.toLowerCase())!;
    const runtime = fixedRuntime('2026-09-01T10:00:00Z', { seed: 42 });
    const dup = await addSpecEntry(
      layout,
      { category: 'coding', title: title.toUpperCase(), content: 'again' },
      runtime,
    );
    expect(dup.duplicate).toBe(true);
    expect(dup.sid).toBe(first.id);
    const added = await addSpecEntry(layout, { category: 'coding', title: 'a new one', content: 'body' }, runtime);
    expect(added.duplicate).toBe(false);
    expect(full.byId.has(added.sid!)).toBe(false);
    const after = loadCorpus(layout, { store: false });
    expect(after.byId.get(added.sid!)?.title).toBe('a new one');
    expect(JSON.stringify(loadCorpus(layout))).toBe(JSON.stringify(after));
  });
});

import {
  cpSync,
  existsSync,
  mkdirSync,
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
import { fixedRuntime, sha256 } from '@maestro/core';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { closeStores, openStore } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { entryAliases } from './aliases.js';
import { findEntry, loadCorpus } from './corpus.js';
import { F_REUSABLE, Spots } from './corpus-store.js';
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
    // The writer recorded the grown file's rows itself: they already belong to its new bytes.
    const row = openStore(layout)
      .db.prepare("SELECT sha256, entries FROM spec_files WHERE path = 'specs/coding-conventions.md'")
      .get() as { sha256: string; entries: number };
    expect(row.sha256).toBe(sha256(readFileSync(join(layout.specs, 'coding-conventions.md'))));
    const after = loadCorpus(layout, { store: false });
    expect(row.entries).toBe(after.entries.filter((e) => e.file === 'specs/coding-conventions.md').length);
    expect(after.byId.get(added.sid!)?.title).toBe('a new one');
    expect(JSON.stringify(loadCorpus(layout))).toBe(JSON.stringify(after));
  });

  it('spec add after spec add: rows keyed by the new bytes; a same-size edit behind the store is still read', async () => {
    const layout = await generated(400);
    const file = join(layout.specs, 'coding-conventions.md');
    const runtime = fixedRuntime('2026-09-01T10:00:00Z', { seed: 43 });
    const rowHash = () =>
      openStore(layout)
        .db.prepare("SELECT sha256 FROM spec_files WHERE path = 'specs/coding-conventions.md'")
        .pluck()
        .get();
    const add = (title: string) =>
      addSpecEntry(layout, { category: 'coding', title, content: `${title} body` }, runtime);
    await add('first added');
    // The file was just written (racy): this add hashes it again and hashes only what it appends.
    await add('second added');
    expect(rowHash()).toBe(sha256(readFileSync(file)));
    // Settle the file and let a load trust its stat, then edit it in place keeping size and mtime.
    const past = new Date(Date.now() - 10_000);
    utimesSync(file, past, past);
    loadCorpus(layout);
    const edited = readFileSync(file, 'utf8').replace('second added body', 'SECOND ADDED BODY');
    writeFileSync(file, edited);
    utimesSync(file, past, past);
    const third = await add('third added');
    const now = readFileSync(file, 'utf8');
    expect(now.startsWith(edited)).toBe(true);
    expect(now).toContain('third added body');
    expect(rowHash()).toBe(sha256(readFileSync(file)));
    const after = loadCorpus(layout, { store: false });
    expect(after.byId.get(third.sid!)?.title).toBe('third added');
    expect(JSON.stringify(loadCorpus(layout))).toBe(JSON.stringify(after));
  });
});

describe('lookupCorpus: entries read back by byte range', () => {
  const block = (sid: string, title: string, body: string, eol: string) =>
    [
      `<spec-entry category="coding" sid="${sid}" title="${title}">`,
      '',
      `### ${title}`,
      '',
      body,
      '',
      '</spec-entry>',
      '',
    ]
      .join(eol)
      .concat(eol);

  /** CRLF with multi-byte text, a BOM, and a file with bytes that are not UTF-8. */
  function odd(): WorkflowLayout {
    const root = temp();
    const layout = workflowLayout(root);
    mkdirSync(layout.specs, { recursive: true });
    mkdirSync(layout.knowhow, { recursive: true });
    const crlf = ['# Coding\r\n\r\n', block('S-20260101-c001', 'crlf één', 'naïve café 中文 body', '\r\n')];
    for (let i = 2; i < 6; i++)
      crlf.push(block(`S-20260101-c00${i}`, `crlf ${i} ü`, `body ${i} ✓ ${'é'.repeat(i)}`, '\r\n'));
    writeFileSync(join(layout.specs, 'coding-conventions.md'), crlf.join(''));
    const bom = ['\ufeff# Debug\n\n'];
    for (let i = 1; i < 5; i++) bom.push(block(`S-20260101-b00${i}`, `bom ${i}`, `body ${i} ß`, '\n'));
    writeFileSync(join(layout.specs, 'debug-notes.md'), bom.join(''));
    const bad = Buffer.concat([
      Buffer.from(`# Learnings\n\n${block('S-20260101-x001', 'before', 'fine', '\n')}`),
      Buffer.from(block('S-20260101-x002', 'broken', 'bytes here: @@', '\n').replace('@@', '\u0000')),
      Buffer.from(block('S-20260101-x003', 'after', 'fine too ü', '\n')),
    ]);
    bad[bad.indexOf(0)] = 0xff;
    writeFileSync(join(layout.specs, 'learnings.md'), bad);
    writeFileSync(join(layout.knowhow, 'TIP-20260101-odd.md'), '---\ntitle: odd\ntype: tip\n---\n\nbody\n');
    age(layout);
    return layout;
  }

  it('answers entries of CRLF, BOM and non-UTF-8 files as the whole parse does', () => {
    const layout = odd();
    const full = loadCorpus(layout, { store: false });
    expect(full.entries.filter((e) => e.store === 'spec')).toHaveLength(12);
    expect(full.issues.some((i) => i.code === 'FILE_NOT_UTF8')).toBe(true);
    for (const e of full.entries) expect(expectSameAnswer(layout, full, e.id), e.id).toBe(true);
    expect(openStore(layout).warnings).toEqual([]);
    // Every stored byte range holds its entry's block exactly (CRLF, BOM and multi-byte text included).
    const db = openStore(layout).db;
    const crlf = readFileSync(join(layout.specs, 'coding-conventions.md'));
    const row = db
      .prepare("SELECT num, entries, spots FROM spec_files WHERE path = 'specs/coding-conventions.md'")
      .get() as {
      num: number;
      entries: number;
      spots: Buffer;
    };
    const spots = new Spots(row.spots, row.entries);
    expect(spots.length).toBe(5);
    for (let i = 0; i < spots.length; i++) {
      const s = spots.at(i);
      expect(s.flags & F_REUSABLE).toBe(F_REUSABLE);
      const text = crlf.subarray(s.byteStart!, s.byteEnd!).toString('utf8');
      expect(text.startsWith('<spec-entry') && text.endsWith('</spec-entry>')).toBe(true);
      expect(text).toContain(`S-20260101-c00${i + 1}`);
    }
  });

  it('never answers from stale byte ranges: an earlier entry grows behind the store', () => {
    const layout = odd();
    expect(lookupCorpus(layout, ['S-20260101-c005'])).not.toBeNull();
    const path = join(layout.specs, 'coding-conventions.md');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace('naïve café', 'naïve café, now much longer — ✓✓✓'));
    age(layout);
    const now = loadCorpus(layout, { store: false });
    for (const id of ['S-20260101-c001', 'S-20260101-c003', 'S-20260101-c005']) {
      const part = lookupCorpus(layout, [id]);
      expect(part, id).not.toBeNull();
      expect(findEntry(part!, id), id).toStrictEqual(findEntry(now, id));
    }
    expect(findEntry(lookupCorpus(layout, ['S-20260101-c001'])!, 'S-20260101-c001')?.content).toContain('much longer');
    // The file replaced by one with other entries at the same places: the new entries answer.
    writeFileSync(path, text.replaceAll('crlf', 'CRLF'));
    const after = loadCorpus(layout, { store: false });
    const part = lookupCorpus(layout, ['S-20260101-c004']);
    expect(findEntry(part!, 'S-20260101-c004')?.title).toBe('CRLF 4 ü');
    expect(findEntry(part!, 'S-20260101-c004')).toStrictEqual(findEntry(after, 'S-20260101-c004'));
  });

  it('keeps the spec section small: positions, not a copy of the corpus', async () => {
    const layout = await generated(1500);
    loadCorpus(layout);
    const db = openStore(layout).db;
    const stored = db
      .prepare('SELECT sum(length(spots)) AS spots, sum(length(issues)) AS issues FROM spec_files')
      .get() as {
      spots: number;
      issues: number;
    };
    let corpus = 0;
    for (const dir of [layout.specs, layout.knowhow])
      for (const n of readdirSync(dir)) corpus += statSync(join(dir, n)).size;
    // 24 bytes of spots per entry, and no text of any entry.
    expect(stored.spots).toBeLessThan(corpus * 0.06);
    const ids = db.prepare('SELECT count(*) FROM spec_ids').pluck(true).get() as number;
    expect(ids).toBe(loadCorpus(layout, { store: false }).entries.length);
    expect(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'spec_entries'").pluck(true).get()).toBe(0);
  });
});

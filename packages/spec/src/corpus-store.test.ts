import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type WorkflowLayout, workflowLayout } from '@maestro/fs';
import { closeStores, fileStates, openStore } from '@maestro/store';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCorpus, loadCorpusFiles } from './corpus.js';
import { finish } from './corpus-files.js';
import { scanSpecRows } from './corpus-store.js';
import { parseCorpusFileRows, saveSpecRows } from './corpus-stored.js';
import { parseSpecFile } from './spec-file.js';
import { specFileEntries } from './spec-view.js';

// maestro-flow users' corpora (read-only: copied to a temp dir, never edited in place).
const REAL = resolve(import.meta.dirname, '../../../../shared/corpora/real-world');
const GEN = resolve(import.meta.dirname, '../../../bench/lib/gen-corpus.mjs');

const roots: string[] = [];
function temp(): string {
  const root = mkdtempSync(join(tmpdir(), 'maestro-spec-store-'));
  roots.push(root);
  return root;
}
afterEach(() => {
  closeStores();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function realCorpora(): string[] {
  if (!existsSync(REAL)) return [];
  return readdirSync(REAL, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(REAL, d.name, '.workflow')))
    .map((d) => d.name)
    .sort();
}

function copyOf(name: string): WorkflowLayout {
  const root = temp();
  cpSync(join(REAL, name, '.workflow'), join(root, '.workflow'), { recursive: true });
  rmSync(join(root, '.workflow', '.index'), { recursive: true, force: true });
  return workflowLayout(root);
}

/** Every corpus file's mtime 10 s in the past: outside the racy window, so stored hashes are trusted by stat. */
function age(layout: WorkflowLayout): void {
  const past = new Date(Date.now() - 10_000);
  for (const dir of [layout.specs, layout.knowhow]) {
    if (!existsSync(dir)) continue;
    for (const n of readdirSync(dir)) utimesSync(join(dir, n), past, past);
  }
}

/** The stored load is the plain parse: same entries, order, ids, issues and file stats, key order included. */
function expectSame(layout: WorkflowLayout, label: string): void {
  const plain = loadCorpus(layout, { store: false });
  const stored = loadCorpus(layout);
  expect(isDeepStrictEqual(stored, plain), label).toBe(true);
  expect(JSON.stringify(stored), label).toBe(JSON.stringify(plain));
  const files = loadCorpusFiles(layout);
  const plainFiles = loadCorpusFiles(layout, { store: false });
  expect(JSON.stringify(files.corpus), label).toBe(JSON.stringify(plainFiles.corpus));
  expect(
    files.specs.map((f) => [f.file, f.text, f.utf8, f.entries.length]),
    label,
  ).toEqual(plainFiles.specs.map((f) => [f.file, f.text, f.utf8, f.entries.length]));
  expect(
    files.knowhow.map((f) => [f.file, f.text, f.utf8, f.entry]),
    label,
  ).toEqual(plainFiles.knowhow.map((f) => [f.file, f.text, f.utf8, f.entry]));
}

describe('loadCorpus through the store', () => {
  const corpora = realCorpora();

  it.skipIf(corpora.length === 0)(
    'equals the plain parse on every real-world corpus, cold and warm',
    { timeout: 300_000 },
    () => {
      expect(corpora.length).toBeGreaterThan(5);
      for (const name of corpora) {
        const layout = copyOf(name);
        expectSame(layout, `${name} cold`);
        expectSame(layout, `${name} warm (racy)`);
        age(layout);
        expectSame(layout, `${name} warm (hash rehashed)`);
        expectSame(layout, `${name} warm (trusted by stat)`);
        closeStores();
        expectSame(layout, `${name} warm (reopened)`);
      }
    },
  );

  it.skipIf(corpora.length === 0)('stays equal after edits to real-world files', { timeout: 300_000 }, () => {
    for (const name of corpora) {
      const layout = copyOf(name);
      age(layout);
      loadCorpus(layout);
      const specs = existsSync(layout.specs) ? readdirSync(layout.specs).filter((n) => n.endsWith('.md')) : [];
      for (const n of specs) {
        const path = join(layout.specs, n);
        const text = readFileSync(path, 'utf8');
        const first = text.indexOf('<spec-entry');
        if (first === -1) continue;
        // change the first entry's body, keep the rest
        const close = text.indexOf('</spec-entry>', first);
        if (close !== -1) writeFileSync(path, `${text.slice(0, close)}\nedited line\n${text.slice(close)}`);
        expectSame(layout, `${name}/${n} changed`);
        appendFileSync(
          path,
          '\n<spec-entry category="coding" date="2026-01-02">\n\n### appended\n\nnew\n\n</spec-entry>\n',
        );
        expectSame(layout, `${name}/${n} appended`);
      }
    }
  });

  it('a generated corpus: append, change, delete, rename, duplicate sids, frontmatter, bad bytes', {
    timeout: 300_000,
  }, async () => {
    const { generateCorpus } = (await import(GEN)) as {
      generateCorpus: (root: string, o: { entries: number; seed?: number }) => unknown;
    };
    const root = temp();
    generateCorpus(root, { entries: 3000, seed: 7 });
    const layout = workflowLayout(root);
    age(layout);
    expectSame(layout, 'generated cold');
    expectSame(layout, 'generated warm');
    const file = join(layout.specs, 'architecture-constraints.md');
    const text = readFileSync(file, 'utf8');
    const blocks = text.split('<spec-entry ');
    expect(blocks.length).toBeGreaterThan(100);

    appendFileSync(
      file,
      '\n<spec-entry category="arch" date="2026-07-01" sid="S-20260701-zzzz">\n\n### appended\n\nx\n\n</spec-entry>\n',
    );
    expectSame(layout, 'appended');
    // grows again: a stray close and an attribute problem after the old end, then an entry without a sid, then legacy
    appendFileSync(
      file,
      '</spec-entry>\n<spec-entry sid="S-20260701-zzzy" category="arch" date="2026-07-02" x=>\n\nmore\n\n</spec-entry>\n',
    );
    expectSame(layout, 'appended with issues');
    appendFileSync(file, `\n<spec-entry ${blocks[2]}\n`);
    expectSame(layout, 'appended a twin without sid');
    appendFileSync(file, '\n### [arch] [2026-07-03] a legacy one\n\nold style\n');
    expectSame(layout, 'appended legacy');
    appendFileSync(
      file,
      '\nmore legacy body\n<spec-entry sid="S-20260701-zzzx" category="arch" date="2026-07-04">\n\nafter\n\n</spec-entry>\n',
    );
    expectSame(layout, 'appended after legacy');

    const mid = Math.floor(blocks.length / 2);
    const changed = [...blocks];
    changed[mid] = changed[mid].replace('### ', '### changed ');
    writeFileSync(file, changed.join('<spec-entry '));
    expectSame(layout, 'changed one');

    const deleted = changed.filter((_, i) => i !== mid + 1);
    writeFileSync(file, deleted.join('<spec-entry '));
    expectSame(layout, 'deleted one');

    // an exact twin (same bytes twice) and an entry without a sid copied: twin ids and reuse of one block twice
    writeFileSync(file, `${deleted.join('<spec-entry ')}\n<spec-entry ${deleted[3]}\n<spec-entry ${deleted[3]}`);
    expectSame(layout, 'twins');

    renameSync(file, join(layout.specs, 'zz-architecture.md'));
    expectSame(layout, 'renamed');

    // the same sids in a second file: DUPLICATE_ID and ~2 ids follow file order
    cpSync(join(layout.specs, 'zz-architecture.md'), join(layout.specs, 'aa-copy.md'));
    expectSame(layout, 'copied');

    // frontmatter category changes the default of entries without one
    const coding = join(layout.specs, 'coding-conventions.md');
    writeFileSync(coding, readFileSync(coding, 'utf8').replace('category: coding', 'category: ui'));
    expectSame(layout, 'frontmatter');

    // a malformed tag, a stray close, an unclosed entry
    appendFileSync(
      coding,
      '\n<spec-entry category="coding\n\nbroken\n</spec-entry>\n<spec-entry date="x">\n\nunclosed\n',
    );
    expectSame(layout, 'malformed');

    writeFileSync(join(layout.specs, 'latin1.md'), Buffer.from([0x3c, 0x73, 0xe9, 0x0a]));
    expectSame(layout, 'not utf-8');

    const know = readdirSync(layout.knowhow).sort();
    rmSync(join(layout.knowhow, know[0]));
    writeFileSync(
      join(layout.knowhow, know[1]),
      '---\ntitle: retitled\ntype: tip\nsupersededBy: nowhere\n---\n\nbody\n',
    );
    expectSame(layout, 'knowhow edited and removed');

    rmSync(join(layout.workflow, '.index'), { recursive: true, force: true });
    closeStores();
    expectSame(layout, 'index removed');
  });
});

describe('scanSpecRows', () => {
  it('returns what the plain parse returns, and marks only blocks that parse alone as reusable', () => {
    const entry = (n: number, extra = '') =>
      `<spec-entry category="coding" date="2026-01-0${(n % 9) + 1}"${extra}>\n\n### title ${n}\n\nbody ${n} &amp; more\n\n</spec-entry>\n\n`;
    const file = 'specs/coding-conventions.md';
    const text = `\n# Coding\n\n${[0, 1, 2].map((n) => entry(n)).join('')}<spec-entry title="a <spec-entry b">\n\nx\n\n</spec-entry>\n\n### [coding] [2026-01-01] legacy one\n\nold\n${entry(9, ' bogus')}`;
    const scanned = scanSpecRows(text, file);
    const plainIssues: never[] = [];
    const model = parseSpecFile(text, `.workflow/${file}`);
    const plain = specFileEntries(model.value, file, `.workflow/${file}`, plainIssues);
    expect(scanned.entries).toStrictEqual(plain);
    expect(scanned.issues).toStrictEqual([...model.issues, ...plainIssues]);
    expect(scanned.spots.map((s) => s.end !== null)).toEqual([true, true, true, false, false, true]);
    for (const [i, s] of scanned.spots.entries()) {
      if (s.end !== null) expect(text.slice(s.offset, s.end)).toMatch(/^<spec-entry[\s\S]*<\/spec-entry>$/);
      expect(s.line).toBe(plain[i].line);
    }
  });
});

describe('parseCorpusFileRows / saveSpecRows', () => {
  it('rows saved by another parser of the corpus are the rows a load would save', async () => {
    const { generateCorpus } = (await import(GEN)) as {
      generateCorpus: (root: string, o: { entries: number; seed?: number }) => unknown;
    };
    const root = temp();
    generateCorpus(root, { entries: 600, seed: 5 });
    const layout = workflowLayout(root);
    age(layout);
    // The same sid twice: the corpus-wide pass renames the second copy after the parse.
    const spec = readdirSync(layout.specs).sort()[0];
    cpSync(join(layout.specs, spec), join(layout.specs, 'zz-copy.md'));
    const store = openStore(layout);
    const rels = [
      ...readdirSync(layout.specs).map((n) => `specs/${n}`),
      ...readdirSync(layout.knowhow).map((n) => `knowhow/${n}`),
    ];
    const parsed = fileStates(store, layout.workflow, rels).map((s) =>
      parseCorpusFileRows(s.path, s.bytes ?? readFileSync(join(layout.workflow, s.path)), s.sha256),
    );
    // What the other parser does with the entries (here: the corpus-wide passes) does not reach the rows.
    finish(
      parsed.flatMap((p) => p.entries),
      [],
      [],
      [],
      [],
    );
    store.write(() =>
      saveSpecRows(
        store,
        parsed.map((p) => p.rows),
      ),
    );
    const theirs = store.db.prepare('SELECT id, pos FROM spec_ids ORDER BY id, file, pos').all();
    expect(store.db.prepare("SELECT count(*) FROM spec_ids WHERE id LIKE '%~%'").pluck(true).get()).toBe(0);
    closeStores();
    rmSync(join(layout.workflow, '.index'), { recursive: true, force: true });
    expectSame(layout, 'after rows saved by another parser');
    const ours = openStore(layout).db.prepare('SELECT id, pos FROM spec_ids ORDER BY id, file, pos').all();
    expect(theirs).toEqual(ours);
  });
});

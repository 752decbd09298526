import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { seedPositions } from './aliases.js';
import {
  type CorpusStoreView,
  finish,
  type LoadedCorpus,
  type LoadedSpecFile,
  materialize,
  openCorpusStore,
} from './corpus.js';
import { decodeEntities } from './entities.js';
import { knowhowIdFor } from './knowhow-file.js';
import type { Corpus, KnowledgeEntry } from './model.js';
import { findClose, parseSpecFile, type SpecEntryNode, type SpecFileModel } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { fileStem } from './spec-text.js';
import { viewOfEntry } from './spec-view.js';

/**
 * Single-entry lookups through the store's `spec_entries` rows: find the rows of the entries asked
 * for (and, for history, of every entry linked to them), check that every corpus file still has
 * the hash its rows were made from (a changed file is parsed again, only it), then build just
 * those entries: a spec entry from its own `<spec-entry>` block, a knowhow document from its file.
 * The answer is the one the whole corpus gives. When the rows cannot vouch for that (an alias form
 * other than the id itself, an id written in two places, a legacy entry, a knowhow link by file
 * stem), the lookup says so (null) and the caller loads the whole corpus.
 */

/** More linked entries than this, and a history lookup loads the whole corpus instead. */
const MAX_LINKED = 500;

interface Row {
  file: string;
  pos: number;
  id: string;
  store: string;
  line: number | null;
  legacy: number;
  start: number;
  end: number | null;
  byte_start: number | null;
  byte_end: number | null;
  content_hash: string;
  supersedes: string;
  superseded_by: string | null;
}

const COLUMNS =
  'file, pos, id, store, line, legacy, start, end, byte_start, byte_end, content_hash, supersedes, superseded_by';

/**
 * The store view with every file's rows current: files changed since they were stored are parsed
 * (only those) and saved. Null when the rows cannot be brought up to date (no usable store, or a
 * store that could not take the write: then only a whole load answers).
 */
function currentView(layout: WorkflowLayout): CorpusStoreView | null {
  const view = openCorpusStore(layout);
  if (!view) return null;
  if (view.stale === 0 && view.gone.length === 0) return view;
  return materialize(layout, view, false, new Set()).saved ? view : null;
}

/** The one row of an id, null when the id is in no row, undefined when rows cannot answer for it. */
function rowOf(view: CorpusStoreView, id: string): Row | null | undefined {
  if (id.includes('~')) return undefined; // duplicate-sid copies are named by the whole corpus
  const rows = view.store.prepare(`SELECT ${COLUMNS} FROM spec_entries WHERE id = ?`).all(id) as Row[];
  if (rows.length > 1) return undefined;
  return rows[0] ?? null;
}

/** Adds the row a knowhow link value names in the whole corpus: the id itself, else a knowhow stem's id. */
function knowhowLink(view: CorpusStoreView, value: string, rows: Map<string, Row>): boolean {
  const direct = rowOf(view, value);
  if (direct === undefined) return false;
  if (direct) {
    rows.set(direct.id, direct);
    return true;
  }
  const stem = rowOf(view, knowhowIdFor(value.trim()));
  if (stem === undefined) return false;
  if (stem) rows.set(stem.id, stem);
  return true;
}

/** The rows that answer for `ids` (with `links`, for their whole supersession history), or null. */
function rowsFor(view: CorpusStoreView, ids: readonly string[], links: boolean): Map<string, Row> | null {
  const rows = new Map<string, Row>();
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const raw of ids) {
    const id = raw.trim();
    if (!rowOf(view, id)) return null; // unknown, or an alias form: the whole corpus decides
    queue.push(id);
  }
  const linking = view.store.prepare(
    `SELECT ${COLUMNS} FROM spec_entries WHERE superseded_by = ? OR instr(supersedes, ?) > 0`,
  );
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > MAX_LINKED) return null;
    const row = rowOf(view, id);
    if (row === undefined) return null;
    if (row === null) continue; // a dangling link: not in the corpus either
    rows.set(row.id, row);
    const targets = [...(JSON.parse(row.supersedes) as string[]), ...(row.superseded_by ? [row.superseded_by] : [])];
    if (row.store === 'knowhow') {
      // Knowhow links may name a file stem; whether they resolve depends on what else exists.
      if (links) return null;
      for (const v of targets) if (!knowhowLink(view, v, rows)) return null;
      continue;
    }
    if (!links) continue;
    for (const v of targets) queue.push(v);
    for (const r of linking.all(id, JSON.stringify(id)) as Row[]) {
      if (r.store !== 'spec') return null;
      queue.push(r.id);
    }
  }
  return rows;
}

/** The bytes of one entry's block, read from its file (still the size its rows were made from). */
function blockText(layout: WorkflowLayout, view: CorpusStoreView, row: Row): string | null {
  if (row.byte_start === null || row.byte_end === null) return null;
  try {
    const fd = openSync(join(layout.workflow, row.file), 'r');
    try {
      if (fstatSync(fd).size !== view.stored.get(row.file)?.size) return null;
      const buf = Buffer.alloc(row.byte_end - row.byte_start);
      if (readSync(fd, buf, 0, buf.length, row.byte_start) !== buf.length) return null;
      return buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The view of one tagged entry built from its own block (a reusable block's bytes alone decide
 * its view; see `scanSpecCached`), checked against its row. Null when that cannot be done.
 */
function entryOfBlock(text: string, row: Row, defaultCategory: string | null): KnowledgeEntry | null {
  if (row.legacy !== 0 || row.end === null || row.line === null) return null;
  if (text.length !== row.end - row.start) return null;
  const tag = scanOpenTag(text, 0, decodeEntities);
  if (!tag) return null;
  const { close, bodyEnd } = findClose(text, tag.end);
  if (bodyEnd + close.length !== text.length) return null;
  const node: SpecEntryNode = {
    kind: 'entry',
    attributes: tag.attributes,
    tail: tag.tail,
    body: text.slice(tag.end, bodyEnd),
    close,
    offset: row.start,
    line: row.line,
    column: 1,
  };
  const e = viewOfEntry(node, { file: row.file, issueFile: `.workflow/${row.file}`, defaultCategory, issues: [] });
  if (e.contentHash !== row.content_hash) return null;
  e.id = row.id; // the twin suffix, as the file's parse gave it
  return e;
}

/** `spec:project:{stem}-{NNN}` of a tagged entry: its place among the file's tagged entries. */
function positionOf(view: CorpusStoreView, row: Row): string {
  const before = view.store
    .prepare('SELECT count(*) FROM spec_entries WHERE file = ? AND legacy = 0 AND pos < ?')
    .pluck(true)
    .get(row.file, row.pos) as number;
  return `spec:project:${fileStem(row.file)}-${String(before + 1).padStart(3, '0')}`;
}

/** The corpus of just these rows' entries, in corpus order; null when one cannot be built from its block. */
function corpusOf(layout: WorkflowLayout, view: CorpusStoreView, rows: Map<string, Row>): Corpus | null {
  const order = new Map<string, number>();
  for (const n of view.specNames) order.set(`specs/${n}`, order.size);
  for (const n of view.knowhowNames) order.set(`knowhow/${n}`, order.size);
  const sorted = [...rows.values()].sort(
    (a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.pos - b.pos,
  );
  const knowhowFiles = new Set(sorted.filter((r) => r.store === 'knowhow').map((r) => r.file));
  const knowhow = knowhowFiles.size ? materialize(layout, view, false, knowhowFiles).loaded.corpus.entries : [];
  const categories = view.store.prepare('SELECT default_category FROM spec_files WHERE path = ?').pluck(true);
  const entries: KnowledgeEntry[] = [];
  const position = new Map<KnowledgeEntry, string>();
  for (const row of sorted) {
    if (row.store === 'knowhow') {
      const e = knowhow.find((k) => k.file === row.file);
      if (!e) return null;
      entries.push(e);
      continue;
    }
    const text = blockText(layout, view, row);
    if (!text) return null;
    const e = entryOfBlock(text, row, (categories.get(row.file) as string | null) ?? null);
    if (!e) return null;
    position.set(e, positionOf(view, row));
    entries.push(e);
  }
  const { corpus } = finish(entries, [], [], [], []);
  seedPositions(corpus, position);
  return corpus;
}

/**
 * The part of the corpus that answers for `ids` exactly as the whole corpus would (with `links`,
 * also every entry of their supersession history). Null when the store's rows cannot vouch for
 * the answer; the caller then loads the whole corpus (`loadCorpus`). The result holds only those
 * entries: its `issues` and `files` are not the corpus's.
 */
export function lookupCorpus(
  layout: WorkflowLayout,
  ids: readonly string[],
  options: { links?: boolean } = {},
): Corpus | null {
  if (ids.length === 0) return null;
  try {
    const view = currentView(layout);
    if (!view) return null;
    const rows = rowsFor(view, ids, options.links === true);
    return rows ? corpusOf(layout, view, rows) : null;
  } catch {
    return null; // a store that fails mid-read: the whole load answers
  }
}

/**
 * The corpus for a writer that edits one spec file but must keep ids and file names unique
 * (`spec add`): that file (text read when first needed and checked against its hash; its model and
 * entries built only if asked for), every id in use, every knowhow file name, and the duplicate
 * title check, all from the store's rows. Null when the store cannot vouch for the rows.
 */
export function loadFilesWithIds(layout: WorkflowLayout, files: readonly string[]): LoadedCorpus | null {
  let view: CorpusStoreView | null;
  try {
    view = currentView(layout);
  } catch {
    return null;
  }
  if (!view) return null;
  const v = view;
  // Asked id by id (a new sid is drawn against it): the rows cover every file, duplicate copies'
  // `~n` names aside, which no drawn sid can take.
  const used = v.store.prepare('SELECT 1 FROM spec_entries WHERE id = ? LIMIT 1').pluck(true);
  const ids = { has: (id: string) => used.get(id) !== undefined };
  const specs: LoadedSpecFile[] = [];
  for (const file of files) {
    const stored = v.stored.get(file);
    if (!file.startsWith('specs/') || !stored || !v.states.has(file)) continue;
    let text: string | null = null;
    let model: SpecFileModel | null = null;
    let entries: KnowledgeEntry[] | null = null;
    specs.push({
      file,
      get text(): string {
        if (text === null) {
          const buf = readFileSync(join(layout.workflow, file));
          if (sha256(buf) !== stored.sha256) throw changed(file);
          text = buf.toString('utf8');
        }
        return text;
      },
      get model(): SpecFileModel {
        if (model === null) model = parseSpecFile(this.text, `.workflow/${file}`).value;
        return model;
      },
      set model(value: SpecFileModel) {
        model = value;
      },
      get entries(): KnowledgeEntry[] {
        if (entries === null) entries = materialize(layout, v, false, new Set([file])).loaded.corpus.entries;
        return entries;
      },
      utf8: stored.utf8 === 1,
    });
  }
  const titleIn = v.store.prepare('SELECT id FROM spec_entries WHERE file = ? AND dup_title = ? ORDER BY pos LIMIT 1');
  return {
    corpus: { entries: [], byId: new Map(), issues: [], files: [] },
    specs,
    knowhow: [],
    ids,
    knowhowFiles: new Set(v.knowhowNames.map((n) => `knowhow/${n}`)),
    titleIn: (file, title) => (titleIn.pluck(true).get(file, title) as string | undefined) ?? null,
  };
}

function changed(file: string): Error {
  return environmentError('CORPUS_CHANGED', `.workflow/${file} changed while maestro was reading the corpus`, {
    hint: 'rerun the command (another program wrote the file meanwhile)',
  });
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
import { decode } from './corpus-files.js';
import { noteVerifiedText, readVouched } from './corpus-stored.js';
import { knowhowEntry, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
import { changed, Entries, type Row } from './lookup-entries.js';
import type { Corpus, KnowledgeEntry } from './model.js';
import { parseSpecFile, type SpecFileModel } from './spec-file.js';

/**
 * Single-entry lookups through the store's `spec` rows: find the rows of the entries asked
 * for (and, for history, of every entry linked to them), check that every corpus file still has
 * the hash its rows were made from (a changed file is parsed again, only it), then build just
 * those entries: a spec entry from its own `<spec-entry>` block, a knowhow document from its file.
 * The answer is the one the whole corpus gives. When the rows cannot vouch for that (an alias form
 * other than the id itself, an id written in two places, a legacy entry, a knowhow link by file
 * stem), the lookup says so (null) and the caller loads the whole corpus.
 */

/** More linked entries than this, and a history lookup loads the whole corpus instead. */
const MAX_LINKED = 500;

/**
 * The store view with every file's rows current: files changed since they were stored are parsed
 * (only those) and saved. Null when the rows cannot be brought up to date (no usable store, or a
 * store that could not take the write: then only a whole load answers).
 */
function currentView(layout: WorkflowLayout, scope: 'all' | 'specs'): CorpusStoreView | null {
  const view = openCorpusStore(layout, scope);
  if (!view) return null;
  if (view.stale === 0 && view.gone.length === 0) return view;
  return materialize(layout, view, false, new Set()).saved ? view : null;
}

/** Adds the row a knowhow link value names in the whole corpus: the id itself, else a knowhow stem's id. */
function knowhowLink(es: Entries, value: string, rows: Map<string, Row>): boolean {
  const direct = es.rowOf(value);
  if (direct === undefined) return false;
  if (direct) {
    rows.set(direct.id, direct);
    return true;
  }
  const stem = es.rowOf(knowhowIdFor(value.trim()));
  if (stem === undefined) return false;
  if (stem) rows.set(stem.id, stem);
  return true;
}

/** The rows that answer for `ids` (with `links`, for their whole supersession history), or null. */
function rowsFor(es: Entries, ids: readonly string[], links: boolean): Map<string, Row> | null {
  const rows = new Map<string, Row>();
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const raw of ids) {
    const id = raw.trim();
    if (!es.rowOf(id)) return null; // unknown, or an alias form: the whole corpus decides
    queue.push(id);
  }
  while (queue.length > 0) {
    const id = queue.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > MAX_LINKED) return null;
    const row = es.rowOf(id);
    if (row === undefined) return null;
    if (row === null) continue; // a dangling link: not in the corpus either
    const e = es.at(row.file, row.num, row.pos);
    if (!e || e.id !== row.id) return null;
    rows.set(row.id, row);
    const targets = [...e.supersedes, ...(e.supersededBy ? [e.supersededBy] : [])];
    if (e.store === 'knowhow') {
      // Knowhow links may name a file stem; whether they resolve depends on what else exists.
      if (links) return null;
      for (const v of targets) if (!knowhowLink(es, v, rows)) return null;
      continue;
    }
    if (!links) continue;
    for (const v of targets) queue.push(v);
    const linking = es.linking(id);
    if (!linking) return null;
    for (const r of linking) queue.push(r.id);
  }
  return rows;
}

/** The corpus of just these rows' entries, in corpus order; null when one cannot be built. */
function corpusOf(es: Entries, rows: Map<string, Row>): Corpus | null {
  const { view } = es;
  const order = new Map<string, number>();
  for (const n of view.specNames) order.set(`specs/${n}`, order.size);
  for (const n of view.knowhowNames) order.set(`knowhow/${n}`, order.size);
  const sorted = [...rows.values()].sort(
    (a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.pos - b.pos,
  );
  const entries: KnowledgeEntry[] = [];
  const position = new Map<KnowledgeEntry, string>();
  for (const row of sorted) {
    const e = es.at(row.file, row.num, row.pos);
    if (!e) return null;
    if (e.store === 'spec') {
      if (e.legacy) return null;
      position.set(e, es.positionOf(row));
    }
    entries.push(e);
  }
  const { corpus } = finish(entries, [], [], [], []);
  seedPositions(corpus, position);
  return corpus;
}

/**
 * The part of the corpus that answers for `ids` exactly as the whole corpus would (with `links`,
 * also every spec entry of their supersession history, as `specHistory` follows it). Null when the store's rows cannot vouch for
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
    // No knowhow content can change the answer (knowhow ids come from file names, and a spec
    // history follows spec entries' links only): only spec files are hashed.
    const view = currentView(layout, 'specs');
    if (!view) return null;
    const es = new Entries(layout, view);
    const rows = rowsFor(es, ids, options.links === true);
    return rows ? corpusOf(es, rows) : null;
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
    view = currentView(layout, 'specs');
  } catch {
    return null;
  }
  if (!view) return null;
  return loadFilesWithIdsOf(layout, view, new Entries(layout, view), files);
}

function loadFilesWithIdsOf(
  layout: WorkflowLayout,
  v: CorpusStoreView,
  es: Entries,
  files: readonly string[],
): LoadedCorpus {
  // Asked id by id (a new sid is drawn against it): the rows cover every file, duplicate copies'
  // `~n` names aside, which no drawn sid can take.
  const ids = { has: (id: string) => es.inUse(id) };
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
          // The bytes `fileStates` just read and hashed, when it had to; else read and checked now.
          const state = v.states.get(file);
          const fresh = state?.bytes && state.sha256 === stored.sha256 ? state.bytes : null;
          const buf = fresh ?? readVouched(v, join(layout.workflow, file), file, stored.sha256);
          if (!buf) throw changed(file);
          text = buf.toString('utf8');
          const resume = fresh ? state?.resume : null;
          noteVerifiedText(layout, file, text, stored.sha256, resume ? { bytes: buf, resume } : undefined);
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
      sha256: stored.sha256,
      hasId: (id: string) => {
        const row = es.rowOf(id);
        return row === undefined ? undefined : row?.file === file;
      },
    });
  }
  return {
    corpus: { entries: [], byId: new Map(), issues: [], files: [] },
    specs,
    knowhow: [],
    ids,
    knowhowFiles: new Set(v.knowhowNames.map((n) => `knowhow/${n}`)),
    titleIn: (file, title) => es.titleIn(file, title),
  };
}

/** What a multi-entry writer (promotion) reads: ids, supersession histories, titles and files. */
export interface EditLookup {
  /** Entries asked for by exact id (absent ids are simply not in the result). */
  ids: readonly string[];
  /** Entries asked for with their whole spec supersession history. */
  histories: readonly string[];
  /** Active spec entries whose `normalizeText(title)` is one of these. */
  titles: readonly string[];
  /** Files (relative to `.workflow/`) whose text the writer may edit; missing ones are left out. */
  files: readonly string[];
}

/**
 * The corpus a writer that touches a few entries and files needs, from the store's rows: the
 * entries of `ids`, the histories of `histories`, the active entries titled like `titles` (in
 * corpus order, with `byId` as the whole corpus names them), the `files` that exist (text read
 * when first needed and checked against its hash; a spec file also says, without being parsed,
 * whether it holds an id: `hasId`), every id in use and every knowhow file name. Null when the
 * rows cannot vouch for that (the caller loads the whole corpus).
 */
export function lookupForEdit(layout: WorkflowLayout, req: EditLookup): LoadedCorpus | null {
  try {
    const view = currentView(layout, 'specs');
    if (!view) return null;
    const es = new Entries(layout, view);
    const rows = new Map<string, Row>();
    for (const id of req.ids) {
      const row = es.rowOf(id);
      if (row === undefined) return null;
      if (row) rows.set(row.id, row);
    }
    for (const id of req.histories) {
      const linked = rowsFor(es, [id], true);
      if (!linked) return null;
      for (const [k, r] of linked) rows.set(k, r);
    }
    const titledEntries = req.titles.length ? es.activeTitled(req.titles) : [];
    if (!titledEntries) return null;
    for (const e of titledEntries) {
      const row = es.rowOf(e.id);
      // A title holder whose id is written twice is named by the whole corpus (`~n`).
      if (!row || row.file !== e.file) return null;
      rows.set(row.id, row);
    }
    const corpus = corpusOf(es, rows);
    if (!corpus) return null;
    // The files of the histories' entries too: superseding edits the old side.
    const specFiles = new Set(req.files.filter((f) => f.startsWith('specs/')));
    const knowhowFiles = new Set(req.files.filter((f) => f.startsWith('knowhow/')));
    for (const r of rows.values()) (r.file.startsWith('specs/') ? specFiles : knowhowFiles).add(r.file);
    const loaded = loadFilesWithIdsOf(layout, view, es, [...specFiles]);
    loaded.corpus = corpus;
    for (const file of knowhowFiles) {
      if (!loaded.knowhowFiles?.has(file)) continue;
      const abs = join(layout.workflow, file);
      let buf: Buffer;
      try {
        buf = readFileSync(abs);
      } catch {
        return null;
      }
      const { text, utf8 } = decode(buf, file, []);
      const parsed = parseKnowhowFile(text, `.workflow/${file}`);
      loaded.knowhow.push({ file, text, model: parsed.value, entry: knowhowEntry(parsed.value, file, []), utf8 });
    }
    return loaded;
  } catch {
    return null;
  }
}

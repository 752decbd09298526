import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, normalizeText, sha256 } from '@maestro/core';
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
import {
  F_DEPRECATED,
  F_LEGACY,
  F_REUSABLE,
  F_SID,
  F_TITLED,
  type Spot,
  Spots,
  scanSpecRows,
  titled,
  titleKey,
} from './corpus-store.js';
import { noteVerifiedText, readVouched } from './corpus-stored.js';
import { decodeEntities } from './entities.js';
import { knowhowEntry, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
import type { Corpus, KnowledgeEntry } from './model.js';
import { findClose, parseSpecFile, type SpecEntryNode, type SpecFileModel } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { fileStem } from './spec-text.js';
import { viewOfEntry } from './spec-view.js';

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

/** One entry's row: its file (relative to `.workflow/`), position there, and id as its file's parse gives it. */
interface Row {
  file: string;
  num: number;
  pos: number;
  id: string;
}

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

/**
 * Entries of one lookup, built from their files as needed: a spec entry from its own block (read
 * by byte range), else from a parse of its whole file; a knowhow document from its file. Every
 * file read is checked against the hash its rows were made from.
 */
class Entries {
  private readonly spots = new Map<number, Spots>();
  private readonly parsed = new Map<number, KnowledgeEntry[]>();
  private readonly built = new Map<string, KnowledgeEntry>();

  constructor(
    readonly layout: WorkflowLayout,
    readonly view: CorpusStoreView,
  ) {}

  private knowhowIds: Map<string, string[]> | null = null;

  /** Knowhow files by id: a knowhow document's id comes from its file name alone. */
  private knowhowFiles(id: string): string[] {
    if (!id.startsWith('knowhow-')) return []; // every knowhow id is `knowhow-<slug>` (`knowhowIdFor`)
    if (!this.knowhowIds) {
      this.knowhowIds = new Map();
      for (const name of this.view.knowhowNames) {
        const k = knowhowIdFor(name);
        const list = this.knowhowIds.get(k);
        if (list) list.push(`knowhow/${name}`);
        else this.knowhowIds.set(k, [`knowhow/${name}`]);
      }
    }
    return this.knowhowIds.get(id) ?? [];
  }

  /**
   * The one row of an id, null when the id is in no row, undefined when rows cannot answer for it.
   * Spec entries come from the spec files' rows, knowhow documents from the listing.
   */
  rowOf(id: string): Row | null | undefined {
    if (id.includes('~')) return undefined; // duplicate-sid copies are named by the whole corpus
    const found: Row[] = [];
    for (const r of this.view.store.prepare('SELECT file, pos FROM spec_ids WHERE id = ? LIMIT 3').all(id) as {
      file: number;
      pos: number;
    }[]) {
      const file = this.view.paths.get(r.file);
      // Every spec file's row is in the view: a number it lacks is a knowhow row (not read in scope `specs`).
      if (file === undefined && this.view.scope === 'all') return undefined;
      if (file?.startsWith('specs/')) found.push({ file, num: r.file, pos: r.pos, id });
    }
    for (const file of this.knowhowFiles(id)) found.push({ file, num: -1, pos: 0, id });
    if (found.length > 1) return undefined;
    return found[0] ?? null;
  }

  /** Whether an id is used by any entry (a duplicate copy's `~n` name aside). */
  inUse(id: string): boolean {
    return this.rowOf(id) !== null;
  }

  /** Rows holding `value` as a supersession link. */
  linking(value: string): Row[] | undefined {
    const out: Row[] = [];
    for (const r of this.view.store.prepare('SELECT file, pos FROM spec_links WHERE target = ?').all(value) as {
      file: number;
      pos: number;
    }[]) {
      const file = this.view.paths.get(r.file);
      if (file === undefined && this.view.scope === 'all') return undefined;
      // A knowhow document's links never enter a spec history (`entryHistory` follows one store).
      if (!file?.startsWith('specs/')) continue;
      const e = this.at(file, r.file, r.pos);
      if (!e) return undefined;
      out.push({ file, num: r.file, pos: r.pos, id: e.id });
    }
    return out;
  }

  spotsOf(num: number, file: string): Spots | null {
    let s = this.spots.get(num);
    if (s) return s;
    const row = this.view.stored.get(file);
    if (!row || row.sha256 === '') return null;
    const blob = this.view.store
      .prepare('SELECT spots FROM spec_files WHERE num = ? AND sha256 = ?')
      .pluck(true)
      .get(num, row.sha256) as Buffer | undefined;
    if (!blob) return null;
    s = new Spots(blob, row.entries);
    this.spots.set(num, s);
    return s;
  }

  /** The entry at a position, as its file's parse gives it (twin suffix included); null when it cannot be built. */
  at(file: string, num: number, pos: number): KnowledgeEntry | null {
    const key = `${file}:${pos}`;
    const done = this.built.get(key);
    if (done) return done;
    let e: KnowledgeEntry | null = null;
    if (file.startsWith('knowhow/')) e = pos === 0 ? this.knowhow(file) : null;
    else {
      const spots = this.spotsOf(num, file);
      if (!spots || pos >= spots.length) return null;
      const spot = spots.at(pos);
      const row = this.view.stored.get(file);
      if (spot.flags & F_REUSABLE && !(spot.flags & F_LEGACY) && row) {
        const text = blockText(this.layout, file, row.size, spot);
        e = text === null ? null : entryOfBlock(text, file, spot, row.default_category);
      }
      // Not a block that parses alone (legacy, unclosed, odd tag, not UTF-8), or not the one the
      // rows say: the whole file is parsed instead.
      if (e) {
        const twin = this.twinOf(num, pos, e);
        if (twin === null) e = null;
        else e.id = twin;
      }
      if (!e) e = this.wholeFile(file, num)?.[pos] ?? null;
    }
    if (e) this.built.set(key, e);
    return e;
  }

  /** The id the file's parse gives a block's entry: its sid, or its derived id with its twin suffix. */
  private twinOf(num: number, pos: number, e: KnowledgeEntry): string | null {
    if (e.hasSid) return e.id;
    const at = this.view.store.prepare('SELECT pos FROM spec_ids WHERE id = ? AND file = ?').pluck(true);
    for (let n = 1; ; n++) {
      const id = n === 1 ? e.id : `${e.id}-${n}`;
      const found = at.all(id, num) as number[];
      if (found.length === 0) return null;
      if (found.includes(pos)) return id;
    }
  }

  private wholeFile(file: string, num: number): KnowledgeEntry[] | null {
    const done = this.parsed.get(num);
    if (done) return done;
    const row = this.view.stored.get(file);
    if (!row || row.sha256 === '') return null;
    const buf = readChecked(this.layout, file, row.sha256);
    if (!buf) return null;
    const { text } = decode(buf, file, []);
    const entries = scanSpecRows(text, file).entries;
    if (entries.length !== row.entries) return null;
    this.parsed.set(num, entries);
    return entries;
  }

  /** A knowhow document, parsed from its file as it is now (its id depends on its name alone). */
  private knowhow(file: string): KnowledgeEntry | null {
    let buf: Buffer;
    try {
      buf = readFileSync(join(this.layout.workflow, file));
    } catch {
      return null;
    }
    const { text } = decode(buf, file, []);
    return knowhowEntry(parseKnowhowFile(text, `.workflow/${file}`).value, file, []);
  }

  /**
   * The id of the first entry of `file` whose title, trimmed and in lower case, is `title` (not a
   * title taken from its content); undefined when the rows cannot answer.
   */
  titleIn(file: string, title: string): string | null {
    const row = this.view.stored.get(file);
    if (!row || row.sha256 === '') return null; // no such file in the corpus (or not current: never, after currentView)
    const spots = this.spotsOf(row.num, file);
    if (!spots) throw changed(file);
    const key = titleKey(title);
    for (let pos = 0; pos < spots.length; pos++) {
      if (!(spots.flags(pos) & F_TITLED) || spots.dupKey(pos) !== key) continue;
      const e = this.at(file, row.num, pos);
      if (!e) throw changed(file);
      if (titled(e) && e.title.trim().toLowerCase() === title) return e.id;
    }
    return null;
  }

  /**
   * Active spec entries whose `normalizeText(title)` is one of `titles` (a title preflight over the
   * whole corpus from the rows: only the entries whose title key matches are built).
   */
  activeTitled(titles: readonly string[]): KnowledgeEntry[] | null {
    const keys = new Set(titles.map((t) => titleKey(normalizeText(t))));
    const wanted = new Set(titles.map((t) => normalizeText(t)));
    const out: KnowledgeEntry[] = [];
    for (const name of this.view.specNames) {
      const file = `specs/${name}`;
      const row = this.view.stored.get(file);
      if (!row) return null;
      const spots = this.spotsOf(row.num, file);
      if (!spots) return null;
      for (let pos = 0; pos < spots.length; pos++) {
        const flags = spots.flags(pos);
        if (!(flags & F_TITLED) || flags & F_DEPRECATED || !keys.has(spots.normKey(pos))) continue;
        const e = this.at(file, row.num, pos);
        if (!e) return null;
        if (e.status === 'active' && titled(e) && wanted.has(normalizeText(e.title))) out.push(e);
      }
    }
    return out;
  }

  /** `spec:project:{stem}-{NNN}` of a tagged entry: its place among the file's tagged entries. */
  positionOf(row: Row): string {
    const spots = this.spotsOf(row.num, row.file);
    let before = 0;
    for (let i = 0; i < row.pos; i++) if (spots && !(spots.flags(i) & F_LEGACY)) before++;
    return `spec:project:${fileStem(row.file)}-${String(before + 1).padStart(3, '0')}`;
  }
}

/** A file's bytes when they still hash to `hash`; null otherwise (it changed since its rows were made). */
function readChecked(layout: WorkflowLayout, file: string, hash: string): Buffer | null {
  let buf: Buffer;
  try {
    buf = readFileSync(join(layout.workflow, file));
  } catch {
    return null;
  }
  return sha256(buf) === hash ? buf : null;
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

/** The bytes of one entry's block, read from its file (still the size its rows were made from). */
function blockText(layout: WorkflowLayout, file: string, size: number, spot: Spot): string | null {
  if (spot.byteStart === null || spot.byteEnd === null) return null;
  try {
    const fd = openSync(join(layout.workflow, file), 'r');
    try {
      if (fstatSync(fd).size !== size) return null;
      const buf = Buffer.alloc(spot.byteEnd - spot.byteStart);
      if (readSync(fd, buf, 0, buf.length, spot.byteStart) !== buf.length) return null;
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
 * its view; see `scanSpecRows`), checked against its spot. Null when that cannot be done.
 */
function entryOfBlock(text: string, file: string, spot: Spot, defaultCategory: string | null): KnowledgeEntry | null {
  if (spot.end === null || spot.line === null) return null;
  if (text.length !== spot.end - spot.offset) return null;
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
    offset: spot.offset,
    line: spot.line,
    column: 1,
  };
  const e = viewOfEntry(node, { file, issueFile: `.workflow/${file}`, defaultCategory, issues: [] });
  return (e.hasSid ? 1 : 0) === (spot.flags & F_SID ? 1 : 0) ? e : null;
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
          noteVerifiedText(layout, file, text, stored.sha256);
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

function changed(file: string): Error {
  return environmentError('CORPUS_CHANGED', `.workflow/${file} changed while maestro was reading the corpus`, {
    hint: 'rerun the command (another program wrote the file meanwhile)',
  });
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

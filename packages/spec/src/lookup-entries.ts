// The entries of one single-entry lookup, built from the store's `spec` rows and the blocks of
// their files (see `lookup.ts`).
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, normalizeText, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { CorpusStoreView } from './corpus.js';
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
import { decodeEntities } from './entities.js';
import { knowhowEntry, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
import type { KnowledgeEntry } from './model.js';
import { findClose, type SpecEntryNode } from './spec-file.js';
import { scanOpenTag } from './spec-tag.js';
import { fileStem } from './spec-text.js';
import { viewOfEntry } from './spec-view.js';

/** One entry's row: its file (relative to `.workflow/`), position there, and id as its file's parse gives it. */
export interface Row {
  file: string;
  num: number;
  pos: number;
  id: string;
}

/**
 * Entries of one lookup, built from their files as needed: a spec entry from its own block (read
 * by byte range), else from a parse of its whole file; a knowhow document from its file. Every
 * file read is checked against the hash its rows were made from.
 */
export class Entries {
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

/** The error of a file that changed between its check and its read. */
export function changed(file: string): Error {
  return environmentError('CORPUS_CHANGED', `.workflow/${file} changed while maestro was reading the corpus`, {
    hint: 'rerun the command (another program wrote the file meanwhile)',
  });
}

import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, type Issue, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DerivedStore, fileStates, openStore, tryWrite } from '@maestro/store';
import { requireResolvedRef } from './aliases.js';
import {
  type Appended,
  entriesOfItems,
  type PackedSpec,
  type ParsedFileRows,
  type StoredItem,
  saveAppended,
  saveParsedFiles,
  scanAppended,
  scanSpecCached,
  specSection,
} from './corpus-store.js';
import { type KnowhowFileModel, knowhowEntry, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
import type { Corpus, CorpusFileInfo, KnowledgeEntry } from './model.js';
import { parseSpecFile, type SpecFileModel, scanSpecFile } from './spec-file.js';
import { specEntrySink } from './spec-view.js';

/** A corpus file as read: its text (exact), parsed model and entries. */
export interface LoadedSpecFile {
  /** Relative to `.workflow/`, e.g. `specs/learnings.md`. */
  file: string;
  text: string;
  /** `parseSpecFile(text).value`, parsed on first use (writers edit one or two files of many). */
  model: SpecFileModel;
  entries: KnowledgeEntry[];
  /** False when the bytes are not valid UTF-8; such a file is read but never rewritten. */
  utf8: boolean;
}

export interface LoadedKnowhowFile {
  file: string;
  text: string;
  model: KnowhowFileModel;
  entry: KnowledgeEntry;
  utf8: boolean;
}

export interface LoadedCorpus {
  corpus: Corpus;
  specs: LoadedSpecFile[];
  knowhow: LoadedKnowhowFile[];
  /** Set when only some files were loaded: whether an id is in use anywhere in the corpus. */
  ids?: Pick<ReadonlySet<string>, 'has'>;
  /** Set when only some files were loaded: every knowhow file of the corpus (`knowhow/x.md`). */
  knowhowFiles?: Set<string>;
  /**
   * Set when only some files were loaded: the id of the first entry of `file` whose title, as the
   * duplicate check of `spec add` reads it (trimmed, lower case, not taken from the content), is `title`.
   */
  titleIn?: (file: string, title: string) => string | null;
}

/** `*.md` files directly inside `dir` (non-recursive), sorted; [] when the directory is missing. */
function markdownFiles(dir: string, rel: string, issues: Issue[]): string[] {
  try {
    const found = readdirSync(dir, { withFileTypes: true }).filter((d) => d.name.endsWith('.md'));
    for (const d of found) {
      if (d.isFile() || d.isSymbolicLink()) continue;
      issues.push({
        severity: 'warning',
        code: 'NOT_A_FILE',
        message: `${d.name} is ${d.isDirectory() ? 'a directory' : 'not a regular file'}, so it is not read`,
        hint: `move it out of .workflow/${rel}/ or rename it without .md`,
        file: `.workflow/${rel}/${d.name}`,
      });
    }
    return found
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw environmentError('READ_FAILED', `cannot list ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

function readCorpusFile(abs: string, rel: string, issues: Issue[], files: CorpusFileInfo[]) {
  let buf: Buffer;
  let st: ReturnType<typeof fstatSync>;
  try {
    const fd = openSync(abs, 'r');
    try {
      buf = readFileSync(fd);
      st = fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw readFailed(abs, err);
  }
  files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
  return decode(buf, rel, issues);
}

function readFailed(abs: string, err: unknown) {
  return environmentError('READ_FAILED', `cannot read ${abs}: ${(err as Error).message}`, {
    hint: 'check its permissions',
    cause: err,
  });
}

function decode(buf: Buffer, rel: string, issues: Issue[]): { text: string; utf8: boolean } {
  const text = buf.toString('utf8');
  // Valid UTF-8 is exactly what decodes and re-encodes to the same bytes; checked without re-encoding.
  const utf8 = isUtf8(buf);
  if (!utf8) {
    issues.push({
      severity: 'error',
      code: 'FILE_NOT_UTF8',
      message: 'file is not valid UTF-8; it is read with replacement characters and maestro will not rewrite it',
      hint: 'convert the file to UTF-8',
      file: `.workflow/${rel}`,
    });
  }
  return { text, utf8 };
}

export interface LoadCorpusOptions {
  /**
   * Reuse the parsed rows of the derived-state store (`.workflow/.index/maestro.db`) for files whose
   * content hash is unchanged (default). `false` parses every file and touches no store: the
   * reference the stored path is tested against.
   */
  store?: boolean;
}

/**
 * Reads and parses every `specs/*.md` and `knowhow/*.md` (non-recursive), once each. Never writes
 * the corpus. Parse problems are returned as issues naming `.workflow/...` paths; they never abort
 * the load. Through the store, a file's text is read when first asked for (and checked against the
 * hash its entries came from).
 */
export function loadCorpusFiles(layout: WorkflowLayout, options: LoadCorpusOptions = {}): LoadedCorpus {
  return options.store === false ? load(layout, true) : loadStored(layout, true);
}

/** The corpus view every package uses: entries, `byId`, issues and file stats. */
export function loadCorpus(layout: WorkflowLayout, options: LoadCorpusOptions = {}): Corpus {
  return (options.store === false ? load(layout, false) : loadStored(layout, false)).corpus;
}

function load(layout: WorkflowLayout, keep: boolean): LoadedCorpus {
  const issues: Issue[] = [];
  const files: CorpusFileInfo[] = [];
  const specs: LoadedSpecFile[] = [];
  const knowhow: LoadedKnowhowFile[] = [];
  const entries: KnowledgeEntry[] = [];
  for (const name of markdownFiles(layout.specs, 'specs', issues)) {
    const file = `specs/${name}`;
    const { text, utf8 } = readCorpusFile(join(layout.specs, name), file, issues, files);
    const fileEntries = keep ? [] : entries;
    streamSpecEntries(text, file, issues, fileEntries);
    if (keep) {
      for (const e of fileEntries) entries.push(e);
      specs.push(loadedSpecFile(file, () => text, fileEntries, utf8));
    }
  }
  for (const name of markdownFiles(layout.knowhow, 'knowhow', issues)) {
    const file = `knowhow/${name}`;
    const { text, utf8 } = readCorpusFile(join(layout.knowhow, name), file, issues, files);
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const issue of parsed.issues) issues.push(issue);
    const entry = knowhowEntry(parsed.value, file, issues);
    entries.push(entry);
    if (keep) knowhow.push({ file, text, model: parsed.value, entry, utf8 });
  }
  return finish(entries, issues, files, specs, knowhow);
}

/** The corpus of these entries (in corpus order): `byId` (duplicate sids renamed) and knowhow links resolved. */
export function finish(
  entries: KnowledgeEntry[],
  issues: Issue[],
  files: CorpusFileInfo[],
  specs: LoadedSpecFile[],
  knowhow: LoadedKnowhowFile[],
): LoadedCorpus {
  const byId = indexById(entries, issues);
  resolveKnowhowLinks(entries, byId);
  return { corpus: { entries, byId, issues, files }, specs, knowhow };
}

export interface StoredFile {
  sha256: string;
  size: number;
  utf8: number;
  entries: number;
  default_category: string | null;
  issues: string;
  parse_issues: number;
}

function storedOf(
  sha: string,
  size: number,
  utf8: boolean,
  entries: number,
  category: string | null,
  issues: Issue[],
  parseIssues: number,
): StoredFile {
  return {
    sha256: sha,
    size,
    utf8: utf8 ? 1 : 0,
    entries,
    default_category: category,
    issues: JSON.stringify(issues),
    parse_issues: parseIssues,
  };
}

/**
 * `load` through the store: every file's hash comes from `fileStates` (by stat where it can be
 * trusted); a file whose hash matches its stored row is not read, its entries and issues come from
 * the rows; any other file is parsed (a spec file reusing its unchanged blocks) and its rows saved,
 * best effort. The result is the one `load` returns, entry for entry and issue for issue.
 */
function loadStored(layout: WorkflowLayout, keep: boolean): LoadedCorpus {
  const view = openCorpusStore(layout);
  return view ? materialize(layout, view, keep, null).loaded : load(layout, keep);
}

/** The store's view of the corpus before anything is parsed: listing, file hashes, stored rows. */
export interface CorpusStoreView {
  store: DerivedStore;
  specNames: string[];
  knowhowNames: string[];
  specList: Issue[];
  knowhowList: Issue[];
  states: Map<string, { sha256: string; size: number; bytes: Buffer | null }>;
  stored: Map<string, StoredFile>;
  /** The stored rows of changed spec files, as they were. */
  previous: Map<string, StoredFile>;
  /** Files whose stored rows do not match their current hash (or that have none). */
  stale: number;
  /** Stored files that are no longer in the corpus. */
  gone: string[];
}

/**
 * Lists the corpus, hashes every file (`fileStates`: by stat where it can be trusted) and reads
 * the stored rows. Null when the store cannot be used or a file cannot be read (the plain load
 * then says what is wrong, as it did before the store).
 */
export function openCorpusStore(layout: WorkflowLayout): CorpusStoreView | null {
  let store: DerivedStore;
  const specList: Issue[] = [];
  const knowhowList: Issue[] = [];
  let specNames: string[];
  let knowhowNames: string[];
  let states: Map<string, { sha256: string; size: number; bytes: Buffer | null }>;
  try {
    store = openStore(layout);
    store.section(specSection());
    specNames = markdownFiles(layout.specs, 'specs', specList);
    knowhowNames = markdownFiles(layout.knowhow, 'knowhow', knowhowList);
    const rels = [...specNames.map((n) => `specs/${n}`), ...knowhowNames.map((n) => `knowhow/${n}`)];
    states = new Map(fileStates(store, layout.workflow, rels).map((s) => [s.path, s]));
  } catch {
    return null;
  }
  const stored = new Map<string, StoredFile>();
  const previous = new Map<string, StoredFile>();
  // A file's items are read only when that file is needed (they are most of the store's bytes);
  // a changed spec file's old row is kept, for its unchanged blocks (or its unchanged beginning).
  const columns = 'path, sha256, size, utf8, entries, default_category, issues, parse_issues';
  for (const r of store.prepare(`SELECT ${columns} FROM spec_files`).iterate()) {
    const row = r as StoredFile & { path: string };
    const state = states.get(row.path);
    if (state?.sha256 === row.sha256) stored.set(row.path, row);
    else {
      if (state !== undefined && row.path.startsWith('specs/')) previous.set(row.path, row);
      stored.set(row.path, { ...row, sha256: '' });
    }
  }
  let stale = 0;
  for (const [path, state] of states) if (stored.get(path)?.sha256 !== state.sha256) stale++;
  const gone: string[] = [];
  for (const path of stored.keys()) if (!states.has(path)) gone.push(path);
  return { store, specNames, knowhowNames, specList, knowhowList, states, stored, previous, stale, gone };
}

/**
 * The corpus from a store view: stored rows for unchanged files, a parse (reusing unchanged
 * blocks) for the others, whose rows are then saved (best effort; `saved` says whether the store
 * now matches every file). With `only`, just those files are in the result; the other files are
 * neither read nor decoded unless they changed (then they are parsed, so their rows are current).
 */
export function materialize(
  layout: WorkflowLayout,
  view: CorpusStoreView,
  keep: boolean,
  only: ReadonlySet<string> | null,
): { loaded: LoadedCorpus; saved: boolean } {
  const { store, specNames, knowhowNames, specList, knowhowList, states, stored, previous } = view;
  const appended: Appended[] = [];
  /** The old items of a changed spec file by block key, for the blocks that did not change. */
  const reuseOf = (file: string): Map<string, PackedSpec> => {
    const blocks = new Map<string, PackedSpec>();
    if (!previous.has(file)) return blocks;
    const data = store.prepare('SELECT data FROM spec_files WHERE path = ?').pluck(true).get(file) as
      | string
      | undefined;
    for (const [, , , block, d] of JSON.parse(data ?? '[]') as StoredItem[]) {
      if (block !== null) blocks.set(block, d as PackedSpec);
    }
    return blocks;
  };
  const issues: Issue[] = [];
  const files: CorpusFileInfo[] = [];
  const specs: LoadedSpecFile[] = [];
  const knowhow: LoadedKnowhowFile[] = [];
  const entries: KnowledgeEntry[] = [];
  const toSave: ParsedFileRows[] = [];
  const noBlocks = new Map<string, PackedSpec>();
  /** The stored items of a file whose hash matches its row. */
  const rowsOf = (file: string): { row: StoredFile; items: StoredItem[] } | null => {
    const row = stored.get(file);
    const state = states.get(file);
    if (!row || !state || row.sha256 !== state.sha256) return null;
    // Read now, not in the first query: the row must still be the one for this hash.
    const now = store.prepare('SELECT sha256, data FROM spec_files WHERE path = ?').get(file) as
      | { sha256: string; data: string }
      | undefined;
    if (now?.sha256 !== state.sha256) return null;
    const items = JSON.parse(now.data) as StoredItem[];
    return items.length === row.entries ? { row, items } : null;
  };
  const bytesOf = (file: string, abs: string): { buf: Buffer; hash: string } => {
    const state = states.get(file);
    if (state?.bytes) return { buf: state.bytes, hash: state.sha256 };
    let buf: Buffer;
    try {
      buf = readFileSync(abs);
    } catch (err) {
      throw readFailed(abs, err);
    }
    return { buf, hash: sha256(buf) };
  };
  for (const i of specList) issues.push(i);
  const wanted = (file: string) => only === null || only.has(file);
  const unchanged = (file: string) => stored.get(file)?.sha256 === states.get(file)?.sha256;
  for (const name of specNames) {
    const file = `specs/${name}`;
    if (!wanted(file) && unchanged(file)) continue;
    const abs = join(layout.specs, name);
    const hit = rowsOf(file);
    // A spec file is always read: stored entries slice their content from its text. Its size must
    // still be the one its hash was taken at (else it changed meanwhile and is parsed).
    const read = readCorpusBytes(abs, file, files, states.get(file)?.bytes ?? null);
    const hashed = states.get(file)?.bytes ? (states.get(file)?.sha256 ?? null) : null;
    releaseBytes(states, file);
    if (hit && read.buf.length === hit.row.size) {
      const text = read.buf.toString('utf8');
      for (const i of JSON.parse(hit.row.issues) as Issue[]) issues.push(i);
      const fileEntries = entriesOfItems(file, hit.items, text);
      for (const e of fileEntries) entries.push(e);
      if (keep) specs.push(loadedSpecFile(file, () => text, fileEntries, hit.row.utf8 === 1));
      continue;
    }
    const buf = read.buf;
    const hash = hashed ?? sha256(buf);
    const fileIssues: Issue[] = [];
    const { text, utf8 } = decode(buf, file, fileIssues);
    const old = previous.get(file);
    const grown = old && utf8 ? scanAppended(store, file, text, buf, hash, old) : null;
    if (grown) {
      // The file only grew at its end (`spec add`): its old rows stand, the new end is parsed.
      appended.push(grown);
      for (const i of grown.issues) issues.push(i);
      if (wanted(file)) {
        const fileEntries = entriesOfItems(file, JSON.parse(grown.data) as StoredItem[], text);
        for (const e of fileEntries) entries.push(e);
        if (keep) specs.push(loadedSpecFile(file, () => text, fileEntries, utf8));
      }
      continue;
    }
    const scanned = scanSpecCached(text, file, old ? reuseOf(file) : noBlocks);
    for (const i of scanned.issues) fileIssues.push(i);
    for (const i of fileIssues) issues.push(i);
    for (const e of scanned.entries) entries.push(e);
    toSave.push({
      path: file,
      sha256: hash,
      size: buf.length,
      utf8,
      issues: fileIssues,
      entries: scanned.entries,
      items: scanned.items,
      ends: scanned.ends,
      defaultCategory: scanned.defaultCategory,
      text: utf8 ? text : null,
      parseIssues: fileIssues.length - (scanned.issues.length - scanned.parseIssues),
    });
    if (keep) specs.push(loadedSpecFile(file, () => text, scanned.entries, utf8));
  }
  for (const i of knowhowList) issues.push(i);
  for (const name of knowhowNames) {
    const file = `knowhow/${name}`;
    if (!wanted(file) && unchanged(file)) continue;
    const abs = join(layout.knowhow, name);
    files.push(fileInfo(abs, file));
    const hit = rowsOf(file);
    if (hit) {
      for (const i of JSON.parse(hit.row.issues) as Issue[]) issues.push(i);
      const entry = entriesOfItems(file, hit.items, '')[0];
      entries.push(entry);
      if (keep) knowhow.push(loadedKnowhowFile(file, lazyText(abs, file, hit.row.sha256), entry, hit.row.utf8 === 1));
      continue;
    }
    const { buf, hash } = bytesOf(file, abs);
    releaseBytes(states, file);
    const fileIssues: Issue[] = [];
    const { text, utf8 } = decode(buf, file, fileIssues);
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const issue of parsed.issues) fileIssues.push(issue);
    const entry = knowhowEntry(parsed.value, file, fileIssues);
    for (const i of fileIssues) issues.push(i);
    entries.push(entry);
    toSave.push({
      path: file,
      sha256: hash,
      size: buf.length,
      utf8,
      issues: fileIssues,
      entries: [entry],
      items: [[entry.id, null, 0, null, entry]],
      ends: [null],
      defaultCategory: null,
      text: null,
      parseIssues: 0,
    });
    if (keep) knowhow.push({ file, text, model: parsed.value, entry, utf8 });
  }
  const gone = view.gone;
  let saved = true;
  if (toSave.length > 0 || gone.length > 0 || appended.length > 0) {
    saved = tryWrite(store, () => {
      saveParsedFiles(store, toSave, gone);
      for (const a of appended) saveAppended(store, a);
    });
  }
  if (saved) {
    // The view now matches the store: a lookup can go on without reading it all again.
    for (const f of toSave) {
      stored.set(
        f.path,
        storedOf(f.sha256, f.size, f.utf8, f.items.length, f.defaultCategory, f.issues, f.parseIssues),
      );
    }
    for (const a of appended) {
      stored.set(a.path, storedOf(a.sha256, a.size, true, a.entries, a.defaultCategory, a.issues, a.parseIssues));
    }
    for (const path of gone) stored.delete(path);
    view.stale = 0;
    view.gone = [];
    previous.clear();
  }
  if (only !== null) {
    // Files changed but not asked for were parsed only to bring their rows up to date.
    const keepFile = (f: { file: string }) => only.has(f.file);
    const out = finish(
      entries.filter((e) => only.has(e.file)),
      [],
      files.filter((f) => only.has(f.path)),
      specs.filter(keepFile),
      knowhow.filter(keepFile),
    );
    return { loaded: out, saved };
  }
  shrink(store);
  return { loaded: finish(entries, issues, files, specs, knowhow), saved };
}

/** The bytes `fileStates` read are used once; holding them for the whole load would double the peak. */
function releaseBytes(states: CorpusStoreView['states'], file: string): void {
  const state = states.get(file);
  if (state) state.bytes = null;
}

/** Gives back the page cache a whole-corpus read filled (the rows are not read again by this command). */
function shrink(store: DerivedStore): void {
  try {
    store.db.pragma('shrink_memory');
  } catch {
    // best effort
  }
}

/** A file's bytes (those `fileStates` already read, or read now) and its stat, recorded in `files`. */
function readCorpusBytes(abs: string, rel: string, files: CorpusFileInfo[], bytes: Buffer | null): { buf: Buffer } {
  if (bytes) {
    files.push(fileInfo(abs, rel));
    return { buf: bytes };
  }
  let buf: Buffer;
  let st: ReturnType<typeof fstatSync>;
  try {
    const fd = openSync(abs, 'r');
    try {
      buf = readFileSync(fd);
      st = fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw readFailed(abs, err);
  }
  files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
  return { buf };
}

function fileInfo(abs: string, rel: string): CorpusFileInfo {
  try {
    const st = statSync(abs);
    return { path: rel, size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    throw readFailed(abs, err);
  }
}

/**
 * A file's text read when first needed, checked against the hash its stored entries belong to: a
 * file changed since the load is refused rather than edited from a view that no longer matches.
 */
function lazyText(abs: string, file: string, hash: string): () => string {
  return () => {
    let buf: Buffer;
    try {
      buf = readFileSync(abs);
    } catch (err) {
      throw readFailed(abs, err);
    }
    if (sha256(buf) !== hash) {
      throw environmentError('CORPUS_CHANGED', `.workflow/${file} changed while maestro was reading the corpus`, {
        hint: 'rerun the command (another program wrote the file meanwhile)',
      });
    }
    return buf.toString('utf8');
  };
}

/**
 * maestro-flow writes knowhow links by file stem (`supersededBy: AST-20260717-x`); the id of that
 * document is `knowhow-ast-20260717-x`. A knowhow link that names no id but does name a document's
 * stem or file name reads as that document's id (the file is not changed), so the chain is whole.
 */
function resolveKnowhowLinks(entries: readonly KnowledgeEntry[], byId: ReadonlyMap<string, KnowledgeEntry>): void {
  const resolve = (v: string) => {
    if (byId.has(v)) return v;
    const id = knowhowIdFor(v.trim());
    return byId.get(id)?.store === 'knowhow' ? id : v;
  };
  for (const e of entries) {
    if (e.store !== 'knowhow') continue;
    if (e.supersededBy) e.supersededBy = resolve(e.supersededBy);
    if (e.supersedes.length) e.supersedes = e.supersedes.map(resolve);
  }
}

/**
 * Exactly `parseSpecFile` + `specFileEntries` (same entries, same issues in the same order: parse
 * problems, then entry warnings) without keeping the file model: each entry's nodes become garbage
 * as soon as its view is built, which keeps them out of the old generation.
 */
function streamSpecEntries(text: string, file: string, issues: Issue[], entries: KnowledgeEntry[]): void {
  const issueFile = `.workflow/${file}`;
  const viewIssues: Issue[] = [];
  const scanned = scanSpecFile(text, issueFile, (fm) => specEntrySink(file, issueFile, fm, viewIssues, entries));
  for (const issue of scanned.issues) issues.push(issue);
  for (const issue of viewIssues) issues.push(issue);
}

/**
 * A loaded spec file whose model is parsed on first access and then kept (parsing is pure, so it
 * is the model an eager parse would have built; `entries` pair with its segments by position).
 * Loading a large corpus to edit one file no longer holds every file's model in memory.
 */
function loadedSpecFile(
  file: string,
  readText: () => string,
  entries: KnowledgeEntry[],
  utf8: boolean,
): LoadedSpecFile {
  let model: SpecFileModel | null = null;
  let text: string | null = null;
  return {
    file,
    get text(): string {
      if (text === null) text = readText();
      return text;
    },
    get model(): SpecFileModel {
      if (model === null) model = parseSpecFile(this.text, `.workflow/${file}`).value;
      return model;
    },
    set model(value: SpecFileModel) {
      model = value;
    },
    entries,
    utf8,
  };
}

/** A stored knowhow document whose text and file model are read and parsed on first use. */
function loadedKnowhowFile(
  file: string,
  readText: () => string,
  entry: KnowledgeEntry,
  utf8: boolean,
): LoadedKnowhowFile {
  let model: KnowhowFileModel | null = null;
  let text: string | null = null;
  return {
    file,
    get text(): string {
      if (text === null) text = readText();
      return text;
    },
    get model(): KnowhowFileModel {
      if (model === null) model = parseKnowhowFile(this.text, `.workflow/${file}`).value;
      return model;
    },
    set model(value: KnowhowFileModel) {
      model = value;
    },
    entry,
    utf8,
  };
}

/**
 * Builds `byId`. A sid written twice keeps its id on the first entry (files in name order, then
 * file order); later copies become `<sid>~2`, `<sid>~3`, ... and are reported as errors.
 */
function indexById(entries: KnowledgeEntry[], issues: Issue[]): Map<string, KnowledgeEntry> {
  const byId = new Map<string, KnowledgeEntry>();
  for (const e of entries) {
    const first = byId.get(e.id);
    if (first === undefined) {
      byId.set(e.id, e);
      continue;
    }
    let n = 2;
    while (byId.has(`${e.id}~${n}`)) n++;
    issues.push({
      severity: 'error',
      code: 'DUPLICATE_ID',
      message: `id ${e.id} is also used at .workflow/${first.file}:${first.line ?? 1}; this copy is listed as ${e.id}~${n}`,
      hint: 'remove the sid attribute of one copy and run `maestro spec backfill-sid`',
      file: `.workflow/${e.file}`,
      line: e.line ?? undefined,
    });
    e.id = `${e.id}~${n}`;
    byId.set(e.id, e);
  }
  return byId;
}

/**
 * Finds an entry by its id, or by any alias maestro-flow's tools use (`resolveEntryRef`): a knowhow
 * file stem / file name / explicit id (`TIP-20260427-x`, `TIP-20260427-x.md`, `tip-20260427-x` all
 * resolve to `knowhow-tip-20260427-x`), `knowhow:{slug}`, `spec:{sid}`, `legacy:{file}:{line}` and
 * the positional `spec:project:{stem}-{NNN}`. Null when unknown; an ambiguous or drifted positional
 * id is refused (exit 2) with its candidates. An alias used is pushed to `notes` when given.
 */
export function findEntry(corpus: Corpus, ref: string, notes?: string[]): KnowledgeEntry | null {
  return requireResolvedRef(corpus, ref, notes);
}

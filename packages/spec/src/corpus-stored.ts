import type { Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type Issue, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DerivedStore, type FileState, fileStates, openStore, RACY_WINDOW_MS, tryWrite } from '@maestro/store';
import {
  decode,
  fileInfo,
  finish,
  type LoadedCorpus,
  type LoadedKnowhowFile,
  type LoadedSpecFile,
  loadedSpecFile,
  markdownFiles,
  readCorpusBytes,
  readFailed,
  streamSpecEntries,
} from './corpus-files.js';
import {
  type Appended,
  type EncodedSpecRow,
  encodeSpecRow,
  keysOf,
  type ParsedFileRows,
  type PreviousFile,
  saveAppended,
  saveEncodedRows,
  saveParsedFiles,
  scanAppended,
  scanSpecRows,
  specSection,
} from './corpus-store.js';
import { knowhowEntry, parseKnowhowFile } from './knowhow-file.js';
import type { CorpusFileInfo, KnowledgeEntry } from './model.js';

/** A file's stored row (its spots are read only when needed). */
export type StoredFile = PreviousFile;

/** The store's view of the corpus before anything is parsed: listing, file hashes, stored rows. */
export interface CorpusStoreView {
  store: DerivedStore;
  specNames: string[];
  knowhowNames: string[];
  specList: Issue[];
  knowhowList: Issue[];
  states: Map<string, Omit<FileState, 'path'>>;
  /** Stored rows by path; a row whose hash does not match its file has `sha256: ''`. */
  stored: Map<string, StoredFile>;
  /** Path of each stored file number. */
  paths: Map<number, string>;
  /** The stored rows of changed spec files, as they were. */
  previous: Map<string, StoredFile>;
  /** Files whose stored rows do not match their current hash (or that have none). */
  stale: number;
  /** Stored files that are no longer in the corpus. */
  gone: string[];
  /**
   * `all`: every file was hashed. `specs`: only spec files were (knowhow documents are listed by
   * name only: their ids come from their names, so a lookup that reads no knowhow content can do
   * without their hashes); knowhow rows are then neither trusted nor brought up to date.
   */
  scope: 'all' | 'specs';
  /** Each spec file's stat (size, times, inode) taken just before it was hashed. */
  statsBefore: Map<string, string>;
}

type BigStats = { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint };

function statKey(st: BigStats): string {
  return `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
}

/**
 * The bytes of a spec file whose hash `view` holds, without hashing them again when that can be
 * vouched for: read through one descriptor whose stat is the one taken just before the file was
 * hashed (and old enough that a same-size write within one timestamp tick would have shown), so no
 * write came between. Otherwise they are hashed and compared; null when they differ.
 */
export function readVouched(view: CorpusStoreView, abs: string, file: string, hash: string): Buffer | null {
  const fd = openSync(abs, 'r');
  let buf: Buffer;
  let st: BigStats;
  try {
    buf = readFileSync(fd);
    st = fstatSync(fd, { bigint: true });
  } finally {
    closeSync(fd);
  }
  const settled = Date.now() - Number(st.mtimeNs / 1_000_000n) > RACY_WINDOW_MS;
  if (settled && view.statsBefore.get(file) === statKey(st) && view.states.get(file)?.sha256 === hash) return buf;
  return sha256(buf) === hash ? buf : null;
}

/**
 * Lists the corpus, hashes every file (`fileStates`: by stat where it can be trusted) and reads
 * the stored rows. Null when the store cannot be used or a file cannot be read (the plain load
 * then says what is wrong, as it did before the store).
 */
export function openCorpusStore(layout: WorkflowLayout, scope: 'all' | 'specs' = 'all'): CorpusStoreView | null {
  let store: DerivedStore;
  const specList: Issue[] = [];
  const knowhowList: Issue[] = [];
  let specNames: string[];
  let knowhowNames: string[];
  let states: CorpusStoreView['states'];
  const statsBefore = new Map<string, string>();
  try {
    store = openStore(layout);
    store.section(specSection());
    specNames = markdownFiles(layout.specs, 'specs', specList);
    knowhowNames = markdownFiles(layout.knowhow, 'knowhow', knowhowList);
    const rels = specNames.map((n) => `specs/${n}`);
    if (scope === 'all') for (const n of knowhowNames) rels.push(`knowhow/${n}`);
    // Spec files' stats taken before they are hashed: a later read whose stat is the same reads
    // the bytes that hash belongs to (`readVouched`).
    for (const n of specNames) {
      const st = statSync(join(layout.specs, n), { bigint: true, throwIfNoEntry: false });
      if (st) statsBefore.set(`specs/${n}`, statKey(st));
    }
    states = new Map(fileStates(store, layout.workflow, rels).map((s) => [s.path, s]));
  } catch {
    return null;
  }
  const stored = new Map<string, StoredFile>();
  const previous = new Map<string, StoredFile>();
  const paths = new Map<number, string>();
  for (const r of store.prepare(rowsQuery(scope)).iterate()) {
    const { path, ...row } = r as StoredFile & { path: string };
    paths.set(row.num, path);
    const state = states.get(path);
    if (state?.sha256 === row.sha256) stored.set(path, row);
    else {
      if (state !== undefined && path.startsWith('specs/')) previous.set(path, row);
      stored.set(path, { ...row, sha256: '' });
    }
  }
  const view: CorpusStoreView = {
    store,
    specNames,
    knowhowNames,
    specList,
    knowhowList,
    states,
    stored,
    paths,
    previous,
    stale: 0,
    gone: [],
    scope,
    statsBefore,
  };
  countStale(view);
  return view;
}

/**
 * The corpus from a store view: every file asked for is parsed from its text (the store holds no
 * copy of what entries say), and the rows of files that changed since they were stored are saved
 * (best effort; `saved` says whether the store now matches every file). With `only`, just those
 * files are in the result; the other files are neither read nor decoded unless they changed (then
 * they are parsed, a spec file that only grew from its end, so their rows are current).
 */
export function materialize(
  layout: WorkflowLayout,
  view: CorpusStoreView,
  keep: boolean,
  only: ReadonlySet<string> | null,
): { loaded: LoadedCorpus; saved: boolean } {
  const { store, specNames, knowhowNames, specList, knowhowList, states, stored, previous } = view;
  const appended: Appended[] = [];
  const issues: Issue[] = [];
  const files: CorpusFileInfo[] = [];
  const specs: LoadedSpecFile[] = [];
  const knowhow: LoadedKnowhowFile[] = [];
  const entries: KnowledgeEntry[] = [];
  const toSave: ParsedFileRows[] = [];
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
    const current = unchanged(file);
    if (!wanted(file) && current) continue;
    const abs = join(layout.specs, name);
    const read = readCorpusBytes(abs, file, files, states.get(file)?.bytes ?? null);
    const hashed = states.get(file)?.bytes ? (states.get(file)?.sha256 ?? null) : null;
    releaseBytes(states, file);
    const buf = read.buf;
    const fileIssues: Issue[] = [];
    const { text, utf8 } = decode(buf, file, fileIssues);
    // A row is current only for the bytes its hash was taken from: a file read at another size changed meanwhile.
    const fresh = current && buf.length === stored.get(file)?.size;
    const hash = fresh ? (stored.get(file) as StoredFile).sha256 : (hashed ?? sha256(buf));
    const old = previous.get(file);
    if (!fresh && !wanted(file) && old && utf8) {
      const grown = scanAppended(store, file, text, buf, hash, old);
      if (grown) {
        // The file only grew at its end (`spec add`): its old rows stand, the new end is parsed.
        appended.push(grown);
        continue;
      }
    }
    if (fresh) {
      // Its rows stand: the plain parse, with nothing to record.
      const fileEntries: KnowledgeEntry[] = [];
      streamSpecEntries(text, file, fileIssues, fileEntries);
      for (const i of fileIssues) issues.push(i);
      for (const e of fileEntries) entries.push(e);
      if (keep) specs.push(loadedSpecFile(file, () => text, fileEntries, utf8));
      continue;
    }
    const scanned = scanSpecRows(text, file);
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
      spots: scanned.spots,
      defaultCategory: scanned.defaultCategory,
      text: utf8 ? text : null,
      parseIssues: fileIssues.length - (scanned.issues.length - scanned.parseIssues),
    });
    if (keep) specs.push(loadedSpecFile(file, () => text, scanned.entries, utf8));
  }
  for (const i of knowhowList) issues.push(i);
  for (const name of knowhowNames) {
    const file = `knowhow/${name}`;
    const current = unchanged(file);
    if (!wanted(file) && (current || view.scope === 'specs')) continue;
    const abs = join(layout.knowhow, name);
    files.push(fileInfo(abs, file));
    const { buf, hash } = bytesOf(file, abs);
    releaseBytes(states, file);
    const fileIssues: Issue[] = [];
    const { text, utf8 } = decode(buf, file, fileIssues);
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const issue of parsed.issues) fileIssues.push(issue);
    const entry = knowhowEntry(parsed.value, file, fileIssues);
    for (const i of fileIssues) issues.push(i);
    entries.push(entry);
    if (!current || hash !== stored.get(file)?.sha256) {
      toSave.push({
        path: file,
        sha256: hash,
        size: buf.length,
        utf8,
        issues: fileIssues,
        entries: [entry],
        spots: [{ offset: 0, line: null, end: null }],
        defaultCategory: null,
        text: null,
        parseIssues: 0,
      });
    }
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
  if (saved && (toSave.length > 0 || gone.length > 0 || appended.length > 0)) refreshView(view);
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
  return { loaded: finish(entries, issues, files, specs, knowhow), saved };
}

/** The view now matches the store: a lookup goes on with the rows just written. */
function refreshView(view: CorpusStoreView): void {
  view.stored.clear();
  view.paths.clear();
  for (const r of view.store.prepare(rowsQuery(view.scope)).iterate()) {
    const { path, ...row } = r as StoredFile & { path: string };
    view.paths.set(row.num, path);
    const state = view.states.get(path);
    view.stored.set(path, state?.sha256 === row.sha256 ? row : { ...row, sha256: '' });
  }
  countStale(view);
  view.previous.clear();
}

/** Files whose rows do not match, and stored files no longer in the corpus (of the files in scope). */
function countStale(view: CorpusStoreView): void {
  let stale = 0;
  for (const [path, state] of view.states) if (view.stored.get(path)?.sha256 !== state.sha256) stale++;
  view.stale = stale;
  const inScope = (p: string) => view.scope === 'all' || p.startsWith('specs/');
  view.gone = [...view.stored.keys()].filter((p) => inScope(p) && !view.states.has(p));
}

/** The stored rows in scope (knowhow rows are not read when only spec files were hashed). */
function rowsQuery(scope: CorpusStoreView['scope']): string {
  const columns = 'num, path, sha256, size, utf8, entries, default_category, issues, parse_issues';
  return `SELECT ${columns} FROM spec_files${scope === 'specs' ? " WHERE path >= 'specs/' AND path < 'specs0'" : ''}`;
}

/** The bytes `fileStates` read are used once; holding them for the whole load would double the peak. */
function releaseBytes(states: CorpusStoreView['states'], file: string): void {
  const state = states.get(file);
  if (state) {
    state.bytes = null;
    state.resume = null;
  }
}

/**
 * Texts this process read and checked against a stored hash, by absolute path: the base of an
 * append. With `bytes` (the very bytes hashed) and `resume` (a sha256 state over them), the new
 * file's hash is taken over the appended bytes only.
 */
const verified = new Map<string, VerifiedText>();

interface VerifiedText {
  text: string;
  sha256: string;
  bytes?: Buffer;
  resume?: Hash;
}

/** Notes that `text` is the content of `file` whose sha256 is `hash` (checked by the caller). */
export function noteVerifiedText(
  layout: WorkflowLayout,
  file: string,
  text: string,
  hash: string,
  hashed?: { bytes: Buffer; resume: Hash },
): void {
  verified.set(join(layout.workflow, file), { text, sha256: hash, ...hashed });
}

/** sha256 of `bytes`, resumed from the base's hash state when `bytes` start with the base's very bytes. */
function hashOfGrown(base: VerifiedText, bytes: Buffer): string {
  const old = base.bytes;
  if (base.resume && old && bytes.length >= old.length && bytes.compare(old, 0, old.length, 0, old.length) === 0) {
    return base.resume.copy().update(bytes.subarray(old.length)).digest('hex');
  }
  return sha256(bytes);
}

/**
 * After a writer replaced corpus files with text it holds (`spec add` and promotion append
 * entries), brings the rows of each spec file that only grew at its end from the text it read
 * (through the store, `noteVerifiedText`) up to date, so the next command need not parse it again.
 * Best effort: any other change is left to the next load, which finds the file's hash moved. The
 * rows are keyed by the hash of the bytes written (`bytes`, when the writer encoded the text
 * already), so a later write by anyone else is seen as usual.
 */
export function recordAppends(
  layout: WorkflowLayout,
  writes: readonly { file: string; text: string; bytes?: Buffer }[],
): void {
  const specs = writes.filter((w) => w.file.startsWith('specs/'));
  if (specs.length === 0) return;
  try {
    const store = openStore(layout);
    if (!store.persistent) return;
    store.section(specSection());
    const columns = 'num, sha256, size, utf8, entries, default_category, issues, parse_issues';
    const rowOf = store.prepare(`SELECT ${columns} FROM spec_files WHERE path = ?`);
    const grown: Appended[] = [];
    for (const w of specs) {
      const row = rowOf.get(w.file) as PreviousFile | undefined;
      if (!row) continue;
      // Only a text this process read as that row's bytes and then only appended to: its old
      // bytes need no second hash. Any other edit is left to the next load.
      const base = verified.get(join(layout.workflow, w.file));
      const known = base?.sha256 === row.sha256 && w.text.length > base.text.length && w.text.startsWith(base.text);
      if (!known) continue;
      const bytes = w.bytes ?? Buffer.from(w.text, 'utf8');
      const a = scanAppended(store, w.file, w.text, bytes.length, hashOfGrown(base, bytes), row, true);
      if (a) grown.push(a);
    }
    if (grown.length) {
      tryWrite(store, () => {
        for (const a of grown) saveAppended(store, a);
      });
    }
  } catch {
    // derived state only: the next load brings the rows up to date
  }
}

/** One corpus file parsed the way `loadCorpus` parses it, with the `spec` rows that parse gives. */
export interface ParsedCorpusFile {
  /** The file's entries before the corpus-wide passes (duplicate sids, knowhow link resolution). */
  entries: KnowledgeEntry[];
  issues: Issue[];
  rows: ParsedFileRows;
}

/**
 * Parses one corpus file (`file` relative to `.workflow/`, e.g. `specs/x.md`) from its bytes and
 * their sha256, exactly as `loadCorpus` does, keeping its `spec` rows: a command that parses corpus
 * files for its own derived state (and has their hashes from `fileStates`) passes the rows to
 * `saveSpecRows`, so the next single-entry command finds them current.
 */
export function parseCorpusFileRows(file: string, buf: Buffer, hash: string): ParsedCorpusFile {
  const issues: Issue[] = [];
  const { text, utf8 } = decode(buf, file, issues);
  if (file.startsWith('knowhow/')) {
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const i of parsed.issues) issues.push(i);
    const entry = knowhowEntry(parsed.value, file, issues);
    const rows: ParsedFileRows = {
      path: file,
      sha256: hash,
      size: buf.length,
      utf8,
      issues,
      entries: [entry],
      spots: [{ offset: 0, line: null, end: null }],
      defaultCategory: null,
      text: null,
      parseIssues: 0,
      keys: keysOf([entry]),
    };
    return { entries: [entry], issues, rows };
  }
  const scanned = scanSpecRows(text, file);
  for (const i of scanned.issues) issues.push(i);
  const rows: ParsedFileRows = {
    path: file,
    sha256: hash,
    size: buf.length,
    utf8,
    issues,
    entries: scanned.entries,
    spots: scanned.spots,
    defaultCategory: scanned.defaultCategory,
    text: utf8 ? text : null,
    parseIssues: issues.length - (scanned.issues.length - scanned.parseIssues),
    keys: keysOf(scanned.entries),
  };
  return { entries: scanned.entries, issues, rows };
}

/**
 * Saves rows from `parseCorpusFileRows` (replacing the files' old rows; `gone`: stored files no
 * longer in the corpus), as parsed or as `encodeSpecRow` made them (e.g. on a worker thread). Call
 * inside the caller's `store.write` or through `tryWrite`. The ids saved are those the parse gave
 * (taken then: `loadCorpus`'s corpus-wide passes rename entries in place).
 */
export function saveSpecRows(
  store: DerivedStore,
  rows: readonly (ParsedFileRows | EncodedSpecRow)[],
  gone: readonly string[] = [],
): void {
  store.section(specSection());
  saveEncodedRows(
    store,
    rows.map((r) => (r.spots instanceof Uint8Array ? (r as EncodedSpecRow) : encodeSpecRow(r as ParsedFileRows))),
    gone,
  );
}

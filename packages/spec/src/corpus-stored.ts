import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Issue, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DerivedStore, fileStates, openStore, tryWrite } from '@maestro/store';
import {
  decode,
  fileInfo,
  finish,
  type LoadedCorpus,
  type LoadedKnowhowFile,
  type LoadedSpecFile,
  lazyText,
  loadedKnowhowFile,
  loadedSpecFile,
  markdownFiles,
  readCorpusBytes,
  readFailed,
} from './corpus-files.js';
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
import { knowhowEntry, parseKnowhowFile } from './knowhow-file.js';
import type { CorpusFileInfo, KnowledgeEntry } from './model.js';
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

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sha256 } from '@maestro/core';
import { crashPoint, type WorkflowLayout } from '@maestro/fs';
import { saveSpecRows } from '@maestro/spec';
import { type DerivedStore, type Statement, tryWrite } from '@maestro/store';
import type { CorpusState } from '../receipt/fingerprint.js';
import { type DerivedFile, deriveFile } from './match-derive.js';
import { PostingsDelta, Terms } from './match-postings.js';
import {
  ACTIVE,
  type DirColumns,
  decodeTerms,
  type FileRow,
  H_ENTRY,
  H_EXACT,
  H_TEXT,
  HASH_BYTES,
  MATCH_SECTION,
  SLOT,
  TermsBlob,
  TermsWriter,
} from './match-rows.js';
import { applySplice, planSplice, type Splice, type SpliceSink } from './match-splice.js';
import { ranks, StoreIndex } from './store-index.js';

/** One file to derive: its bytes (null: read them) and the texts its stored row already has. */
export interface DeriveJob {
  path: string;
  sha256: string;
  bytes: Uint8Array | null;
  known: [string, string][];
}

/** The stored row of a file being re-derived: what its entries with a known text reuse. */
interface OldFile {
  fid: number;
  sha256: string;
  entries: number;
  flags: number[];
  hashes: Buffer;
  terms: TermsBlob;
  /** Text key → position of the first entry with it. */
  byText: Map<string, number>;
}

/**
 * Below this many bytes of changed files everything is derived on this thread: a worker costs
 * tens of milliseconds to start and has its own lexicon to load.
 */
export const WORKER_MIN_BYTES = 4_000_000;

function workerScript(): string | null {
  // Present in the built package; absent when running from TypeScript sources (tests).
  const path = fileURLToPath(new URL('./match-worker.js', import.meta.url));
  return existsSync(path) ? path : null;
}

/** One message of the worker: rows of some of its files, in the order it was given them. */
export interface WorkerReply {
  files: DerivedFile[];
  /** True on the last message. */
  done: boolean;
}

/** A listener that keeps nothing alive (one made inside `runWorker` would keep its scope). */
const ignore = () => {};

function runWorker(script: string, jobs: DeriveJob[]): Promise<DerivedFile[] | null> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(script);
    } catch {
      resolve(null);
      return;
    }
    let done = false;
    const finish = (v: DerivedFile[] | null) => {
      if (done) return;
      done = true;
      // The worker object outlives this call (the process keeps it until it exits): its listeners
      // must not keep the rows, through this promise, once they are written.
      worker.removeAllListeners();
      worker.on('error', ignore);
      resolve(v);
      void worker.terminate();
    };
    const got: DerivedFile[] = [];
    worker.on('message', (m: WorkerReply) => {
      for (const d of m.files) got.push(d);
      if (m.done) finish(got);
    });
    // A worker that cannot run (no threads, out of memory) is no reason to fail: this thread derives.
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
    // A file's bytes that fill their own buffer are moved, not copied: this thread lets them go
    // anyway, and a copy would hold the worker's half of the corpus twice until the next collection.
    const moved = new Set<ArrayBuffer>();
    for (const j of jobs) {
      const b = j.bytes;
      if (b && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer) {
        moved.add(b.buffer);
      }
    }
    worker.postMessage(jobs, Array.from(moved));
  });
}

function bytesOf(layout: WorkflowLayout, job: DeriveJob): Uint8Array | null {
  if (job.bytes) return job.bytes;
  const buf = readFileSync(join(layout.workflow, job.path));
  return sha256(buf) === job.sha256 ? buf : null; // null: changed since it was fingerprinted
}

/**
 * Derives the changed files, on two threads when there is much to do (the largest files to a
 * worker, by size, until it holds a little over half the bytes). Null when a file changed since it was
 * fingerprinted.
 */
async function deriveAll(layout: WorkflowLayout, jobs: DeriveJob[]): Promise<DerivedFile[] | null> {
  for (const j of jobs) {
    j.bytes = bytesOf(layout, j);
    if (!j.bytes) return null;
  }
  const total = jobs.reduce((n, j) => n + (j.bytes as Uint8Array).length, 0);
  const setting = process.env.MAESTRO_MATCH_WORKER;
  const script = setting === '0' ? null : workerScript();
  const wanted = setting === '1' || total >= WORKER_MIN_BYTES;
  // Each file's bytes are let go once derived (or handed to the worker): they are the corpus whole.
  const here = (list: DeriveJob[]) =>
    list.map((j) => {
      const d = deriveFile(j.path, j.bytes as Uint8Array, j.sha256, new Map(j.known));
      j.bytes = null;
      return d;
    });
  if (!script || !wanted || jobs.length < 2) return here(jobs);
  const bySize = [...jobs].sort((a, b) => (b.bytes as Uint8Array).length - (a.bytes as Uint8Array).length);
  const away: DeriveJob[] = [];
  const mine: DeriveJob[] = [];
  let awayBytes = 0;
  let mineBytes = 0;
  for (const j of bySize) {
    const n = (j.bytes as Uint8Array).length;
    // The worker takes a little more: this thread also writes the rows once both are done.
    if (awayBytes <= mineBytes * 1.25) {
      away.push(j);
      awayBytes += n;
    } else {
      mine.push(j);
      mineBytes += n;
    }
  }
  const pending = runWorker(script, away);
  for (const j of away) j.bytes = null; // moved or copied to the worker
  const local = here(mine);
  let remote = await pending;
  if (!remote) {
    // The worker could not run: this thread derives its files, read again.
    for (const j of away) {
      j.bytes = bytesOf(layout, j);
      if (!j.bytes) return null;
    }
    remote = here(away);
  }
  const byPath = new Map([...local, ...remote].map((d) => [d.path, d]));
  return jobs.map((j) => byPath.get(j.path) as DerivedFile);
}

// --- writing ---

interface Stmts {
  fileByPath: Statement;
  oldRow: Statement;
  putFile: Statement;
  deleteFile: Statement;
  termByName: Statement;
  maxTerm: Statement;
  insertTerm: Statement;
  termPostings: Statement;
  setTermPostings: Statement;
}

function statements(store: DerivedStore): Stmts {
  const p = (sql: string) => store.prepare(sql);
  return {
    fileByPath: p('SELECT file_id, sha256 FROM match_files WHERE path = ?'),
    oldRow: p('SELECT entries, dir, hashes, terms FROM match_files WHERE file_id = ?'),
    putFile: p(
      `INSERT OR REPLACE INTO match_files (file_id, path, sha256, entries, dir, body, hashes, terms, resume)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteFile: p('DELETE FROM match_files WHERE file_id = ?'),
    termByName: p('SELECT term_id FROM match_terms WHERE term = ?'),
    maxTerm: p('SELECT coalesce(max(term_id), 0) AS n FROM match_terms'),
    insertTerm: p('INSERT INTO match_terms (term_id, term, df, docs) VALUES (?, ?, ?, ?)'),
    termPostings: p('SELECT df, docs FROM match_terms WHERE term_id = ?'),
    setTermPostings: p('UPDATE match_terms SET df = ?, docs = ? WHERE term_id = ?'),
  };
}

/** Applies one derived file inside the write transaction; false when another process already did. */
function applyFile(s: Stmts, d: DerivedFile, old: OldFile | null, delta: PostingsDelta, terms: Terms): boolean {
  const file = s.fileByPath.get(d.path) as { file_id: number; sha256: string } | undefined;
  if (file?.sha256 === d.sha256) return false;
  if (d.entries >= SLOT) throw new Error(`${d.path} has more than ${SLOT} entries`);
  let fid: number;
  let stored: { entries: number; flags: number[]; terms: TermsBlob } | null = null;
  if (file) {
    fid = file.file_id;
    if (old && old.fid === fid && old.sha256 === file.sha256) stored = old;
    else {
      // Another process rewrote the row since it was read: its postings are those of this row.
      const r = s.oldRow.get(fid) as { entries: number; dir: string; terms: Buffer };
      stored = {
        entries: r.entries,
        flags: (JSON.parse(r.dir) as DirColumns).flags,
        terms: new TermsBlob(r.terms, r.entries),
      };
    }
  } else {
    fid = Number(
      s.putFile.run(null, d.path, '', 0, '{}', '{}', Buffer.alloc(0), Buffer.alloc(0), null).lastInsertRowid,
    );
  }
  const hashes = Buffer.from(d.hashes.buffer, d.hashes.byteOffset, d.hashes.byteLength);
  const global = d.vocab.map((t) => terms.idOf(t));
  const out = new TermsWriter(d.entries);
  const flags = d.flags;
  for (let p = 0; p < d.entries; p++) {
    const active = flags[p] === ACTIVE;
    const how = d.reuse[p];
    const o = p * HASH_BYTES;
    let ids: number[] = [];
    if (how) {
      if (old === null) throw new Error(`no stored entry has the text of ${d.path}#${p}`);
      // Most entries of a changed file are where they were, with the same text.
      const here =
        p < old.entries && hashes.compare(old.hashes, o + H_TEXT, o + H_TEXT + 8, o + H_TEXT, o + H_TEXT + 8) === 0;
      const at = here ? p : old.byText.get(hashes.toString('hex', o + H_TEXT, o + H_TEXT + 8));
      if (at === undefined) throw new Error(`no stored entry has the text of ${d.path}#${p}`);
      const from = at * HASH_BYTES;
      // Exact and title hashes (12 bytes), and the entry hash when its inputs are the same.
      old.hashes.copy(hashes, o + H_EXACT, from + H_EXACT, from + H_EXACT + 12);
      if (how === 2) old.hashes.copy(hashes, o + H_ENTRY, from + H_ENTRY, from + H_ENTRY + 8);
      if (here && stored === old && old.flags[p] === flags[p]) {
        // The same entry at the same key: its postings stay as they are.
        if (active) out.raw(old.terms.raw(p));
        else out.ids([]);
        continue;
      }
      if (active) ids = old.terms.ids(at);
    } else if (active) {
      // A document's keys are distinct (see `docKeys`).
      const end = d.offsets[p + 1];
      for (let k = d.offsets[p]; k < end; k++) ids.push(global[d.termIdx[k]]);
    }
    out.ids(ids);
    const key = fid * SLOT + p;
    const before = stored && p < stored.entries && stored.flags[p] === ACTIVE ? stored.terms.ids(p) : null;
    delta.active += (active ? 1 : 0) - (before ? 1 : 0);
    if (!before) {
      if (active) for (const id of ids) delta.added(id, key);
      continue;
    }
    if (!active) {
      for (const id of before) delta.removed(id, key);
      continue;
    }
    // The same key before and after: only the difference of the two sets moves.
    before.sort((a, b) => a - b);
    ids = [...ids].sort((a, b) => a - b);
    let i = 0;
    let j = 0;
    while (i < before.length || j < ids.length) {
      if (j >= ids.length || (i < before.length && before[i] < ids[j])) delta.removed(before[i++], key);
      else if (i >= before.length || ids[j] < before[i]) delta.added(ids[j++], key);
      else {
        i++;
        j++;
      }
    }
  }
  if (stored) {
    for (let p = d.entries; p < stored.entries; p++) {
      if (stored.flags[p] !== ACTIVE) continue;
      delta.active -= 1;
      for (const id of stored.terms.ids(p)) delta.removed(id, fid * SLOT + p);
    }
  }
  // Deleted first: a replaced row's pages are freed before the new row's are taken, so the new
  // row reuses them (INSERT OR REPLACE takes the new pages first and leaves the old ones free in
  // the file: a second copy of the largest file's row, kept for good).
  s.deleteFile.run(fid);
  const resume = d.resume ? JSON.stringify(d.resume) : null;
  s.putFile.run(fid, d.path, d.sha256, d.entries, d.dir, d.body, hashes, out.bytes(), resume);
  return true;
}

function dropFile(s: Stmts, fid: number, delta: PostingsDelta) {
  const r = s.oldRow.get(fid) as { entries: number; dir: string; terms: Buffer } | undefined;
  if (r) {
    const flags = (JSON.parse(r.dir) as DirColumns).flags;
    decodeTerms(r.terms, r.entries).forEach((ids, p) => {
      if (flags[p] !== ACTIVE) return;
      delta.active -= 1;
      for (const id of ids) delta.removed(id, fid * SLOT + p);
    });
  }
  s.deleteFile.run(fid);
}

/**
 * Writes derived files (and drops removed ones) in one transaction: file rows, postings patched
 * term by term (new terms inserted whole), the active count and the generation. Each file is
 * re-checked inside the transaction, so a file another process already wrote is skipped; `derived`
 * is emptied as its files are written. False when the store refused.
 */
function applyAll(
  store: DerivedStore,
  derived: (DerivedFile | null)[],
  olds: ReadonlyMap<string, OldFile>,
  gone: readonly FileRow[],
  splices: readonly Splice[],
): boolean {
  const s = statements(store);
  return tryWrite(store, () => {
    const delta = new PostingsDelta();
    const terms = new Terms(s);
    let changed = false;
    // The same parse's spec rows are saved at the end; each file's match rows are let go once
    // written (the derived files of the whole corpus are not all held while postings are gathered).
    const specs = derived.map((d) => (d as DerivedFile).spec);
    derived.forEach((d, i) => {
      const file = d as DerivedFile;
      derived[i] = null;
      changed = applyFile(s, file, olds.get(file.path) ?? null, delta, terms) || changed;
    });
    const sink: SpliceSink = {
      idOf: (t) => terms.idOf(t),
      added: (id, key) => delta.added(id, key),
      removed: (id, key) => delta.removed(id, key),
      active: (n) => {
        delta.active += n;
      },
      put: (...row) => {
        // Deleted first, as in applyFile: the old row's pages are reused, not left free.
        s.deleteFile.run(row[0]);
        s.putFile.run(...row);
      },
    };
    for (const sp of splices) changed = applySplice(store, sp, sink) || changed;
    for (const g of gone) {
      const row = s.fileByPath.get(g.path) as { file_id: number } | undefined;
      if (row) {
        dropFile(s, row.file_id, delta);
        changed = true;
      }
    }
    // The same parse's spec rows, in the same transaction (derived state of another section: the
    // spec section's own checks decide whether it uses them).
    saveSpecRows(
      store,
      specs,
      gone.map((g) => g.path),
    );
    if (!changed) return;
    delta.apply(s, terms);
    store
      .prepare(
        "INSERT INTO match_meta (name, value) VALUES ('active', ?) ON CONFLICT (name) DO UPDATE SET value = value + ?",
      )
      .run(delta.active, delta.active);
    // Any change moves the generation: an index kept by a long-lived process knows it is out of date.
    store
      .prepare(
        "INSERT INTO match_meta (name, value) VALUES ('generation', 1) ON CONFLICT (name) DO UPDATE SET value = value + 1",
      )
      .run();
    crashPoint('reconcile:match:before-commit');
  });
}

/** What the stored row of a file to re-derive lends its entries whose text did not change. */
function oldFile(store: DerivedStore, fid: number): { old: OldFile; known: [string, string][] } | null {
  const r = store.prepare('SELECT sha256, entries, dir, hashes, terms FROM match_files WHERE file_id = ?').get(fid) as
    | { sha256: string; entries: number; dir: string; hashes: Buffer; terms: Buffer }
    | undefined;
  if (!r || r.hashes.length !== r.entries * HASH_BYTES) return null;
  const dir = JSON.parse(r.dir) as DirColumns;
  const byText = new Map<string, number>();
  const known: [string, string][] = [];
  for (let p = 0; p < r.entries; p++) {
    const key = r.hashes.toString('hex', p * HASH_BYTES + H_TEXT, p * HASH_BYTES + H_TEXT + 8);
    if (byText.has(key)) continue;
    byText.set(key, p);
    known.push([key, `${dir.status[p]}\u0000${dir.by[p] || ''}`]);
  }
  const old: OldFile = {
    fid,
    sha256: r.sha256,
    entries: r.entries,
    flags: dir.flags,
    hashes: r.hashes,
    terms: new TermsBlob(r.terms, r.entries),
    byText,
  };
  return { old, known };
}

/** What the last sync in this process did: files derived whole, files re-derived in part. */
export const lastSync = { derived: 0, spliced: 0 };

export interface MatchStoreResult {
  index: StoreIndex;
  /** Files parsed this time (0: every file's rows were current). */
  parsed: number;
}

/**
 * Brings the `match` section up to date with a corpus state and returns the store-backed index:
 * only files whose content hash changed are parsed (from the bytes the fingerprint already read),
 * and only their entries whose text is new are analysed (on two threads when there is much);
 * postings and document frequencies are patched term by term. Deriving happens outside the write
 * transaction; the transaction re-checks each file, so two processes refreshing at once derive
 * and write each file once. Null when the store cannot take the rows (the caller answers from the
 * text files in memory).
 */
export async function syncMatchSection(layout: WorkflowLayout, state: CorpusState): Promise<MatchStoreResult | null> {
  const { store } = state;
  try {
    store.section(MATCH_SECTION);
  } catch {
    return null;
  }
  const stored = new Map(
    (store.prepare('SELECT file_id, path, sha256, entries FROM match_files').all() as FileRow[]).map((r) => [
      r.path,
      r,
    ]),
  );
  const current = new Set(state.states.map((f) => f.path));
  const jobs: DeriveJob[] = [];
  const splices: Splice[] = [];
  const olds = new Map<string, OldFile>();
  for (const f of state.states) {
    const row = stored.get(f.path);
    if (row?.sha256 === f.sha256) continue;
    if (row && f.path.startsWith('specs/') && process.env.MAESTRO_MATCH_SPLICE !== '0') {
      // A spec file changed in part (an entry appended or edited): only the changed entries are derived.
      const bytes = bytesOf(layout, { path: f.path, sha256: f.sha256, bytes: f.bytes, known: [] });
      if (!bytes) return null;
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const sp = planSplice(store, row.file_id, row.sha256, f.path, f.sha256, buf);
      (f as { bytes: Buffer | null }).bytes = sp ? null : buf;
      if (sp) {
        splices.push(sp);
        continue;
      }
    }
    const lent = row ? oldFile(store, row.file_id) : null;
    if (lent) olds.set(f.path, lent.old);
    jobs.push({ path: f.path, sha256: f.sha256, bytes: f.bytes, known: lent?.known ?? [] });
    (f as { bytes: Buffer | null }).bytes = null; // handed over: the state does not keep them
  }
  const gone = [...stored.values()].filter((r) => !current.has(r.path));
  if (jobs.length > 0 || gone.length > 0 || splices.length > 0) {
    const derived: (DerivedFile | null)[] | null = await deriveAll(layout, jobs);
    for (const j of jobs) j.bytes = null;
    if (!derived) return null;
    if (!applyAll(store, derived, olds, gone, splices)) return null;
  }
  lastSync.derived = jobs.length;
  lastSync.spliced = splices.length;
  const { layout: numbering, current: fresh } = ranks(store, state);
  if (!fresh) return null; // another process moved the rows to another corpus state meanwhile
  return { index: new StoreIndex(store, layout, numbering), parsed: jobs.length + splices.length };
}

import { formatIssue, indexedText } from '@maestro/core';
import type { Corpus, KnowledgeEntry } from '@maestro/spec';
import { assembleIndex, docFromEntry, explodeIndex, type ForwardDoc, TermTable } from './build.js';
import { type IndexManifest, isRacy, type ManifestFile } from './manifest.js';
import type { IndexDoc, SearchIndex } from './model.js';
import { docsHash, tokenizeGroups } from './tokenize-pool.js';

export interface PreviousIndex {
  manifest: IndexManifest;
  index: SearchIndex;
}

export interface UpdatedIndex {
  index: SearchIndex;
  files: ManifestFile[];
  issues: string[];
  /** Entries tokenised in this update (0 when every file was reused). */
  reindexed: number;
  /** False when the documents are exactly the previous ones, in the same order (index.bin can stay). */
  changed: boolean;
  /**
   * Files carried over from the previous index: their documents' first position there and here,
   * and whether the file has the size and mtime it was indexed with (so the byte ranges of its
   * bodies still hold; a file reused by the hash of its entries may have moved them).
   */
  reused: { path: string; first: number; oldFirst: number; count: number; sameFile: boolean }[];
}

const MAX_ISSUES = 20;

/** sha256 over everything the index stores for a file's entries, so equal hashes mean equal documents. */
export function entriesHash(entries: readonly KnowledgeEntry[]): string {
  return docsHash(
    entries.map(docFromEntry),
    entries.map((e) => indexedText(e.content)),
  );
}

interface FilePlan {
  path: string;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  entries: KnowledgeEntry[];
  /** How many entries the file has (its `entries` are let go once tokenised). */
  count: number;
  /** Null when the file cannot be reused anyway (new, or its documents moved): hashed while tokenising. */
  hash: string | null;
  /** The previous manifest record when its documents can be reused as they are. */
  reuse: ManifestFile | null;
}

function groupByFile(
  corpus: Corpus,
): { path: string; size: number; mtimeMs: number; ctimeMs: number; entries: KnowledgeEntry[] }[] {
  const groups = new Map<string, KnowledgeEntry[]>();
  for (const f of corpus.files) groups.set(f.path, []);
  for (const e of corpus.entries) {
    let g = groups.get(e.file);
    if (!g) {
      g = [];
      groups.set(e.file, g);
    }
    g.push(e);
  }
  const stat = new Map(corpus.files.map((f) => [f.path, f]));
  // Entries naming a file the loader did not stat get size -1, so they are re-checked by hash.
  return [...groups].map(([path, entries]) => ({
    path,
    size: stat.get(path)?.size ?? -1,
    mtimeMs: stat.get(path)?.mtimeMs ?? -1,
    ctimeMs: stat.get(path)?.ctimeMs ?? -1,
    entries,
  }));
}

function plan(prev: PreviousIndex | null, corpus: Corpus): FilePlan[] {
  const old = new Map((prev?.manifest.files ?? []).map((f) => [f.path, f]));
  const n = prev?.index.size ?? 0;
  return groupByFile(corpus).map((g) => {
    const o = old.get(g.path);
    const usable = o !== undefined && o.first >= 0 && o.count >= 0 && o.first + o.count <= n;
    const statSame =
      usable &&
      g.size >= 0 &&
      o.size === g.size &&
      o.mtime_ms === g.mtimeMs &&
      o.ctime_ms === g.ctimeMs &&
      !isRacy(o.mtime_ms, prev!.manifest.built_at_ms);
    const hash = statSame ? o.hash : usable && o.count === g.entries.length ? entriesHash(g.entries) : null;
    const reuse = usable && o.hash === hash && o.count === g.entries.length ? o : null;
    return { ...g, count: g.entries.length, hash, reuse };
  });
}

/**
 * Brings the index up to date with a freshly loaded corpus. A file is reused without re-tokenising
 * when its stat is unchanged (and not racy) or, failing that, when the hash of its entries is
 * unchanged; only the other files' entries are tokenised (a large batch partly on a worker thread).
 * The inverted index is then reassembled from the reused documents (one pass over the old
 * postings) plus the new ones.
 */
export async function updateIndex(prev: PreviousIndex | null, corpus: Corpus): Promise<UpdatedIndex> {
  // Everything that needs the corpus is done before the first await, so that neither this call
  // nor its caller holds it while the documents are tokenised: its entries can then be collected.
  const files = plan(prev, corpus);
  const errors = corpus.issues.filter((i) => i.severity === 'error').map(formatIssue);
  const issues =
    errors.length > MAX_ISSUES ? [...errors.slice(0, MAX_ISSUES), `… and ${errors.length - MAX_ISSUES} more`] : errors;
  return reindex(prev, files, issues);
}

function record(f: FilePlan, first: number, hash: string): ManifestFile {
  return { path: f.path, size: f.size, mtime_ms: f.mtimeMs, ctime_ms: f.ctimeMs, hash, first, count: f.count };
}

async function reindex(prev: PreviousIndex | null, files: FilePlan[], issues: string[]): Promise<UpdatedIndex> {
  let expected = 0;
  const unchanged =
    prev !== null &&
    files.every((f) => {
      // A file of another size may hold its (equal) bodies elsewhere: their byte ranges are found again.
      const same = f.reuse !== null && f.reuse.first === expected && f.reuse.size === f.size;
      expected += f.entries.length;
      return same;
    }) &&
    expected === prev.index.size;
  if (unchanged) {
    let first = 0;
    const records = files.map((f) => {
      const r = record(f, first, f.hash!);
      first += f.entries.length;
      return r;
    });
    return { index: prev.index, files: records, issues, reindexed: 0, changed: false, reused: [] };
  }

  const table = new TermTable();
  const keep = new Uint8Array(prev?.index.size ?? 0);
  for (const f of files) if (f.reuse) keep.fill(1, f.reuse.first, f.reuse.first + f.reuse.count);
  const old = prev ? explodeIndex(prev.index, keep, table) : [];
  const todo = files.filter((f) => !f.reuse);
  const groups = todo.map((f) => ({
    docs: f.entries.map(docFromEntry) as IndexDoc[],
    bodies: f.entries.map((e) => indexedText(e.content)),
    hash: f.hash,
  }));
  // Their documents taken, the entries of the files to tokenise are let go (the corpus itself is
  // held by no one now): a cold build of a large corpus holds one copy of it, not two.
  for (const f of todo) f.entries = [];
  const tokenized = await tokenizeGroups(groups, table);
  const forward: ForwardDoc[] = [];
  const records: ManifestFile[] = [];
  const reused: UpdatedIndex['reused'] = [];
  let reindexed = 0;
  let t = 0;
  for (const f of files) {
    if (f.reuse) {
      const sameFile =
        f.reuse.size === f.size &&
        f.reuse.mtime_ms === f.mtimeMs &&
        f.reuse.ctime_ms === f.ctimeMs &&
        !isRacy(f.mtimeMs, prev!.manifest.built_at_ms);
      reused.push({ path: f.path, first: forward.length, oldFirst: f.reuse.first, count: f.reuse.count, sameFile });
      records.push(record(f, forward.length, f.hash!));
      for (let k = 0; k < f.reuse.count; k++) {
        const od = old[f.reuse.first + k]!;
        // The body from the corpus just loaded (equal to the stored one: same stat or same hash),
        // never read back from a file whose bytes may have moved.
        const entry = f.entries[k];
        forward.push({
          doc: od.doc,
          body: indexedText(entry.content),
          termIds: od.termIds,
          tfs: od.tfs,
          lengths: od.lengths,
        });
      }
    } else {
      records.push(record(f, forward.length, tokenized.hashes[t]));
      for (const fd of tokenized.forward[t++]) forward.push(fd);
      reindexed += f.count;
    }
  }
  return { index: assembleIndex(forward, table), files: records, issues, reindexed, changed: true, reused };
}

import { sha256 } from '@maestro/core';
import type { SectionSpec } from '@maestro/store';
import { MATCHER_REVISION } from '../matcher/reconcile.js';

/**
 * The layout of the `match` section. Its store revision also names the matcher revision: the
 * stored retrieval keys are the matcher's, so a new matcher re-derives them.
 */
export const MATCH_SECTION_REVISION = 'match-store/1';

/**
 * Entries per file slot: a document's store key is `file_id × SLOT + position in its file`. The
 * number the matcher sees is the entry's position in the whole corpus (the entries of the files
 * before it, in corpus order, plus its position), computed per process from `match_files`: stored
 * keys never move when another file changes, and the matcher's numbers are dense and in corpus order.
 */
export const SLOT = 2 ** 22;

export const MATCH_SECTION: SectionSpec = {
  name: 'match',
  revision: `${MATCH_SECTION_REVISION}+${MATCHER_REVISION}`,
  ddl: [
    // The corpus file each slot was derived from, by content hash.
    `CREATE TABLE match_files (
       file_id INTEGER PRIMARY KEY,
       path TEXT NOT NULL UNIQUE,
       sha256 TEXT NOT NULL,
       entries INTEGER NOT NULL
     )`,
    // One row per corpus entry (every status): what the matcher, receipts and review read of it.
    // raw_* are the file's own values; id / supersedes / superseded_by are after the corpus-wide
    // passes of loadCorpus (duplicate ids renamed, knowhow links by file stem resolved).
    `CREATE TABLE match_docs (
       key INTEGER PRIMARY KEY,
       raw_id TEXT NOT NULL,
       id TEXT NOT NULL,
       store TEXT NOT NULL,
       status TEXT NOT NULL,
       title TEXT NOT NULL,
       content TEXT NOT NULL,
       line INTEGER,
       content_hash TEXT NOT NULL,
       raw_supersedes TEXT NOT NULL,
       raw_superseded_by TEXT,
       supersedes TEXT NOT NULL,
       superseded_by TEXT,
       ref TEXT,
       active INTEGER NOT NULL,
       retired INTEGER NOT NULL,
       exact_hash INTEGER,
       title_hash INTEGER,
       entry_hash TEXT NOT NULL,
       text_hash TEXT NOT NULL,
       sig TEXT NOT NULL,
       terms BLOB
     )`,
    'CREATE INDEX match_docs_id ON match_docs (id, entry_hash)',
    // The rows the corpus-wide id pass reads: renamed copies, and ids that look like a copy's name.
    "CREATE INDEX match_docs_renamed ON match_docs (key) WHERE id != raw_id OR instr(raw_id, '~') > 0",
    'CREATE INDEX match_docs_exact ON match_docs (exact_hash) WHERE exact_hash IS NOT NULL',
    'CREATE INDEX match_docs_title ON match_docs (title_hash) WHERE title_hash IS NOT NULL',
    // Retrieval keys (terms, alternative sets, sketch pairs) with their document frequency and
    // postings (store keys, ascending, delta varints). Rows are never deleted: ids stay stable.
    `CREATE TABLE match_terms (
       term_id INTEGER PRIMARY KEY,
       term TEXT NOT NULL UNIQUE,
       df INTEGER NOT NULL,
       docs BLOB NOT NULL
     )`,
    // Back-links of active documents: a supersedes / superseded-by id, or `NUL f:<file>` for a ref.
    'CREATE TABLE match_links (target TEXT NOT NULL, key INTEGER NOT NULL, PRIMARY KEY (target, key)) WITHOUT ROWID',
    'CREATE INDEX match_links_key ON match_links (key)',
    'CREATE TABLE match_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID',
  ],
};

/** What a corpus entry means to review and carry-over, deprecated entries included. */
export interface TargetInfo {
  status: string;
  contentHash: string;
  title: string;
  file: string;
  line: number | null;
  supersededBy: string | null;
}

/** Entry facts by id (a `Map`, or rows read on demand from the store). */
export interface TargetLookup {
  get(id: string): TargetInfo | undefined;
}

export interface DocRow {
  key: number;
  raw_id: string;
  id: string;
  store: 'spec' | 'knowhow';
  status: string;
  title: string;
  content: string;
  line: number | null;
  content_hash: string;
  raw_supersedes: string;
  raw_superseded_by: string | null;
  supersedes: string;
  superseded_by: string | null;
  ref: string | null;
  active: number;
  retired: number;
  exact_hash: number | null;
  title_hash: number | null;
  entry_hash: string;
  text_hash: string;
  sig: string;
  terms: Buffer | null;
}

/** A 52-bit hash of a lookup key (exact content, title): rows found by it are verified. */
export function keyHash(s: string): number {
  return Number.parseInt(sha256(s).slice(0, 13), 16);
}

export const strip = (ref: string) => ref.replace(/^\.workflow\//, '');
export const REF = '\u0000f:';

// --- postings encoding: ascending integers as delta varints ---

export function encode(sorted: readonly number[]): Buffer {
  const out: number[] = [];
  let prev = 0;
  for (const n of sorted) {
    let v = n - prev;
    prev = n;
    while (v >= 128) {
      out.push((v % 128) | 128);
      v = Math.floor(v / 128);
    }
    out.push(v);
  }
  return Buffer.from(out);
}

/** Decodes a postings or terms blob (ascending integers). */
export function decode(buf: Uint8Array | null, map?: (n: number) => number): number[] {
  const out: number[] = [];
  if (!buf) return out;
  let prev = 0;
  let v = 0;
  let scale = 1;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    v += (b & 127) * scale;
    if (b & 128) {
      scale *= 128;
      continue;
    }
    prev += v;
    out.push(map ? map(prev) : prev);
    v = 0;
    scale = 1;
  }
  return out;
}

/** A stored file: its id, path, content hash and entry count. */
export interface FileRow {
  file_id: number;
  path: string;
  sha256: string;
  entries: number;
}

/** Corpus order of file paths: specs/ before knowhow/, each by name (as `corpusFiles` lists them). */
export function comparePaths(a: string, b: string): number {
  const sa = a.startsWith('specs/') ? 0 : 1;
  const sb = b.startsWith('specs/') ? 0 : 1;
  return sa - sb || (a < b ? -1 : a > b ? 1 : 0);
}

import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { hashJson, sha256 } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DerivedStore, openStore, type SectionSpec, tryWrite } from '@maestro/store';
import { MATCHER_REVISION } from '../matcher/reconcile.js';
import { entryColumnsOf } from '../receipt/entry-text.js';
import { parseReceiptText, readReceipt, receiptPath } from '../receipt/io.js';
import { lazyMember, type Revalidation } from '../receipt/revalidate.js';
import type { CorpusDelta, Receipt, ReceiptCandidate } from '../schemas.js';
import { matchStoreEnabled } from './corpus-cache.js';
import { type EntryColumns, entryColumns, entryRecord } from './entry-columns.js';
import type { RunState } from './run-state.js';

/**
 * Derived state kept beside receipts (store section `rmemo`), so that a read-only review does not
 * redo what an earlier command already worked out from the same bytes:
 * - `rmemo_parsed`: a receipt file parsed, by the sha256 of its bytes: the receipt without its
 *   `corpus_entries`, and those as two columns (ids, then 8 bytes per hash) instead of a JSON
 *   object of 100,000 members;
 * - `rmemo_revalidated`: the outcome of revalidating a receipt, by the sha256 of its bytes, the
 *   corpus fingerprint, the matcher revision and the run's candidates and seeds (everything
 *   `revalidateReceipt` reads but the clock, which only stamps `revalidated_at`).
 * Every value carries the sha256 of its text and is checked on read: a row that does not hash to
 * it, or does not parse, is a miss. Best effort: a store that cannot be read or written only costs
 * the work.
 */
export const RECEIPT_MEMO_SECTION: SectionSpec = {
  name: 'rmemo',
  revision: `1+${MATCHER_REVISION}`,
  ddl: [
    `CREATE TABLE rmemo_parsed (
       path TEXT PRIMARY KEY,
       bytes_sha256 TEXT NOT NULL,
       head TEXT NOT NULL,
       ids TEXT,
       hashes BLOB,
       sha256 TEXT NOT NULL
     )`,
    `CREATE TABLE rmemo_revalidated (
       path TEXT PRIMARY KEY,
       key TEXT NOT NULL,
       value TEXT NOT NULL,
       sha256 TEXT NOT NULL
     )`,
  ],
};

/** A receipt as read through the memo. */
export interface ReadReceipt {
  receipt: Receipt;
  /** The sha256 of the file's bytes ('' when it could not be read as bytes). */
  sha: string;
  /** Its `corpus_entries` as columns (null: it records none). */
  entries: EntryColumns | null;
}

function memoStore(layout: WorkflowLayout): DerivedStore | null {
  if (!matchStoreEnabled()) return null;
  try {
    const store = openStore(layout);
    store.section(RECEIPT_MEMO_SECTION);
    return store;
  } catch {
    return null;
  }
}

function keyPath(layout: WorkflowLayout, sessionId: string, runId: string): string {
  return relative(layout.workflow, receiptPath(layout, sessionId, runId));
}

interface ParsedRow {
  bytes_sha256: string;
  head: string;
  ids: string | null;
  hashes: Buffer | null;
  sha256: string;
}

function columnsSha(head: string, ids: string | null, hashes: Uint8Array | null): string {
  return sha256(`${sha256(head)}\n${ids === null ? '-' : sha256(ids)}\n${hashes === null ? '-' : sha256(hashes)}`);
}

/**
 * Whether a receipt was parsed from exactly these bytes before (then its columns), with
 * `corpus_entries` defined on demand from the columns: a caller that never reads them (a review)
 * never builds the object.
 */
function fromRow(row: ParsedRow | undefined, sha: string): ReadReceipt | null {
  if (!row || row.bytes_sha256 !== sha || columnsSha(row.head, row.ids, row.hashes) !== row.sha256) return null;
  try {
    const receipt = JSON.parse(row.head) as Receipt;
    let entries: EntryColumns | null = null;
    if (row.ids !== null && row.hashes !== null) {
      const ids = row.ids === '' ? [] : row.ids.split('\n');
      if (ids.length * 8 !== row.hashes.length) return null;
      entries = { ids, hashes: row.hashes };
      const cols = entries;
      lazyMember(receipt, 'corpus_entries', () => entryRecord(cols));
    }
    return { receipt, sha, entries };
  } catch {
    return null;
  }
}

/** Saves what a receipt's bytes parse to (best effort). */
export function rememberReceipt(layout: WorkflowLayout, receipt: Receipt, text: string): void {
  const store = memoStore(layout);
  if (!store) return;
  // Entry hashes still held as columns are taken as they are (not built into a record to be taken apart).
  const pending = entryColumnsOf(receipt);
  const rest: Record<string, unknown> = {};
  for (const k of Object.keys(receipt)) if (k !== 'corpus_entries') rest[k] = receipt[k as keyof Receipt];
  const head = JSON.stringify(rest);
  const entries = pending ? null : receipt.corpus_entries;
  const cols = pending ?? (entries ? entryColumns(entries) : null);
  const ids = cols ? cols.ids.join('\n') : null;
  // An id holding a newline could not be split back: such a receipt is not remembered.
  if (cols?.ids.some((id) => id.includes('\n'))) return;
  const hashes = cols ? cols.hashes : null;
  tryWrite(store, () => {
    store
      .prepare(
        'INSERT OR REPLACE INTO rmemo_parsed (path, bytes_sha256, head, ids, hashes, sha256) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        keyPath(layout, receipt.session_id, receipt.run_id),
        sha256(text),
        head,
        ids,
        hashes,
        columnsSha(head, ids, hashes),
      );
  });
}

/**
 * A run's receipt (null when there is none), through the memo: bytes parsed before are not parsed
 * again. A damaged receipt throws `ReceiptCorruptError` exactly as `readReceipt` does.
 */
export function readReceiptMemo(layout: WorkflowLayout, sessionId: string, runId: string): ReadReceipt | null {
  const path = receiptPath(layout, sessionId, runId);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Not a readable file: `readReceipt` throws its named error (or reads it after all).
    const receipt = readReceipt(layout, sessionId, runId);
    return receipt
      ? { receipt, sha: '', entries: receipt.corpus_entries ? entryColumns(receipt.corpus_entries) : null }
      : null;
  }
  const sha = sha256(bytes);
  const store = memoStore(layout);
  if (store) {
    try {
      const row = store.prepare('SELECT * FROM rmemo_parsed WHERE path = ?').get(keyPath(layout, sessionId, runId));
      const hit = fromRow(row as ParsedRow | undefined, sha);
      if (hit) return hit;
    } catch {
      // An unreadable row is a miss.
    }
  }
  const text = bytes.toString('utf8');
  const receipt = parseReceiptText(layout, sessionId, path, text) as Receipt;
  rememberReceipt(layout, receipt, text);
  return { receipt, sha, entries: receipt.corpus_entries ? entryColumns(receipt.corpus_entries) : null };
}

/** What a revalidation is memoised as: its outcome, without the clock's stamp or the entry hashes. */
type StoredRevalidation =
  | { state: 'revalidated'; delta: CorpusDelta; candidates: ReceiptCandidate[] }
  | { state: 'stale'; reason: string; entry: string | null; delta: CorpusDelta | null };

function revalidationKey(read: ReadReceipt, fingerprint: string, state: RunState): string {
  return hashJson([read.sha, fingerprint, MATCHER_REVISION, state.candidates, state.seeds]);
}

/**
 * The memoised revalidation of this receipt against this corpus, or null. A revalidated receipt
 * comes back without `corpus_entries` (the caller must not write it: see `loadSessionReceipts`).
 */
export function recallRevalidation(
  layout: WorkflowLayout,
  read: ReadReceipt,
  fingerprint: string,
  state: RunState,
  now: string,
): Revalidation | null {
  const store = read.sha ? memoStore(layout) : null;
  if (!store) return null;
  let v: StoredRevalidation;
  try {
    const row = store
      .prepare('SELECT key, value, sha256 FROM rmemo_revalidated WHERE path = ?')
      .get(keyPath(layout, read.receipt.session_id, read.receipt.run_id)) as
      | { key: string; value: string; sha256: string }
      | undefined;
    if (!row || row.key !== revalidationKey(read, fingerprint, state) || sha256(row.value) !== row.sha256) return null;
    v = JSON.parse(row.value) as StoredRevalidation;
  } catch {
    return null;
  }
  if (v.state === 'stale') return v;
  const receipt: Record<string, unknown> = {};
  const old = read.receipt;
  for (const k of Object.keys(old)) {
    if (k !== 'corpus_entries' && k !== 'revalidated_from') receipt[k] = old[k as keyof Receipt];
  }
  receipt.corpus_fingerprint = fingerprint;
  receipt.candidates = v.candidates;
  receipt.revalidated_from = { corpus_fingerprint: old.corpus_fingerprint, delta: v.delta, revalidated_at: now };
  return { state: 'revalidated', delta: v.delta, receipt: receipt as Receipt };
}

/** Saves a revalidation's outcome (best effort). */
export function rememberRevalidation(
  layout: WorkflowLayout,
  read: ReadReceipt,
  fingerprint: string,
  state: RunState,
  r: Revalidation,
): void {
  const store = read.sha ? memoStore(layout) : null;
  if (!store) return;
  const stored: StoredRevalidation =
    r.state === 'stale'
      ? { state: 'stale', reason: r.reason, entry: r.entry, delta: r.delta }
      : { state: 'revalidated', delta: r.delta, candidates: r.receipt.candidates };
  const value = JSON.stringify(stored);
  tryWrite(store, () => {
    store
      .prepare('INSERT OR REPLACE INTO rmemo_revalidated (path, key, value, sha256) VALUES (?, ?, ?, ?)')
      .run(
        keyPath(layout, read.receipt.session_id, read.receipt.run_id),
        revalidationKey(read, fingerprint, state),
        value,
        sha256(value),
      );
  });
}

import { hashJson, sha256 } from '@maestro/core';
import type { CorpusIndex, MatchIndex } from '../matcher/corpus-index.js';
import { reconcile } from '../matcher/reconcile.js';
import type { MatchMemo } from '../matcher/trace.js';
import type { Match, MatchableEntry, Verdict } from '../matcher/types.js';
import type { CorpusDelta, Receipt, ReceiptCandidate } from '../schemas.js';
import { type HashColumns, lazyEntryColumns } from './entry-text.js';
import type { SnapshotCandidate } from './snapshot.js';

/** The facts of a corpus entry that a verdict or a carried-over resolution can depend on. */
export interface EntryFacts {
  status: string;
  contentHash: string;
  title: string;
  file: string;
  supersededBy: string | null;
}

/**
 * One entry's hash as a receipt records it (16 hex of sha256 over status, content hash, title,
 * file and successor). Line numbers are left out: an entry moved down by an insertion above it is
 * the same entry.
 */
export function entryHash(e: EntryFacts): string {
  // `hashJson` of an array of strings and nulls is the hash of its plain JSON: no key sorting to do.
  return sha256(JSON.stringify([e.status, e.contentHash, e.title, e.file, e.supersededBy])).slice(0, 16);
}

/** Every entry's hash, keyed by id in id order (what `corpus_entries` of a receipt holds). */
export function corpusEntryHashes(entries: ReadonlyMap<string, EntryFacts>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of [...entries.keys()].sort()) out[id] = entryHash(entries.get(id) as EntryFacts);
  return out;
}

/** Which entries were added, changed or removed between two `corpus_entries` records (ids sorted). */
export function corpusDelta(before: Readonly<Record<string, string>>, after: Readonly<Record<string, string>>) {
  const delta: CorpusDelta = { added: [], changed: [], removed: [] };
  // for-in over own keys (plain records): no array of [id, hash] pairs for 100,000 entries.
  for (const id in after) {
    if (!Object.hasOwn(after, id)) continue;
    if (!Object.hasOwn(before, id)) delta.added.push(id);
    else if (before[id] !== after[id]) delta.changed.push(id);
  }
  for (const id in before) if (Object.hasOwn(before, id) && !Object.hasOwn(after, id)) delta.removed.push(id);
  for (const list of Object.values(delta)) list.sort();
  return delta;
}

export interface RevalidateInput {
  /** A receipt whose identity, candidate snapshot and matcher revision still hold: only the corpus moved. */
  receipt: Receipt;
  candidates: readonly SnapshotCandidate[];
  seeds: readonly string[];
  /** The current corpus (index or entries) and its fingerprint and entry hashes. */
  corpus: CorpusIndex | MatchIndex | readonly MatchableEntry[];
  fingerprint: string;
  /** The current entry hashes, or a function giving them (asked only when the new receipt's are read). */
  hashes: Readonly<Record<string, string>> | (() => Readonly<Record<string, string>>);
  /** The delta from the receipt's `corpus_entries` to the current hashes, when the caller has it already. */
  delta?: CorpusDelta;
  /** The current entry hashes as columns in id order (then the new receipt keeps them so until read). */
  entryColumns?: () => HashColumns;
  /** Matches kept from earlier runs (each replayed before it is trusted). */
  memo?: MatchMemo;
  now: string;
}

export type Revalidation =
  | { state: 'revalidated'; receipt: Receipt; delta: CorpusDelta }
  | { state: 'stale'; reason: string; entry: string | null; delta: CorpusDelta | null };

/**
 * Decides whether a receipt made against an older corpus still holds (pure). It does when the
 * matcher, run now on the current corpus, gives every candidate the same matches (same entries,
 * relations, scores, novelty and target content) — so the same disposition, eligibility and
 * target — and no confirmed resolution's target changed. Then the receipt is returned refreshed:
 * new fingerprint and entry hashes, matches with current titles and lines, and `revalidated_from`.
 * Otherwise it stays stale and the reason names the entry that made it so.
 *
 * The whole current corpus is matched, not only the changed entries: retrieval and scores weigh
 * terms by how many entries use them and cap matches per file, so a subset would not reproduce
 * the verdicts. Retrieval goes through the index, so this costs postings, not corpus size.
 */
export function revalidateReceipt(input: RevalidateInput): Revalidation {
  const { receipt } = input;
  const hashes = typeof input.hashes === 'function' ? input.hashes : () => input.hashes as Record<string, string>;
  const delta = input.delta ?? (receipt.corpus_entries ? corpusDelta(receipt.corpus_entries, hashes()) : null);
  if (!delta) {
    return {
      state: 'stale',
      reason: 'the receipt records no per-entry corpus hashes (made before revalidation existed)',
      entry: null,
      delta: null,
    };
  }
  const moved = new Set([...delta.changed, ...delta.removed]);
  const verdicts = new Map(
    reconcile(input.candidates, input.corpus, {
      seeds: [...input.seeds],
      now: receipt.generated_at,
      ...(input.memo ? { memo: input.memo } : {}),
    }).map((v) => [v.candidate_id, v]),
  );
  const rows: ReceiptCandidate[] = [];
  for (const row of receipt.candidates) {
    const v = verdicts.get(row.candidate_id);
    const why = v ? differs(row, v, moved, delta) : { reason: 'the candidate is no longer matched', entry: null };
    if (why) return { state: 'stale', reason: `${row.candidate_id}: ${why.reason}`, entry: why.entry, delta };
    rows.push({ ...row, matches: (v as Verdict).matches });
  }
  // Every member but the old entry hashes and stamp, without reading them (they may be built on demand).
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(receipt)) {
    if (k !== 'corpus_entries' && k !== 'revalidated_from') out[k] = receipt[k as keyof Receipt];
  }
  out.corpus_fingerprint = input.fingerprint;
  // Shared, never mutated: a copy of 100,000 hashes per revalidated run buys nothing. Built when
  // first read (a read-only review never reads them).
  if (input.entryColumns) lazyEntryColumns(out, input.entryColumns);
  else lazyMember(out, 'corpus_entries', hashes);
  out.candidates = rows;
  out.revalidated_from = { corpus_fingerprint: receipt.corpus_fingerprint, delta, revalidated_at: input.now };
  return { state: 'revalidated', delta, receipt: out as Receipt };
}

/** Defines `key` on `obj` as an enumerable member computed on first read (then a plain value). */
export function lazyMember(obj: object, key: string, get: () => unknown): void {
  const settle = (value: unknown) =>
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  Object.defineProperty(obj, key, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = get();
      settle(value);
      return value;
    },
    set: settle,
  });
}

type Why = { reason: string; entry: string | null } | null;

function sameMatch(a: Match, b: Match): boolean {
  return (
    a.knowledge_id === b.knowledge_id &&
    a.relation === b.relation &&
    a.novelty === b.novelty &&
    a.target_content_hash === b.target_content_hash &&
    hashJson(a.scores) === hashJson(b.scores)
  );
}

function describe(id: string, delta: CorpusDelta, title?: string): string {
  const name = title ? `entry ${id} "${title}"` : `entry ${id}`;
  if (delta.added.includes(id)) return `${name}, added since the receipt,`;
  if (delta.changed.includes(id)) return `${name}, changed since the receipt,`;
  if (delta.removed.includes(id)) return `${name}, removed since the receipt,`;
  return name;
}

/** Why the fresh verdict is not the recorded one, naming the entry responsible (null when the same). */
function differs(row: ReceiptCandidate, v: Verdict, moved: ReadonlySet<string>, delta: CorpusDelta): Why {
  const target = row.resolution?.status === 'confirmed' ? (row.resolution.target_id ?? row.canonical_id) : null;
  if (target && moved.has(target)) {
    return { reason: `${describe(target, delta)} is the target of its confirmed resolution`, entry: target };
  }
  const before = new Map(row.matches.map((m) => [m.knowledge_id, m]));
  for (const m of v.matches) {
    const old = before.get(m.knowledge_id);
    const name = describe(m.knowledge_id, delta, m.title);
    if (!old) return { reason: `${name} now matches it as ${m.relation}`, entry: m.knowledge_id };
    if (!sameMatch(old, m))
      return { reason: `its match with ${name} moved (now ${m.relation})`, entry: m.knowledge_id };
  }
  const now = new Set(v.matches.map((m) => m.knowledge_id));
  const lost = row.matches.find((m) => !now.has(m.knowledge_id));
  if (lost) {
    return {
      reason: `${describe(lost.knowledge_id, delta, lost.title)} no longer matches it`,
      entry: lost.knowledge_id,
    };
  }
  const order = (ms: readonly Match[]) => ms.map((m) => m.knowledge_id).join(',');
  if (order(row.matches) !== order(v.matches)) return { reason: 'the order of its matches moved', entry: null };
  if (row.resolution?.status !== 'confirmed') {
    const same =
      row.disposition === v.disposition &&
      row.promotion_eligibility === v.promotion_eligibility &&
      row.canonical_id === v.canonical_id &&
      (row.reaffirms ?? null) === v.reaffirms;
    if (!same) return { reason: `its verdict is now ${v.disposition}`, entry: null };
  }
  return null;
}

import { maxOf } from '@maestro/core';
import { topicKeywords } from './bookkeeping.js';
import { SELECTION } from './config.js';
import { FLAG_KNOWHOW, type RankOptions, type SearchIndex, type SelectionReason } from './model.js';
import type { Candidate } from './score.js';
import { analyzeDocument } from './tokenize.js';

export interface Selected {
  c: Candidate;
  reason: SelectionReason;
}

export interface SelectInput {
  index: SearchIndex;
  /** Best first, as returned by `scoreQuery`. */
  candidates: Candidate[];
  /** How many results to select: offset + limit. */
  k: number;
  limit: number;
  offset: number;
  mode: NonNullable<RankOptions['mode']>;
  exposure: ReadonlyMap<string, number> | null;
}

/** Keeps the best-scored candidate of each canonical id. */
function dedupe(index: SearchIndex, candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter((c) => {
    const id = index.doc(c.doc).id;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Chooses the first `k` results.
 * - `relevance`: canonical-id dedup, then score order.
 * - `balanced`: canonical-id dedup, then greedy MMR (λ = 0.85) in three passes: (1) at most one
 *   result per family (file) and ⌈k/2⌉ per store (spec vs knowhow); (2) the store cap lifted;
 *   (3) no caps — so caps shape the top of the page but never hide a match when the pool runs
 *   short. A pick is labelled `relevance` when it is the best-scored remaining candidate and
 *   `diversity` otherwise. Finally at most one exploration slot (see `explorationPick`).
 */
export function selectResults(input: SelectInput): Selected[] {
  const pool = dedupe(input.index, input.candidates);
  if (input.mode === 'relevance') return pool.slice(0, input.k).map((c) => ({ c, reason: 'relevance' }));
  const chosen = mmrSelect(input.index, pool, input.k);
  const slot = explorationPick(input, pool, chosen);
  if (slot) chosen[chosen.length - 1] = { c: slot, reason: 'exploration' };
  return chosen;
}

function mmrSelect(index: SearchIndex, pool: Candidate[], k: number): Selected[] {
  const out: Selected[] = [];
  if (pool.length === 0) return out;
  const top = pool[0].score || 1;
  const lambda = SELECTION.mmrLambda;
  const taken = new Uint8Array(pool.length);
  const maxSim = new Float64Array(pool.length);
  const sigs = signatures(index, pool);
  // Families and stores as small integers, so the selection loop does no string work.
  const familyIds = new Map<string, number>();
  const family = Int32Array.from(pool, (c) => {
    const f = index.doc(c.doc).file;
    if (!familyIds.has(f)) familyIds.set(f, familyIds.size);
    return familyIds.get(f)!;
  });
  const store = Uint8Array.from(pool, (c) => index.flags[c.doc] & FLAG_KNOWHOW);
  const perFamily = new Int32Array(familyIds.size);
  const perStore = [0, 0];
  const passes = [
    { family: SELECTION.familyCap, store: Math.ceil(k / 2) },
    { family: SELECTION.familyCap, store: Number.POSITIVE_INFINITY },
    { family: Number.POSITIVE_INFINITY, store: Number.POSITIVE_INFINITY },
  ];
  for (const cap of passes) {
    while (out.length < k) {
      let best = -1;
      let bestValue = Number.NEGATIVE_INFINITY;
      let bestRemaining = -1;
      for (let i = 0; i < pool.length; i++) {
        if (taken[i]) continue;
        if (bestRemaining < 0) bestRemaining = i;
        if (perFamily[family[i]] >= cap.family || perStore[store[i]] >= cap.store) continue;
        const value = lambda * (pool[i].score / top) - (1 - lambda) * maxSim[i];
        if (value > bestValue) {
          bestValue = value;
          best = i;
        }
      }
      if (best < 0) break;
      taken[best] = 1;
      perFamily[family[best]]++;
      perStore[store[best]]++;
      out.push({ c: pool[best], reason: best === bestRemaining ? 'relevance' : 'diversity' });
      for (let i = 0; i < pool.length; i++) {
        if (!taken[i]) maxSim[i] = Math.max(maxSim[i], jaccard(sigs[i], sigs[best]));
      }
    }
  }
  return out;
}

/**
 * The exploration slot: only in balanced mode, on the first page, for a page of at least 4 results,
 * when exposure counters are available and the pool holds more than the page. Eligible are
 * candidates not on the page, from a family not on the page, scoring at least 35 % of the top
 * score, and shown fewer times than the most-shown result on the page. The least-shown one wins
 * (ties: higher score, then corpus order) and replaces the last slot. Exposure decides nothing else.
 */
function explorationPick(input: SelectInput, pool: Candidate[], chosen: Selected[]): Candidate | null {
  const { index, exposure } = input;
  if (!exposure || input.offset !== 0 || input.limit < SELECTION.explorationMinLimit) return null;
  if (chosen.length < input.k || pool.length <= chosen.length) return null;
  const onPage = new Set(chosen.map((s) => s.c.doc));
  const families = new Set(chosen.map((s) => index.doc(s.c.doc).file));
  const mostShown = maxOf(
    chosen.map((s) => exposure.get(index.doc(s.c.doc).id) ?? 0),
    0,
  );
  const floor = SELECTION.explorationFloor * pool[0].score;
  let pick: Candidate | null = null;
  let pickShown = Number.POSITIVE_INFINITY;
  for (const c of pool) {
    const doc = index.doc(c.doc);
    if (onPage.has(c.doc) || families.has(doc.file) || c.score < floor) continue;
    const shown = exposure.get(doc.id) ?? 0;
    if (shown >= mostShown) continue;
    // pool is best-first, so on equal exposure the first seen has the higher score (then corpus order)
    if (shown < pickShown) {
      pick = c;
      pickShown = shown;
    }
  }
  return pick;
}

/** Sorted distinct term hashes of title, description, tags and the start of the body. */
function signatures(index: SearchIndex, pool: Candidate[]): Int32Array[] {
  const ids = new Map<string, number>();
  return pool.map((c) => {
    const doc = index.doc(c.doc);
    const text = [
      doc.title,
      doc.description ?? '',
      topicKeywords(doc.keywords).join(' '),
      doc.category ?? '',
      index.body(c.doc).slice(0, SELECTION.signatureBodyChars),
    ].join('\n');
    const set = new Set<number>();
    analyzeDocument(text, (t) => {
      let id = ids.get(t);
      if (id === undefined) {
        id = ids.size;
        ids.set(t, id);
      }
      set.add(id);
    });
    return Int32Array.from(set).sort();
  });
}

export function jaccard(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 && b.length === 0) return 0;
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return common / (a.length + b.length - common);
}

import { appendAll, normalizeText } from '@maestro/core';
import { adjacencyBonus } from './adjacency.js';
import {
  alternativePostings,
  alternativeScores,
  altScratch,
  foldAlternatives,
  offerAlternative,
} from './alternatives-score.js';
import { FIELD_CONFIG, FIELDS, RANKING } from './config.js';
import { type Alternative, expandQuery } from './expand.js';
import { CandidateHeap, drainBestFirst } from './heap.js';
import { FLAG_DEPRECATED, FLAG_KNOWHOW, type RankOptions, type SearchIndex } from './model.js';
import { verifyPhrases } from './phrase.js';
import type { ParsedQuery } from './query.js';

/** Per-index facet keys, normalised on first use and reused by later queries (the warm path). */
interface FacetKeys {
  category: (string | null | undefined)[];
  keywords: (Set<string> | undefined)[];
}

const facetKeys = new WeakMap<SearchIndex, FacetKeys>();
const DAY_MS = 86_400_000;

function keysOf(index: SearchIndex): FacetKeys {
  let k = facetKeys.get(index);
  if (!k) {
    k = { category: [], keywords: [] };
    facetKeys.set(index, k);
  }
  return k;
}

/** Position of `term` in the sorted term list, or -1. */
export function findTerm(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = terms[mid];
    if (t === term) return mid;
    if (t < term) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Position of `term` in the index's terms, or -1 (without materialising the term list when it can). */
export function termRankOf(index: SearchIndex, term: string): number {
  return index.termRank ? index.termRank(term) : findTerm(index.terms, term);
}

export function decayFactor(knowhow: boolean, days: number, nowDays: number): number {
  const half = knowhow ? RANKING.halfLifeDays.knowhow : RANKING.halfLifeDays.spec;
  const age = Number.isNaN(days) ? half : Math.max(0, nowDays - days);
  return RANKING.decayFloor + (1 - RANKING.decayFloor) * 2 ** (-age / half);
}

/** Time-decay factors for one clock reading, computed per document on first use and kept for the day. */
const decayCache = new WeakMap<SearchIndex, { day: number; values: Float32Array }>();

/** The per-document decay factors for the day of `now` (0 = not computed yet; a factor is never 0). */
function decayValues(index: SearchIndex, now: Date): { day: number; values: Float32Array } {
  const day = Math.floor(now.getTime() / DAY_MS);
  let c = decayCache.get(index);
  if (!c || c.day !== day) {
    c = { day, values: new Float32Array(index.size) };
    decayCache.set(index, c);
  }
  return c;
}

/** The facet test, or null when the only filter is the default "no deprecated entries" (checked inline). */
function facetFilter(index: SearchIndex, prep: FacetKeys, o: RankOptions): ((d: number) => boolean) | null {
  if (o.type === undefined && o.category === undefined && !o.tags?.length && o.status === undefined) return null;
  const category = o.category === undefined ? undefined : normalizeText(o.category);
  const tags = (o.tags ?? []).map(normalizeText).filter(Boolean);
  const store = o.type === undefined ? -1 : o.type === 'knowhow' ? FLAG_KNOWHOW : 0;
  // status given: only that status; otherwise deprecated entries only with includeDeprecated
  const status = o.status === undefined ? -1 : o.status === 'deprecated' ? FLAG_DEPRECATED : 0;
  const hideDeprecated = o.status === undefined && o.includeDeprecated !== true;
  return (d) => {
    const flags = index.flags[d];
    if (store >= 0 && (flags & FLAG_KNOWHOW) !== store) return false;
    if (status >= 0 ? (flags & FLAG_DEPRECATED) !== status : hideDeprecated && flags & FLAG_DEPRECATED) return false;
    if (category !== undefined) {
      if (prep.category[d] === undefined) {
        const c = index.doc(d).category;
        prep.category[d] = c === null ? null : normalizeText(c);
      }
      if (prep.category[d] !== category) return false;
    }
    if (tags.length) {
      let kw = prep.keywords[d];
      if (!kw) kw = prep.keywords[d] = new Set(index.doc(d).keywords.map(normalizeText));
      for (const t of tags) if (!kw.has(t)) return false;
    }
    return true;
  };
}

export interface Candidate {
  doc: number;
  score: number;
  /** Bit i set when query term i (i < 31) matched. */
  mask: number;
  /** Bit i set when query term i (i < 31) matched only through one of its alternatives. */
  altMask: number;
}

export interface Scored {
  /** The best candidates that passed the facets, filters and phrases, best first, at most `pool`. */
  candidates: Candidate[];
  /** How many entries passed; a lower bound when `totalExact` is false. */
  total: number;
  /** False when phrase checking stopped early (see `verifyPhrases`). */
  totalExact: boolean;
  /** Per query term, the alternatives it was expanded to (none when nothing was scored). */
  alternatives: Alternative[][];
}

/** Documents in first-touch order: `docs[0 .. count - 1]` (a typed array: no growing list per match). */
interface Touched {
  docs: Int32Array;
  count: number;
}

interface Accumulated {
  acc: Float64Array;
  /** Sum of the idf of the query terms each document contains (for coverage). */
  covered: Float64Array;
  /** Query terms (bit i, i < 31) the document contains literally. */
  mask: Int32Array;
  /** Query terms (bit i, i < 31) the document matched only through an alternative. */
  altMask: Int32Array;
  /** Documents with a non-zero score, in first-touch order (a document is touched once: its score only grows). */
  touched: Touched;
  /** Sum of the idf of every query term, found or not. */
  queryIdf: number;
}

/**
 * BM25F: Σ over query terms of idf × tf̃ / (k1 + tf̃), tf̃ = Σ_f w_f·tf_f / (1 − b_f + b_f·len_f/avglen_f).
 * A document without query term i but with one of its alternatives (`expandQuery`) gets the best
 * alternative's weight × its BM25F (the mean over its terms when it needs several) and its cover
 * × idf_i towards coverage; a document with the term itself is scored on the term alone.
 */
function accumulate(index: SearchIndex, ranks: number[], alternatives: readonly Alternative[][]): Accumulated {
  const n = index.size;
  const { postDoc, postTf, lengths, termStart } = index;
  // The four fields unrolled, with the per-field constants hoisted: this loop runs once per posting.
  const [w0, w1, w2, w3] = FIELDS.map((f) => FIELD_CONFIG[f].weight);
  const [b0, b1, b2, b3] = FIELDS.map((f) => FIELD_CONFIG[f].b);
  const [s0, s1, s2, s3] = [b0, b1, b2, b3].map((b, f) => b / (index.avgLengths[f] || 1));
  const k1 = RANKING.k1;
  const norm = new Float64Array([w0, w1, w2, w3, 1 - b0, 1 - b1, 1 - b2, 1 - b3, s0, s1, s2, s3, k1]);
  const acc = new Float64Array(n);
  const covered = new Float64Array(n);
  const mask = new Int32Array(n);
  const altMask = new Int32Array(n);
  const touched: Touched = { docs: new Int32Array(n), count: 0 };
  const idfOf = (r: number) => {
    const df = r < 0 ? 0 : termStart[r + 1] - termStart[r];
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  };
  /** The BM25F part of posting p (its document is postDoc[p]). */
  const part = (p: number, idf: number) => {
    const q = p * 4;
    const l = postDoc[p] * 4;
    let tf = 0;
    if (postTf[q] !== 0) tf += (w0 * postTf[q]) / (1 - b0 + s0 * lengths[l]);
    if (postTf[q + 1] !== 0) tf += (w1 * postTf[q + 1]) / (1 - b1 + s1 * lengths[l + 1]);
    if (postTf[q + 2] !== 0) tf += (w2 * postTf[q + 2]) / (1 - b2 + s2 * lengths[l + 2]);
    if (postTf[q + 3] !== 0) tf += (w3 * postTf[q + 3]) / (1 - b3 + s3 * lengths[l + 3]);
    return (idf * tf) / (k1 + tf);
  };
  // Per term i: documents holding it literally (literal[d] === i + 1) and their best alternative.
  const expanded = alternatives.some((a) => a.length > 0);
  const literal = expanded ? new Int32Array(n) : null;
  const alts = expanded ? altScratch(n) : null;
  let queryIdf = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    const idf = idfOf(r);
    queryIdf += idf;
    const bit = i < 31 ? 1 << i : 0;
    if (r >= 0) {
      literalPostings(
        index,
        termStart[r],
        termStart[r + 1],
        idf,
        bit,
        i + 1,
        norm,
        acc,
        covered,
        mask,
        literal,
        touched,
      );
    }
    if (literal && alts && alternatives[i].length > 0) {
      const stamp = i + 1;
      alts.count = 0;
      for (const alt of alternatives[i]) {
        if (alt.ranks.length === 1) {
          const ar = alt.ranks[0];
          alternativePostings(
            index,
            termStart[ar],
            termStart[ar + 1],
            idfOf(ar),
            alt.weight,
            alt.cover,
            stamp,
            norm,
            literal,
            alts,
          );
        } else
          for (const [d, score] of alternativeScores(index, alt, idfOf, part)) {
            offerAlternative(alts, literal, d, alt.weight * score, alt.cover, stamp);
          }
      }
      foldAlternatives(alts, idf, bit, acc, covered, altMask, touched);
    }
  }
  return { acc, covered, mask, altMask, touched, queryIdf };
}

/**
 * Adds one query term's postings `from .. to` to the accumulators (the body of `accumulate`'s
 * literal loop, on its own: a small function the JIT optimises early, as this runs once per
 * posting). `norm` holds the field weights, 1 − b, b ÷ average length, and k1; the arithmetic is
 * exactly `part`'s.
 */
function literalPostings(
  index: SearchIndex,
  from: number,
  to: number,
  idf: number,
  bit: number,
  stamp: number,
  norm: Float64Array,
  acc: Float64Array,
  covered: Float64Array,
  mask: Int32Array,
  literal: Int32Array | null,
  touched: Touched,
): void {
  const { postDoc, postTf, lengths, size: n } = index;
  const touchedDocs = touched.docs;
  let touchedCount = touched.count;
  const w0 = norm[0];
  const w1 = norm[1];
  const w2 = norm[2];
  const w3 = norm[3];
  const c0 = norm[4];
  const c1 = norm[5];
  const c2 = norm[6];
  const c3 = norm[7];
  const s0 = norm[8];
  const s1 = norm[9];
  const s2 = norm[10];
  const s3 = norm[11];
  const k1 = norm[12];
  for (let p = from; p < to; p++) {
    const d = postDoc[p];
    if (d >= n) continue; // a damaged posting: never index past the documents
    const q = p * 4;
    const l = d * 4;
    let tf = 0;
    if (postTf[q] !== 0) tf += (w0 * postTf[q]) / (c0 + s0 * lengths[l]);
    if (postTf[q + 1] !== 0) tf += (w1 * postTf[q + 1]) / (c1 + s1 * lengths[l + 1]);
    if (postTf[q + 2] !== 0) tf += (w2 * postTf[q + 2]) / (c2 + s2 * lengths[l + 2]);
    if (postTf[q + 3] !== 0) tf += (w3 * postTf[q + 3]) / (c3 + s3 * lengths[l + 3]);
    if (acc[d] === 0) touchedDocs[touchedCount++] = d;
    acc[d] += (idf * tf) / (k1 + tf);
    covered[d] += idf;
    mask[d] |= bit;
    if (literal !== null) literal[d] = stamp;
  }
  touched.count = touchedCount;
}

/** Per phrase, the bits of the query terms it contains, or -1 when one of them is in no document. */
function phraseMasks(q: ParsedQuery, ranks: number[]): number[] {
  return q.phrases.map((ph) => {
    let m = 0;
    for (const t of ph.terms) {
      const i = q.terms.indexOf(t);
      if (i >= 0 && ranks[i] < 0) return -1;
      if (i >= 0 && i < 31) m |= 1 << i;
    }
    return m;
  });
}

/** The matches that passed, in parallel arrays (positions 0 .. count − 1). */
export interface Passed {
  docs: Int32Array;
  scores: Float64Array;
  count: number;
  /** Per document: bit i set when query term i (i < 31) matched. */
  mask: Int32Array;
  /** Per document: bit i set when query term i (i < 31) matched only through an alternative. */
  altMask: Int32Array;
  /** Per query term, its alternatives (`expandQuery`). */
  alternatives: Alternative[][];
}

/**
 * BM25F over the four fields, times query coverage and time decay. Facets and status are applied
 * to every matching entry *before* the list is cut to the candidate pool, so a facet can never
 * hide a match that a truncated list dropped. Phrases are checked best-first (`verifyPhrases`).
 */
export function scoreQuery(index: SearchIndex, q: ParsedQuery, o: RankOptions, now: Date, pool: number): Scored {
  const ranks = q.terms.map((t) => termRankOf(index, t));
  index.prepare?.(ranks);
  const masks = phraseMasks(q, ranks);
  if (index.size === 0 || masks.includes(-1)) return { candidates: [], total: 0, totalExact: true, alternatives: [] };
  const alternatives = expandQuery(index, q);
  // The alternatives' postings too must be readable (an index opened from disk decodes on demand).
  if (index.prepare) {
    const altRanks: number[] = [];
    for (const list of alternatives) for (const alt of list) appendAll(altRanks, alt.ranks);
    if (altRanks.length > 0) index.prepare(altRanks);
  }
  if (ranks.every((r, i) => r < 0 && alternatives[i].length === 0)) {
    return { candidates: [], total: 0, totalExact: true, alternatives };
  }
  const { acc, covered, mask, altMask, touched, queryIdf } = accumulate(index, ranks, alternatives);
  const pass = facetFilter(index, keysOf(index), o);
  const hideDeprecated = o.includeDeprecated !== true && o.status === undefined;
  const { day, values: decay } = decayValues(index, now);
  const needed = masks.reduce((a, m) => a | m, 0);
  const passed: Passed = {
    docs: new Int32Array(touched.count),
    scores: new Float64Array(touched.count),
    count: 0,
    mask,
    altMask,
    alternatives,
  };
  // Without phrases only the best `pool` are wanted: they are kept while the matches are counted.
  const top = q.phrases.length === 0 && pool > 0 ? new CandidateHeap(passed.docs, passed.scores, pool, false) : null;
  passed.count = passTouched(
    index,
    touched,
    mask,
    needed,
    pass,
    hideDeprecated,
    { acc, covered, queryIdf },
    decay,
    day,
    passed,
    top,
  );
  if (top === null) return verifyPhrases(index, q, passed, pool);
  const best = drainBestFirst(top);
  // The pool is re-ordered by adjacency (a quoted phrase already asks for its words side by side).
  adjacencyBonus(index, q, passed, best);
  best.sort((a, b) => passed.scores[b] - passed.scores[a] || passed.docs[a] - passed.docs[b]);
  return { candidates: best.map((i) => candidateAt(passed, i)), total: passed.count, totalExact: true, alternatives };
}

/** A relative margin over the bound below, far above the rounding of its few operations. */
const BOUND_SLACK = 1 + 1e-9;

/**
 * The documents of `touched` that have every phrase's terms and pass the facets, with their final
 * score (BM25F × coverage × decay), into `out.docs` / `out.scores`; returns how many passed. With
 * `top` (a worst-first heap of capacity `pool`), only the best `pool` are kept, in `top`, and the
 * others' slots reused: once it is full, an entry whose BM25F × coverage cannot beat the worst kept
 * one (a decay factor is at most 1) is only counted, its decay never looked up. On its own for the JIT, as
 * `literalPostings`.
 */
function passTouched(
  index: SearchIndex,
  touched: Touched,
  mask: Int32Array,
  needed: number,
  pass: ((d: number) => boolean) | null,
  hideDeprecated: boolean,
  sums: { acc: Float64Array; covered: Float64Array; queryIdf: number },
  decay: Float32Array,
  day: number,
  out: { docs: Int32Array; scores: Float64Array },
  top: CandidateHeap | null,
): number {
  const { flags, dateDays } = index;
  const { acc, covered, queryIdf } = sums;
  const { docs, scores } = out;
  const floor = RANKING.coverageFloor;
  const rest = 1 - floor;
  // Module constants as locals: this loop often runs before the JIT has compiled it.
  const knowhowFlag = FLAG_KNOWHOW;
  const deprecatedFlag = FLAG_DEPRECATED;
  const skipDeprecated = pass === null && hideDeprecated;
  // The most a decay factor can be (with a margin for rounding): the score is at most BM25F × coverage × this.
  const maxDecay = Math.max(1, RANKING.decayFloor + (1 - RANKING.decayFloor)) * BOUND_SLACK;
  const keep = top === null ? 0 : top.capacity;
  let full = false;
  let worst = Number.NEGATIVE_INFINITY;
  // Many entries share a date: the factor per (store, day), computed once each.
  const byDay = [new Map<number, number>(), new Map<number, number>()];
  let count = 0;
  let stored = 0;
  const touchedDocs = touched.docs;
  for (let k = 0; k < touched.count; k++) {
    const d = touchedDocs[k];
    if ((mask[d] & needed) !== needed) continue;
    if (pass !== null ? !pass(d) : skipDeprecated && (flags[d] & deprecatedFlag) !== 0) continue;
    count++;
    const factor = queryIdf > 0 ? floor + rest * (covered[d] / queryIdf) : floor + rest;
    if (full && acc[d] * factor * maxDecay < worst) continue;
    if (decay[d] === 0) {
      const knowhow = (flags[d] & knowhowFlag) !== 0;
      const days = dateDays[d];
      // Map keys compare by SameValueZero: NaN (undated) is one key.
      const memo = byDay[knowhow ? 1 : 0];
      let f = memo.get(days);
      if (f === undefined) {
        f = decayFactor(knowhow, days, day);
        memo.set(days, f);
      }
      decay[d] = f;
    }
    const score = acc[d] * factor * decay[d];
    docs[stored] = d;
    scores[stored] = score;
    if (top !== null) {
      if (!full) {
        top.push(stored);
        full = top.size === keep;
      } else {
        // `CandidateHeap.better` inlined: the same order (score, then corpus order).
        const w = top.peek();
        if (!(score > worst || (score === worst && d < docs[w]))) continue;
        top.replaceTop(stored);
      }
      if (full) worst = scores[top.peek()];
    }
    stored++;
  }
  return count;
}

export function candidateAt(p: Passed, i: number): Candidate {
  const d = p.docs[i];
  return { doc: d, score: p.scores[i], mask: p.mask[d], altMask: p.altMask[d] };
}

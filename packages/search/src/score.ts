import { normalizeText } from '@maestro/core';
import { FIELD_CONFIG, FIELDS, RANKING } from './config.js';
import { bestK } from './heap.js';
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
}

export interface Scored {
  /** The best candidates that passed the facets, filters and phrases, best first, at most `pool`. */
  candidates: Candidate[];
  /** How many entries passed; a lower bound when `totalExact` is false. */
  total: number;
  /** False when phrase checking stopped early (see `verifyPhrases`). */
  totalExact: boolean;
}

interface Accumulated {
  acc: Float64Array;
  /** Sum of the idf of the query terms each document contains (for coverage). */
  covered: Float64Array;
  mask: Int32Array;
  /** Documents with a non-zero score, in first-touch order. */
  touched: number[];
  /** Sum of the idf of every query term, found or not. */
  queryIdf: number;
}

/** BM25F: Σ over query terms of idf × tf̃ / (k1 + tf̃), tf̃ = Σ_f w_f·tf_f / (1 − b_f + b_f·len_f/avglen_f). */
function accumulate(index: SearchIndex, ranks: number[]): Accumulated {
  const n = index.size;
  const { postDoc, postTf, lengths, termStart } = index;
  // The four fields unrolled, with the per-field constants hoisted: this loop runs once per posting.
  const [w0, w1, w2, w3] = FIELDS.map((f) => FIELD_CONFIG[f].weight);
  const [b0, b1, b2, b3] = FIELDS.map((f) => FIELD_CONFIG[f].b);
  const [s0, s1, s2, s3] = [b0, b1, b2, b3].map((b, f) => b / (index.avgLengths[f] || 1));
  const k1 = RANKING.k1;
  const acc = new Float64Array(n);
  const covered = new Float64Array(n);
  const mask = new Int32Array(n);
  const touched: number[] = [];
  let queryIdf = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    const df = r < 0 ? 0 : termStart[r + 1] - termStart[r];
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    queryIdf += idf;
    if (r < 0) continue;
    const bit = i < 31 ? 1 << i : 0;
    const end = termStart[r + 1];
    for (let p = termStart[r]; p < end; p++) {
      const d = postDoc[p];
      if (d >= n) continue; // a damaged posting: never index past the documents
      const q = p * 4;
      const l = d * 4;
      let tf = 0;
      if (postTf[q] !== 0) tf += (w0 * postTf[q]) / (1 - b0 + s0 * lengths[l]);
      if (postTf[q + 1] !== 0) tf += (w1 * postTf[q + 1]) / (1 - b1 + s1 * lengths[l + 1]);
      if (postTf[q + 2] !== 0) tf += (w2 * postTf[q + 2]) / (1 - b2 + s2 * lengths[l + 2]);
      if (postTf[q + 3] !== 0) tf += (w3 * postTf[q + 3]) / (1 - b3 + s3 * lengths[l + 3]);
      if (acc[d] === 0) touched.push(d);
      acc[d] += (idf * tf) / (k1 + tf);
      covered[d] += idf;
      mask[d] |= bit;
    }
  }
  return { acc, covered, mask, touched, queryIdf };
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
  if (index.size === 0 || masks.includes(-1) || ranks.every((r) => r < 0)) {
    return { candidates: [], total: 0, totalExact: true };
  }
  const { acc, covered, mask, touched, queryIdf } = accumulate(index, ranks);
  const pass = facetFilter(index, keysOf(index), o);
  const hideDeprecated = o.includeDeprecated !== true && o.status === undefined;
  const { day, values: decay } = decayValues(index, now);
  const needed = masks.reduce((a, m) => a | m, 0);
  const passed: Passed = {
    docs: new Int32Array(touched.length),
    scores: new Float64Array(touched.length),
    count: 0,
    mask,
  };
  for (const d of touched) {
    if ((mask[d] & needed) !== needed) continue;
    if (pass ? !pass(d) : hideDeprecated && (index.flags[d] & FLAG_DEPRECATED) !== 0) continue;
    const coverage = queryIdf > 0 ? covered[d] / queryIdf : 1;
    const factor = RANKING.coverageFloor + (1 - RANKING.coverageFloor) * coverage;
    if (decay[d] === 0) decay[d] = decayFactor((index.flags[d] & FLAG_KNOWHOW) !== 0, index.dateDays[d], day);
    passed.docs[passed.count] = d;
    passed.scores[passed.count++] = acc[d] * factor * decay[d];
  }
  if (q.phrases.length > 0) return verifyPhrases(index, q, passed, pool);
  const best = bestK(passed.docs, passed.scores, passed.count, pool);
  return { candidates: best.map((i) => candidateAt(passed, i)), total: passed.count, totalExact: true };
}

export function candidateAt(p: Passed, i: number): Candidate {
  return { doc: p.docs[i], score: p.scores[i], mask: p.mask[p.docs[i]] };
}

import type { Alternative } from './expand.js';
import type { SearchIndex } from './model.js';

/**
 * Per query term, the best alternative each document reached (`accumulate` in score.ts), in typed
 * arrays stamped with the term: no per-query maps, no growing list.
 */
export interface AltScratch {
  /** `stamp[d] === i + 1` when term i's alternatives reached document d. */
  stamp: Int32Array;
  best: Float64Array;
  cover: Float32Array;
  /** The documents reached for the current term, in first-reach order: `reached[0 .. count − 1]`. */
  reached: Int32Array;
  count: number;
}

export function altScratch(n: number): AltScratch {
  return {
    stamp: new Int32Array(n),
    best: new Float64Array(n),
    cover: new Float32Array(n),
    reached: new Int32Array(n),
    count: 0,
  };
}

/** Offers `score` and `cover` for document `d` (one without the term itself, `literal[d] !== stamp`). */
export function offerAlternative(
  s: AltScratch,
  literal: Int32Array,
  d: number,
  score: number,
  cover: number,
  stamp: number,
): void {
  if (literal[d] === stamp) return;
  if (s.stamp[d] !== stamp) {
    s.stamp[d] = stamp;
    s.best[d] = score;
    s.cover[d] = cover;
    s.reached[s.count++] = d;
  } else {
    if (score > s.best[d]) s.best[d] = score;
    if (cover > s.cover[d]) s.cover[d] = cover;
  }
}

/**
 * Offers each posting `from .. to` of a one-term alternative: `weight` × its BM25F part, with the
 * arithmetic of `literalPostings` (`norm`: field weights, 1 − b, b ÷ average length, k1). On its
 * own, as `literalPostings`, so the JIT optimises the loop early: it runs once per posting.
 */
export function alternativePostings(
  index: SearchIndex,
  from: number,
  to: number,
  idf: number,
  weight: number,
  cover: number,
  stamp: number,
  norm: Float64Array,
  literal: Int32Array,
  s: AltScratch,
): void {
  const { postDoc, postTf, lengths, size: n } = index;
  const { stamp: stamps, best, cover: covers, reached } = s;
  let count = s.count;
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
    if (d >= n || literal[d] === stamp) continue;
    const q = p * 4;
    const l = d * 4;
    let tf = 0;
    if (postTf[q] !== 0) tf += (w0 * postTf[q]) / (c0 + s0 * lengths[l]);
    if (postTf[q + 1] !== 0) tf += (w1 * postTf[q + 1]) / (c1 + s1 * lengths[l + 1]);
    if (postTf[q + 2] !== 0) tf += (w2 * postTf[q + 2]) / (c2 + s2 * lengths[l + 2]);
    if (postTf[q + 3] !== 0) tf += (w3 * postTf[q + 3]) / (c3 + s3 * lengths[l + 3]);
    const score = weight * ((idf * tf) / (k1 + tf));
    if (stamps[d] !== stamp) {
      stamps[d] = stamp;
      best[d] = score;
      covers[d] = cover;
      reached[count++] = d;
    } else {
      if (score > best[d]) best[d] = score;
      if (cover > covers[d]) covers[d] = cover;
    }
  }
  s.count = count;
}

/**
 * Adds each document the current term's alternatives reached to the accumulators: its best
 * alternative's score, `idf` × its cover towards coverage, and the term's bit in `altMask`
 * (a document first touched here joins `touched`). On its own for the JIT, as the loops above.
 */
export function foldAlternatives(
  s: AltScratch,
  idf: number,
  bit: number,
  acc: Float64Array,
  covered: Float64Array,
  altMask: Int32Array,
  touched: { docs: Int32Array; count: number },
): void {
  const { reached, best, cover } = s;
  const touchedDocs = touched.docs;
  let touchedCount = touched.count;
  for (let k = 0; k < s.count; k++) {
    const d = reached[k];
    if (acc[d] === 0) touchedDocs[touchedCount++] = d;
    acc[d] += best[d];
    covered[d] += idf * cover[d];
    altMask[d] |= bit;
  }
  touched.count = touchedCount;
}

/** Per document holding every term of the alternative: the mean BM25F part of its terms. */
export function alternativeScores(
  index: SearchIndex,
  alt: Alternative,
  idfOf: (r: number) => number,
  part: (p: number, idf: number) => number,
): Map<number, number> {
  const sums = new Map<number, number>();
  const counts = new Map<number, number>();
  const { termStart, postDoc, size: n } = index;
  for (const r of alt.ranks) {
    const idf = idfOf(r);
    for (let p = termStart[r]; p < termStart[r + 1]; p++) {
      const d = postDoc[p];
      if (d >= n) continue;
      sums.set(d, (sums.get(d) ?? 0) + part(p, idf));
      counts.set(d, (counts.get(d) ?? 0) + 1);
    }
  }
  const out = new Map<number, number>();
  for (const [d, sum] of sums) if (counts.get(d) === alt.ranks.length) out.set(d, sum / alt.ranks.length);
  return out;
}

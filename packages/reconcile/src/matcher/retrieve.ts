import { type CorpusIndex, links, pairKeys, titleGrams } from './corpus-index.js';
import type { View } from './score.js';
import { refTrigrams } from './text.js';

/** How many neighbours the term postings hand to the scorer per candidate. */
export const RETRIEVAL_LIMIT = 16;
/** A shared sketch pair (see `sketchKeys`) weighs like two shared content words. */
const SKETCH_WEIGHT = 2;
/** Terms this common are skipped once rarer terms have been seen: they rank nothing. */
const COMMON_SHARE = 0.12;

/**
 * The documents worth scoring for one candidate: the best-ranked by shared terms (IDF-weighted,
 * rarest first), plus every exact-content and same-title document. Cost is proportional to the
 * postings of the candidate's terms, never to the corpus size.
 */
export function retrieve(index: CorpusIndex, c: View, limit = RETRIEVAL_LIMIT): number[] {
  const n = index.docs.length;
  if (n === 0) return [];
  const weights = new Map<string, number>();
  for (const m of [c.feats.slot, c.feats.terms, c.titleFeats.terms]) {
    for (const [t, w] of m) weights.set(t, Math.max(w, weights.get(t) ?? 0));
  }
  for (const k of pairKeys(c.feats.terms.keys())) weights.set(k, SKETCH_WEIGHT);

  const keys = [...weights.keys()]
    .map((k) => ({ k, list: index.postings.get(k) }))
    .filter((x): x is { k: string; list: number[] } => x.list !== undefined)
    .sort((a, b) => a.list.length - b.list.length);
  const scores = index.scratch;
  const touched: number[] = [];
  let used = 0;
  for (const { k, list } of keys) {
    if (used >= 3 && list.length > Math.max(64, n * COMMON_SHARE)) continue;
    used++;
    const w = (weights.get(k) ?? 0) * Math.log(1 + n / list.length);
    for (const i of list) {
      if (scores[i] === 0) touched.push(i);
      scores[i] += w;
    }
  }
  if (touched.length < 5) addTitleGrams(index, c, scores, touched);
  const top = topK(touched, scores, limit);
  for (const i of touched) scores[i] = 0;
  const out = new Set(top);
  for (const i of index.byExact.get(`${c.store}\u0000${c.exact}`) ?? []) out.add(i);
  for (const i of index.byTitle.get(c.titleKey) ?? []) out.add(i);
  return [...out];
}

function addTitleGrams(index: CorpusIndex, c: View, scores: Float64Array, touched: number[]) {
  const grams = titleGrams(index);
  for (const g of refTrigrams(c.titleKey)) {
    const list = grams.get(g);
    if (!list || list.length > Math.max(64, index.docs.length * COMMON_SHARE)) continue;
    for (const i of list) {
      if (scores[i] === 0) touched.push(i);
      scores[i] += 0.2;
    }
  }
}

/** Indices of the k highest scores (ties by lower index), without sorting everything touched. */
function topK(touched: number[], scores: Float64Array, k: number): number[] {
  if (touched.length <= k) return touched.slice();
  const heap: number[] = [];
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i], heap[p])) break;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l], heap[m])) m = l;
      if (r < heap.length && worse(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const i of touched) {
    if (heap.length < k) {
      heap.push(i);
      up(heap.length - 1);
    } else if (worse(heap[0], i)) {
      heap[0] = i;
      down(0);
    }
  }
  return heap;
}

/**
 * maestro-flow's one-hop association: the entries the run used (seeds), what they supersede or
 * are superseded by or refer to, and every entry pointing at any of those.
 */
export function associated(index: CorpusIndex, seeds: readonly string[]): Set<number> {
  const out = new Set<number>();
  if (seeds.length === 0) return out;
  const hood = new Set(seeds);
  for (const s of seeds) {
    const i = index.byId.get(s);
    if (i === undefined) continue;
    const e = index.docs[i].entry;
    for (const id of [...(e.supersedes ?? []), e.supersededBy ?? '']) if (id) hood.add(id);
  }
  const back = links(index);
  for (const id of hood) {
    const i = index.byId.get(id);
    if (i !== undefined) out.add(i);
    for (const j of back.get(id) ?? []) out.add(j);
  }
  return out;
}

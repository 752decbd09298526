import { asMatchIndex, type CorpusIndex, type MatchIndex, pairKeys, type ScoreBoard } from './corpus-index.js';
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
export function retrieve(corpus: CorpusIndex | MatchIndex, c: View, limit = RETRIEVAL_LIMIT): number[] {
  const index = asMatchIndex(corpus);
  const n = index.size;
  if (n === 0) return [];
  const weights = new Map<string, number>();
  for (const m of [c.feats.slot, c.feats.terms, c.titleFeats.terms]) {
    for (const [t, w] of m) weights.set(t, Math.max(w, weights.get(t) ?? 0));
  }
  for (const k of pairKeys(c.feats.terms.keys())) weights.set(k, SKETCH_WEIGHT);

  // Counts first: a common key's postings are never read once rarer keys have been seen.
  const keys = [...weights.keys()]
    .map((k) => ({ k, count: index.count(k) }))
    .filter((x) => x.count > 0)
    .sort((a, b) => a.count - b.count);
  const scores = index.scores();
  let used = 0;
  for (const { k, count } of keys) {
    if (used >= 3 && count > Math.max(64, n * COMMON_SHARE)) continue;
    used++;
    const w = (weights.get(k) ?? 0) * Math.log(1 + n / count);
    for (const i of index.postings(k) ?? []) scores.add(i, w);
  }
  if (scores.touched.length < 5) addTitleGrams(index, c, scores);
  const top = topK(scores.touched, scores, limit);
  scores.clear();
  const out = new Set(top);
  for (const i of index.byExact(`${c.store}\u0000${c.exact}`) ?? []) out.add(i);
  for (const i of index.byTitle(c.titleKey) ?? []) out.add(i);
  return [...out];
}

function addTitleGrams(index: MatchIndex, c: View, scores: ScoreBoard) {
  const grams = index.titleGrams();
  for (const g of refTrigrams(c.titleKey)) {
    const list = grams.get(g);
    if (!list || list.length > Math.max(64, index.size * COMMON_SHARE)) continue;
    for (const i of list) scores.add(i, 0.2);
  }
}

/** Indices of the k highest scores (ties by lower index), without sorting everything touched. */
function topK(touched: number[], board: ScoreBoard, k: number): number[] {
  if (touched.length <= k) return touched.slice();
  const heap: number[] = [];
  const score = (i: number) => board.get(i);
  const worse = (a: number, b: number) => score(a) < score(b) || (score(a) === score(b) && a > b);
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
export function associated(corpus: CorpusIndex | MatchIndex, seeds: readonly string[]): Set<number> {
  const index = asMatchIndex(corpus);
  const out = new Set<number>();
  if (seeds.length === 0) return out;
  const hood = new Set(seeds);
  for (const s of seeds) {
    const i = index.byId(s);
    if (i === undefined) continue;
    const e = index.doc(i).entry;
    for (const id of [...(e.supersedes ?? []), e.supersededBy ?? '']) if (id) hood.add(id);
  }
  for (const id of hood) {
    const i = index.byId(id);
    if (i !== undefined) out.add(i);
    for (const j of index.backLinks(id) ?? []) out.add(j);
  }
  return out;
}

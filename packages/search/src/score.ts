import { normalizeText } from '@maestro/core';
import { FIELD_CONFIG, FIELDS, RANKING } from './config.js';
import { FLAG_DEPRECATED, FLAG_KNOWHOW, type RankOptions, type SearchIndex } from './model.js';
import type { ParsedQuery } from './query.js';
import { containsSequence, sequenceTokens } from './tokenize.js';

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

export function decayFactor(knowhow: boolean, days: number, nowDays: number): number {
  const half = RANKING.halfLifeDays[knowhow ? 'knowhow' : 'spec'];
  const age = Number.isNaN(days) ? half : Math.max(0, nowDays - days);
  return RANKING.decayFloor + (1 - RANKING.decayFloor) * 2 ** (-age / half);
}

function facetFilter(index: SearchIndex, prep: FacetKeys, o: RankOptions): (d: number) => boolean {
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

interface PhraseCheck {
  tokens: readonly string[];
  /**
   * A necessary condition, tested first because it is native and cheap: the tokens in order,
   * case-insensitively, separated only by non-letters. Only texts it accepts are tokenised.
   */
  loose: RegExp;
}

function phraseCheck(tokens: readonly string[]): PhraseCheck {
  const esc = tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { tokens, loose: new RegExp(esc.join('[^\\p{L}\\p{N}]*'), 'iu') };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Could `text` contain the phrase? ASCII text is already NFKC; other text is also tried normalised. */
function mayHavePhrase(text: string, ph: PhraseCheck): boolean {
  return ph.loose.test(text) || (NON_ASCII.test(text) && ph.loose.test(text.normalize('NFKC')));
}

function fieldHasPhrase(text: string, ph: PhraseCheck): boolean {
  return !!text && mayHavePhrase(text, ph) && containsSequence(sequenceTokens(text), ph.tokens);
}

function phraseMatches(index: SearchIndex, d: number, ph: PhraseCheck): boolean {
  const doc = index.doc(d);
  const labels = [doc.title, doc.description ?? '', doc.category ?? '', ...doc.keywords];
  // One loose test over the short fields together; the exact test then runs per field.
  if (mayHavePhrase(labels.join('\n'), ph) && labels.some((f) => fieldHasPhrase(f, ph))) return true;
  return fieldHasPhrase(index.body(d), ph);
}

export interface Candidate {
  doc: number;
  score: number;
  /** Bit i set when query term i (i < 31) matched. */
  mask: number;
}

export interface Scored {
  /** Every candidate that passed the facets, filters and phrases, best first, at most `pool`. */
  candidates: Candidate[];
  total: number;
}

/**
 * BM25F over the four fields, times query coverage and time decay; facets, status and phrases are
 * applied to every matching entry *before* the list is cut to the candidate pool, so a facet can
 * never hide a match that a truncated list dropped.
 */
export function scoreQuery(index: SearchIndex, q: ParsedQuery, o: RankOptions, now: Date, pool: number): Scored {
  const n = index.size;
  const ranks = q.terms.map((t) => findTerm(index.terms, t));
  const phraseMasks = q.phrases.map((ph) => {
    let m = 0;
    for (const t of ph.terms) {
      const i = q.terms.indexOf(t);
      if (i >= 0 && ranks[i] < 0) return -1;
      if (i >= 0 && i < 31) m |= 1 << i;
    }
    return m;
  });
  if (n === 0 || phraseMasks.includes(-1) || ranks.every((r) => r < 0)) return { candidates: [], total: 0 };
  const avg = index.avgLengths;
  const weights = FIELDS.map((f) => FIELD_CONFIG[f].weight);
  const bs = FIELDS.map((f) => FIELD_CONFIG[f].b);
  const acc = new Float64Array(n);
  const covered = new Float64Array(n);
  const mask = new Int32Array(n);
  const touched: number[] = [];
  const k1 = RANKING.k1;
  let queryIdf = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    const df = r < 0 ? 0 : index.termStart[r + 1] - index.termStart[r];
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    queryIdf += idf;
    if (r < 0) continue;
    const bit = i < 31 ? 1 << i : 0;
    for (let p = index.termStart[r]; p < index.termStart[r + 1]; p++) {
      const d = index.postDoc[p];
      if (d >= n) continue; // a damaged posting: never index past the documents
      let tf = 0;
      for (let f = 0; f < 4; f++) {
        const raw = index.postTf[p * 4 + f];
        if (raw) tf += (weights[f] * raw) / (1 - bs[f] + (bs[f] * index.lengths[d * 4 + f]) / (avg[f] || 1));
      }
      if (acc[d] === 0) touched.push(d);
      acc[d] += (idf * tf) / (k1 + tf);
      covered[d] += idf;
      mask[d] |= bit;
    }
  }
  const pass = facetFilter(index, keysOf(index), o);
  const checks = q.phrases.map((ph) => phraseCheck(ph.tokens));
  const nowDays = now.getTime() / DAY_MS;
  const top = new TopK(pool);
  let total = 0;
  for (const d of touched) {
    if (!pass(d)) continue;
    let ok = true;
    for (let j = 0; j < q.phrases.length && ok; j++) {
      ok = (mask[d] & phraseMasks[j]) === phraseMasks[j] && phraseMatches(index, d, checks[j]);
    }
    if (!ok) continue;
    total++;
    const coverage = queryIdf > 0 ? covered[d] / queryIdf : 1;
    const factor = RANKING.coverageFloor + (1 - RANKING.coverageFloor) * coverage;
    const decay = decayFactor((index.flags[d] & FLAG_KNOWHOW) !== 0, index.dateDays[d], nowDays);
    top.push({ doc: d, score: acc[d] * factor * decay, mask: mask[d] });
  }
  return { candidates: top.sorted(), total };
}

/**
 * Keeps the best `k` candidates in a min-heap: higher score first, then lower document number
 * (corpus order: file, then position), so equal scores order the same way on every run.
 */
class TopK {
  private readonly heap: Candidate[] = [];
  constructor(private readonly k: number) {}

  push(c: Candidate): void {
    const h = this.heap;
    if (h.length < this.k) {
      h.push(c);
      let i = h.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!better(h[parent], h[i])) break;
        [h[parent], h[i]] = [h[i], h[parent]];
        i = parent;
      }
    } else if (this.k > 0 && better(c, h[0])) {
      h[0] = c;
      this.siftDown(0);
    }
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < h.length && better(h[worst], h[l])) worst = l;
      if (r < h.length && better(h[worst], h[r])) worst = r;
      if (worst === i) return;
      [h[worst], h[i]] = [h[i], h[worst]];
      i = worst;
    }
  }

  sorted(): Candidate[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}

/** True when a ranks above b. */
function better(a: Candidate, b: Candidate): boolean {
  return a.score > b.score || (a.score === b.score && a.doc < b.doc);
}

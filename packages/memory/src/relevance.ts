import { terms } from '@maestro/packs';
import type { MemoryRecord } from './schemas.js';

/** Recall's default threshold on the 0–1 relevance scale (seed 003: "召回阈值默认是 0.4"). */
export const DEFAULT_THRESHOLD = 0.4;
/** Memories a recall returns at most. */
export const DEFAULT_RECALL_LIMIT = 10;

/**
 * An inverted index over one store's records, built once per process (a hook's warm path reuses
 * it). Terms are the packs tokenizer's: NFKC lower-case words of 3+ characters outside a stop
 * list, light stemming, and CJK bigrams.
 */
export interface RecallIndex {
  records: readonly MemoryRecord[];
  terms: string[][];
  postings: Map<string, number[]>;
  /** Inverse document frequency per term: ln(1 + N / df). */
  idf: Map<string, number>;
  /** Sum of idf over each record's distinct terms. */
  mass: number[];
}

export function buildRecallIndex(records: readonly MemoryRecord[]): RecallIndex {
  const termsOf = records.map((r) => terms(r.text));
  const postings = new Map<string, number[]>();
  termsOf.forEach((ts, i) => {
    for (const t of ts) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const n = records.length;
  const idf = new Map<string, number>();
  for (const [t, list] of postings) idf.set(t, Math.log(1 + n / list.length));
  const mass = termsOf.map((ts) => ts.reduce((s, t) => s + (idf.get(t) ?? 0), 0));
  return { records, terms: termsOf, postings, idf, mass };
}

export interface RecallHit {
  record: MemoryRecord;
  /** 0–1, see `relevance`. */
  relevance: number;
  matched: string[];
}

/**
 * Relevance on a 0–1 scale: the idf-weighted overlap between the prompt's terms and the
 * memory's, divided by the smaller of the two term masses. 1 means one side's terms are all in
 * the other (a short prompt fully about this memory, or a memory fully mentioned by the prompt);
 * 0 means no shared term. Terms the store has never seen weigh as a term seen once, so an
 * off-topic word in the prompt still dilutes it. Pure.
 */
export function recall(
  index: RecallIndex,
  prompt: string,
  options: { threshold?: number; limit?: number } = {},
): RecallHit[] {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const limit = options.limit ?? DEFAULT_RECALL_LIMIT;
  const query = terms(prompt);
  const unseen = Math.log(1 + Math.max(1, index.records.length));
  const queryMass = query.reduce((s, t) => s + (index.idf.get(t) ?? unseen), 0);
  if (queryMass === 0) return [];
  const overlap = new Map<number, { w: number; matched: string[] }>();
  for (const t of query) {
    const list = index.postings.get(t);
    if (!list) continue;
    const w = index.idf.get(t) ?? 0;
    for (const i of list) {
      const o = overlap.get(i);
      if (o) {
        o.w += w;
        o.matched.push(t);
      } else overlap.set(i, { w, matched: [t] });
    }
  }
  const hits: RecallHit[] = [];
  for (const [i, o] of overlap) {
    const denom = Math.min(queryMass, index.mass[i]);
    // Rounded before the comparison, so the relevance shown is the one the threshold judged.
    const relevance = round(denom > 0 ? Math.min(1, o.w / denom) : 0);
    if (relevance >= threshold) hits.push({ record: index.records[i], relevance, matched: o.matched });
  }
  hits.sort(
    (a, b) =>
      b.relevance - a.relevance ||
      b.record.confidence - a.record.confidence ||
      (a.record.updated_at < b.record.updated_at ? 1 : a.record.updated_at > b.record.updated_at ? -1 : 0) ||
      (a.record.id < b.record.id ? -1 : 1),
  );
  return hits.slice(0, limit);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

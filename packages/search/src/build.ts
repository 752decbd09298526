import { indexedText } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { topicKeywords } from './bookkeeping.js';
import { FLAG_DEPRECATED, FLAG_KNOWHOW, type IndexDoc, type SearchIndex } from './model.js';
import { analyzeDocument } from './tokenize.js';

/** Interns term strings to dense ids while an index is being (re)built. */
export class TermTable {
  private readonly ids = new Map<string, number>();
  readonly terms: string[] = [];

  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
    }
    return id;
  }
}

/** One document in forward form: its distinct terms (table ids) with 4 field frequencies each. */
export interface ForwardDoc {
  doc: IndexDoc;
  body: string;
  termIds: Uint32Array;
  /** 4 per term: title, tags, description, body. */
  tfs: Uint8Array;
  /** 4 field lengths. */
  lengths: ArrayLike<number>;
}

export function docFromEntry(e: KnowledgeEntry): IndexDoc {
  return {
    id: e.id,
    store: e.store,
    title: e.title,
    category: e.category,
    keywords: e.keywords,
    description: e.description,
    date: e.date,
    status: e.status,
    file: e.file,
    line: e.line,
    type: e.type,
    confidence: e.confidence,
  };
}

const DAY_MS = 86_400_000;

/** Days since the epoch of a `YYYY-MM-DD` date (UTC midnight), NaN when missing or malformed. */
export function dateDays(date: string | null): number {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return Number.NaN;
  return Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS;
}

export function docFlags(doc: IndexDoc): number {
  return (doc.store === 'knowhow' ? FLAG_KNOWHOW : 0) | (doc.status === 'deprecated' ? FLAG_DEPRECATED : 0);
}

/** Mean field lengths over the documents that have the field (stored with the index). */
export function averageLengths(lengths: Uint32Array, n: number): number[] {
  // Most entries have no description: an average dragged towards 0 by them would punish every
  // entry that has one.
  const sum = [0, 0, 0, 0];
  const present = [0, 0, 0, 0];
  for (let d = 0; d < n; d++) {
    for (let f = 0; f < 4; f++) {
      const len = lengths[d * 4 + f];
      sum[f] += len;
      if (len > 0) present[f]++;
    }
  }
  return sum.map((x, f) => (present[f] ? x / present[f] : 0));
}

/** The text of each field, in FIELDS order. `tags` is the topic keywords plus the category. */
export function fieldTexts(doc: IndexDoc, body: string): [string, string, string, string] {
  const keywords = topicKeywords(doc.keywords);
  const tags = doc.category ? [...keywords, doc.category] : keywords;
  return [doc.title, tags.join(' \n '), doc.description ?? '', body];
}

export function tokenizeDoc(doc: IndexDoc, body: string, table: TermTable): ForwardDoc {
  const local = tokenizeFields(fieldTexts(doc, body));
  const ids = new Uint32Array(local.terms.length);
  for (let i = 0; i < ids.length; i++) ids[i] = table.intern(local.terms[i]);
  return { doc, body, termIds: ids, tfs: local.tfs, lengths: local.lengths };
}

/**
 * One document's distinct terms (first-seen order) with 4 field frequencies each, and its field
 * lengths. Terms are counted per document by string and interned once each, not per occurrence.
 */
export function tokenizeFields(texts: readonly string[]): { terms: string[]; tfs: Uint8Array; lengths: number[] } {
  const slotOf = new Map<string, number>();
  const tf: number[] = [];
  const lengths = [0, 0, 0, 0];
  for (let f = 0; f < 4; f++) {
    lengths[f] = analyzeDocument(texts[f], (term) => {
      let slot = slotOf.get(term);
      if (slot === undefined) {
        slot = slotOf.size;
        slotOf.set(term, slot);
        tf.push(0, 0, 0, 0);
      }
      if (tf[slot * 4 + f] < 255) tf[slot * 4 + f]++;
    });
  }
  return { terms: [...slotOf.keys()], tfs: Uint8Array.from(tf), lengths };
}

/** Builds the inverted index from forward documents (document order is kept). */
export function assembleIndex(forward: readonly ForwardDoc[], table: TermTable): SearchIndex {
  const df = new Uint32Array(table.terms.length);
  for (const d of forward) for (const id of d.termIds) df[id]++;
  const used: string[] = [];
  for (let id = 0; id < df.length; id++) if (df[id] > 0) used.push(table.terms[id]);
  const terms = used.sort();
  const rankOf = new Map<string, number>();
  for (let r = 0; r < terms.length; r++) rankOf.set(terms[r], r);
  const rank = new Int32Array(table.terms.length).fill(-1);
  for (let id = 0; id < df.length; id++) if (df[id] > 0) rank[id] = rankOf.get(table.terms[id])!;
  const termStart = new Uint32Array(terms.length + 1);
  for (let id = 0; id < df.length; id++) if (rank[id] >= 0) termStart[rank[id] + 1] = df[id];
  for (let r = 0; r < terms.length; r++) termStart[r + 1] += termStart[r];
  const total = termStart[terms.length];
  const postDoc = new Uint32Array(total);
  const postTf = new Uint8Array(total * 4);
  const cursor = termStart.slice(0, terms.length);
  const lengths = new Uint32Array(forward.length * 4);
  for (let d = 0; d < forward.length; d++) {
    const fd = forward[d];
    for (let f = 0; f < 4; f++) lengths[d * 4 + f] = fd.lengths[f];
    for (let j = 0; j < fd.termIds.length; j++) {
      const pos = cursor[rank[fd.termIds[j]]]++;
      postDoc[pos] = d;
      // four plain copies: a subarray per posting would allocate millions of views
      postTf[pos * 4] = fd.tfs[j * 4];
      postTf[pos * 4 + 1] = fd.tfs[j * 4 + 1];
      postTf[pos * 4 + 2] = fd.tfs[j * 4 + 2];
      postTf[pos * 4 + 3] = fd.tfs[j * 4 + 3];
    }
  }
  const docs = forward.map((f) => f.doc);
  // Kept apart, so the forward documents (their term ids and frequencies) can be collected.
  const bodies = forward.map((f) => f.body);
  return {
    size: docs.length,
    doc: (d) => docs[d],
    body: (d) => bodies[d],
    flags: Uint8Array.from(docs, docFlags),
    dateDays: Float64Array.from(docs, (doc) => dateDays(doc.date)),
    terms,
    termStart,
    postDoc,
    postTf,
    lengths,
    avgLengths: averageLengths(lengths, docs.length),
  };
}

/**
 * Turns documents of an existing index back into forward form (for an incremental update) without
 * re-tokenising them: one pass over the postings. `keep[d]` selects the documents; the result is
 * indexed by document number (undefined where not kept).
 */
export function explodeIndex(index: SearchIndex, keep: Uint8Array, table: TermTable): (ForwardDoc | undefined)[] {
  const n = index.size;
  index.prepare?.(index.terms.map((_, t) => t));
  const { postDoc, postTf, termStart, terms } = index;
  const count = new Uint32Array(n + 1);
  for (let p = 0; p < postDoc.length; p++) if (postDoc[p] < n && keep[postDoc[p]]) count[postDoc[p] + 1]++;
  for (let d = 0; d < n; d++) count[d + 1] += count[d];
  const ids = new Uint32Array(count[n]);
  const tfs = new Uint8Array(count[n] * 4);
  const cursor = count.slice(0, n);
  for (let t = 0; t < terms.length; t++) {
    let id = -1;
    for (let p = termStart[t]; p < termStart[t + 1]; p++) {
      const d = postDoc[p];
      if (d >= n || !keep[d]) continue;
      if (id < 0) id = table.intern(terms[t]);
      const pos = cursor[d]++;
      ids[pos] = id;
      tfs[pos * 4] = postTf[p * 4];
      tfs[pos * 4 + 1] = postTf[p * 4 + 1];
      tfs[pos * 4 + 2] = postTf[p * 4 + 2];
      tfs[pos * 4 + 3] = postTf[p * 4 + 3];
    }
  }
  const out: (ForwardDoc | undefined)[] = new Array(n);
  for (let d = 0; d < n; d++) {
    if (!keep[d]) continue;
    out[d] = {
      doc: index.doc(d),
      // read (and inflated) only if asked for: an update copies unchanged files' text blocks as stored
      get body() {
        return index.body(d);
      },
      termIds: ids.subarray(count[d], count[d + 1]),
      tfs: tfs.subarray(count[d] * 4, count[d + 1] * 4),
      lengths: index.lengths.subarray(d * 4, d * 4 + 4),
    };
  }
  return out;
}

/** An in-memory index of entries, in the given order. The pure entry point for `rankEntries`. */
export function buildIndex(entries: readonly KnowledgeEntry[]): SearchIndex {
  const table = new TermTable();
  return assembleIndex(
    entries.map((e) => tokenizeDoc(docFromEntry(e), indexedText(e.content), table)),
    table,
  );
}

import type { Corpus } from '@maestro/spec';
import { analyzeText } from './analyze.js';
import { makeView, type View } from './score.js';
import { exactKey, matchNormalize, refTrigrams } from './text.js';
import type { MatchableEntry } from './types.js';

export interface IndexedDoc {
  entry: MatchableEntry;
  /** `store:file`: the unit of the per-file match cap. */
  family: string;
  /** Computed on first use and kept: each document is analysed for scoring at most once. */
  view: View | null;
}

/**
 * Token postings (concept terms, alternative sets) over the active corpus, plus exact-content,
 * title and id maps. Built once per corpus state and cached on the entries array, so a command
 * that reconciles many candidates against one loaded corpus builds it once.
 */
export interface CorpusIndex {
  docs: IndexedDoc[];
  postings: Map<string, number[]>;
  byExact: Map<string, number[]>;
  byTitle: Map<string, number[]>;
  byId: Map<string, number>;
  /** Lazily built: title trigram postings, for candidates whose terms retrieve little. */
  titleGrams: Map<string, number[]> | null;
  /** Lazily built: id → docs whose supersedes / superseded-by / ref point at it. */
  links: Map<string, number[]> | null;
  scratch: Float64Array;
}

const cache = new WeakMap<object, CorpusIndex>();

function push(map: Map<string, number[]>, key: string, i: number) {
  const list = map.get(key);
  if (list) {
    if (list[list.length - 1] !== i) list.push(i);
  } else map.set(key, [i]);
}

export function entriesOf(corpus: Corpus | readonly MatchableEntry[]): readonly MatchableEntry[] {
  return Array.isArray(corpus) ? corpus : (corpus as Corpus).entries;
}

/** The index for a corpus state, built on first use. Deprecated entries are never indexed. */
export function corpusIndex(corpus: Corpus | readonly MatchableEntry[]): CorpusIndex {
  const entries = entriesOf(corpus);
  const hit = cache.get(entries);
  if (hit) return hit;
  const index = buildIndex(entries);
  cache.set(entries, index);
  return index;
}

function buildIndex(entries: readonly MatchableEntry[]): CorpusIndex {
  const index: CorpusIndex = {
    docs: [],
    postings: new Map(),
    byExact: new Map(),
    byTitle: new Map(),
    byId: new Map(),
    titleGrams: null,
    links: null,
    scratch: new Float64Array(0),
  };
  for (const entry of entries) {
    if ((entry.status ?? 'active') !== 'active' || !entry.content?.trim()) continue;
    const i = index.docs.length;
    index.docs.push({ entry, family: `${entry.store}:${entry.file ?? entry.id}`, view: null });
    index.byId.set(entry.id, i);
    push(index.byExact, `${entry.store}\u0000${exactKey(entry.content)}`, i);
    const title = matchNormalize(entry.title ?? '');
    if (title) push(index.byTitle, title, i);
    const body = analyzeText(entry.content);
    for (const key of body.slot.keys()) push(index.postings, key, i);
    for (const key of body.terms.keys()) push(index.postings, key, i);
    for (const key of analyzeText(entry.title ?? '').terms.keys()) push(index.postings, key, i);
  }
  index.scratch = new Float64Array(index.docs.length);
  return index;
}

export function docView(index: CorpusIndex, i: number): View {
  const doc = index.docs[i];
  doc.view ??= makeView(doc.entry.store, doc.entry.title ?? '', doc.entry.content);
  return doc.view;
}

export function titleGrams(index: CorpusIndex): Map<string, number[]> {
  if (index.titleGrams) return index.titleGrams;
  const map = new Map<string, number[]>();
  index.docs.forEach((d, i) => {
    for (const g of refTrigrams(matchNormalize(d.entry.title ?? ''))) push(map, g, i);
  });
  index.titleGrams = map;
  return map;
}

export function links(index: CorpusIndex): Map<string, number[]> {
  if (index.links) return index.links;
  const map = new Map<string, number[]>();
  const byFile = new Map<string, string>();
  for (const d of index.docs) if (d.entry.file) byFile.set(d.entry.file, d.entry.id);
  index.docs.forEach((d, i) => {
    const e = d.entry;
    for (const id of [...(e.supersedes ?? []), e.supersededBy ?? '']) if (id) push(map, id, i);
    const refId = e.ref ? (byFile.get(e.ref) ?? byFile.get(e.ref.replace(/^\.workflow\//, ''))) : undefined;
    if (refId) push(map, refId, i);
  });
  index.links = map;
  return map;
}

import type { Corpus } from '@maestro/spec';
import { fnvOn, notPaired, textKeys } from './index-keys.js';
import { makeView, type View } from './score.js';
import { exactKey, matchNormalize, refTrigrams } from './text.js';
import type { MatchableEntry } from './types.js';

export { indexTerms } from './index-keys.js';

export interface IndexedDoc {
  entry: MatchableEntry;
  /** `exactKey` of the content and normalised title (kept for the on-disk cache). */
  exact: string;
  titleKey: string;
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
  /** Lazily filled: term → rarity weight (see `rarityWeight`). */
  rarity?: Map<string, number>;
  /** Deprecated entries: `store NUL exactKey` → entry, and id → entry (to follow `superseded-by`). */
  retired: Map<string, MatchableEntry>;
  retiredById: Map<string, MatchableEntry>;
}

const cache = new WeakMap<object, CorpusIndex>();

/** A score per document, zero until first added to; `touched` lists documents in first-touch order. */
export interface ScoreBoard {
  touched: number[];
  get(i: number): number;
  add(i: number, w: number): void;
  /** Zeroes every touched document (the board is reused by the next candidate). */
  clear(): void;
}

/**
 * What the matcher reads of a corpus, whether held in memory (`CorpusIndex`) or read from the
 * derived-state store a few rows at a time. Documents are numbers in corpus order (files by name,
 * entries in file order), not necessarily dense: ties always break towards the lower number, so
 * any two sources numbering the same corpus in the same order give the same verdicts.
 */
export interface MatchIndex {
  /** Active documents: the n of document frequencies. */
  readonly size: number;
  /** How many documents a retrieval key indexes (0: none), without reading its postings. */
  count(key: string): number;
  postings(key: string): readonly number[] | undefined;
  /** Documents by `store NUL exactKey` and by normalised title. */
  byExact(key: string): readonly number[] | undefined;
  byTitle(titleKey: string): readonly number[] | undefined;
  byId(id: string): number | undefined;
  doc(i: number): IndexedDoc;
  /** Title trigram postings (for candidates whose terms retrieve little). */
  titleGrams(): ReadonlyMap<string, readonly number[]>;
  /** Documents whose supersedes / superseded-by / ref point at an id. */
  backLinks(id: string): readonly number[] | undefined;
  /** A deprecated entry by `store NUL exactKey`, and by id. */
  retired(key: string): MatchableEntry | undefined;
  retiredById(id: string): MatchableEntry | undefined;
  /** The score board of a retrieval, zeroed. */
  scores(): ScoreBoard;
  /** Term → rarity weight, filled by `rarityOf`. */
  readonly rarity: Map<string, number>;
  /**
   * Optional: a document's identity as `entryStamp` would give it (every field the matcher reads),
   * from what the index holds without reading its content. A traced match replays with it.
   */
  docStamp?(i: number): string;
}

const views = new WeakMap<CorpusIndex, MatchIndex>();

/** The `MatchIndex` view of an in-memory index (made once per index). */
export function memoryIndex(index: CorpusIndex): MatchIndex {
  const hit = views.get(index);
  if (hit) return hit;
  const board: ScoreBoard = {
    touched: [],
    get: (i) => index.scratch[i],
    add(i, w) {
      if (index.scratch[i] === 0) board.touched.push(i);
      index.scratch[i] += w;
    },
    clear() {
      for (const i of board.touched) index.scratch[i] = 0;
      board.touched = [];
    },
  };
  const view: MatchIndex = {
    size: index.docs.length,
    count: (key) => index.postings.get(key)?.length ?? 0,
    postings: (key) => index.postings.get(key),
    byExact: (key) => index.byExact.get(key),
    byTitle: (key) => index.byTitle.get(key),
    byId: (id) => index.byId.get(id),
    doc: (i) => index.docs[i],
    titleGrams: () => titleGrams(index),
    backLinks: (id) => links(index).get(id),
    retired: (key) => index.retired.get(key),
    retiredById: (id) => index.retiredById.get(id),
    scores() {
      board.clear();
      return board;
    },
    get rarity() {
      index.rarity ??= new Map();
      return index.rarity;
    },
  };
  views.set(index, view);
  return view;
}

export function isMatchIndex(x: unknown): x is MatchIndex {
  return typeof x === 'object' && x !== null && 'scores' in x && 'backLinks' in x;
}

export function asMatchIndex(index: CorpusIndex | MatchIndex): MatchIndex {
  return isMatchIndex(index) ? index : memoryIndex(index);
}

/** The matcher's view of any corpus form: entries (indexed on first use), an index, or a store-backed index. */
export function matchIndex(corpus: Corpus | readonly MatchableEntry[] | CorpusIndex | MatchIndex): MatchIndex {
  return isMatchIndex(corpus) ? corpus : memoryIndex(corpusIndex(corpus));
}

function push(map: Map<string, number[]>, key: string, i: number) {
  const list = map.get(key);
  if (list) {
    if (list[list.length - 1] !== i) list.push(i);
  } else map.set(key, [i]);
}

export function entriesOf(corpus: Corpus | readonly MatchableEntry[]): readonly MatchableEntry[] {
  return Array.isArray(corpus) ? corpus : (corpus as Corpus).entries;
}

export function isCorpusIndex(x: unknown): x is CorpusIndex {
  return typeof x === 'object' && x !== null && 'postings' in x && 'docs' in x;
}

/** The index for a corpus state, built on first use. Deprecated entries are never indexed. */
export function corpusIndex(corpus: Corpus | readonly MatchableEntry[] | CorpusIndex): CorpusIndex {
  if (isCorpusIndex(corpus)) return corpus;
  const entries = entriesOf(corpus);
  const hit = cache.get(entries);
  if (hit) return hit;
  const index = buildIndex(entries);
  cache.set(entries, index);
  return index;
}

/**
 * Builds the index; with `postings` (from a cache built for the same entries) the term pass is
 * skipped. `entries` must not be mutated afterwards: the index is cached on the array.
 */
export function buildIndex(
  entries: readonly MatchableEntry[],
  cached?: { postings: Map<string, number[]>; exact: readonly string[]; titles: readonly string[] },
): CorpusIndex {
  const index: CorpusIndex = {
    docs: [],
    postings: new Map(),
    byExact: new Map(),
    byTitle: new Map(),
    byId: new Map(),
    titleGrams: null,
    links: null,
    scratch: new Float64Array(0),
    retired: new Map(),
    retiredById: new Map(),
  };
  for (const entry of entries) {
    if ((entry.status ?? 'active') !== 'active' && entry.content?.trim()) {
      index.retired.set(`${entry.store}\u0000${exactKey(entry.content)}`, entry);
      index.retiredById.set(entry.id, entry);
    }
    if ((entry.status ?? 'active') !== 'active' || !entry.content?.trim()) continue;
    const i = index.docs.length;
    const exact = cached?.exact[i] ?? exactKey(entry.content);
    const title = cached?.titles[i] ?? matchNormalize(entry.title ?? '');
    index.docs.push({ entry, exact, titleKey: title, family: `${entry.store}:${entry.file ?? entry.id}`, view: null });
    index.byId.set(entry.id, i);
    push(index.byExact, `${entry.store}\u0000${exact}`, i);
    if (title) push(index.byTitle, title, i);
    if (!cached) for (const key of docKeys(entry)) push(index.postings, key, i);
  }
  if (cached) index.postings = cached.postings;
  index.scratch = new Float64Array(index.docs.length);
  cache.set(entries, index);
  return index;
}

export function docView(index: MatchIndex, i: number): View {
  const doc = index.doc(i);
  doc.view ??= makeView(doc.entry.store, doc.entry.title ?? '', doc.entry.content, doc.exact);
  return doc.view;
}

/** The retrieval keys an active document is indexed under: its terms, then its sketch pair keys. */
export function docKeys(entry: Pick<MatchableEntry, 'title' | 'content'>): string[] {
  // Content first: the sketch pairs terms in reading order, as a candidate's content does.
  return textKeys(`${entry.content}\n${entry.title ?? ''}`);
}

/** True when an entry is indexed for retrieval (active, with content). */
export function isIndexed(entry: Pick<MatchableEntry, 'status' | 'content'>): boolean {
  return (entry.status ?? 'active') === 'active' && Boolean(entry.content?.trim());
}

/** True when an entry is a deprecated one a candidate can restate (not active, with content). */
export function isRetired(entry: Pick<MatchableEntry, 'status' | 'content'>): boolean {
  return (entry.status ?? 'active') !== 'active' && Boolean(entry.content?.trim());
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

/** Below this many entries document frequencies say nothing: every term weighs 1. */
export const RARITY_MIN_DOCS = 100;

/**
 * How much a term shared with an entry says, by the share `p` of entries that contain it: 1 up to
 * 0.5 % of the corpus, falling to 0.1 at 10 % and beyond (a word that many entries use names no topic).
 */
export function rarityWeight(p: number): number {
  if (p <= 0.005) return 1;
  return Math.max(0.1, 1 - (0.9 * Math.log10(p / 0.005)) / Math.log10(20));
}

/** The rarity of terms in this corpus, or undefined for a corpus too small to tell. */
export function rarityOf(corpus: CorpusIndex | MatchIndex): ((term: string) => number) | undefined {
  const index = asMatchIndex(corpus);
  const n = index.size;
  if (n < RARITY_MIN_DOCS) return undefined;
  const memo = index.rarity;
  return (term) => {
    let w = memo.get(term);
    if (w === undefined) {
      w = rarityWeight(index.count(term) / n);
      memo.set(term, w);
    }
    return w;
  };
}

/**
 * For a candidate whose text is that of a deprecated entry: the deprecated entry and the active
 * end of its supersession chain (null when the chain ends nowhere active).
 */
export function retiredMatch(
  index: MatchIndex,
  store: string,
  exact: string,
): { old: MatchableEntry; successor: number } | null {
  const old = index.retired(`${store}\u0000${exact}`);
  if (!old) return null;
  let next = old.supersededBy ?? null;
  for (let hops = 0; next && hops < 16; hops++) {
    const i = index.byId(next);
    if (i !== undefined) return { old, successor: i };
    next = index.retiredById(next)?.supersededBy ?? null;
  }
  return null;
}

/**
 * Keys of the pairs of consecutive distinct terms (`k:<hash>`). A near-duplicate shares almost all
 * of its source's pairs even when every single word is common in the corpus, so each document
 * indexes only its few smallest pair hashes (a bottom-k sketch, see `textKeys`: a few postings
 * per document) and a candidate looks all of its pairs up.
 */
export function pairKeys(terms: Iterable<string>): string[] {
  return pairHashes(terms).map((h) => `k:${h}`);
}

function pairHashes(terms: Iterable<string>): number[] {
  const out: number[] = [];
  let prev: string | null = null;
  for (const t of terms) {
    if (notPaired(t)) continue;
    if (prev !== null) out.push(fnvOn(pairPrefix(prev), t));
    prev = t;
  }
  return out;
}

/** FNV-1a state after `<term> ` (the first half of a pair: `fnv("a b")` goes on from it), memoised per term. */
const prefixes = new Map<string, number>();
function pairPrefix(term: string): number {
  let h = prefixes.get(term);
  if (h === undefined) {
    h = fnvOn(fnvOn(0x811c9dc5, term), ' ');
    if (prefixes.size >= 200_000) prefixes.clear();
    prefixes.set(term, h);
  }
  return h;
}

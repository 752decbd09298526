import { createHash, type Hash } from 'node:crypto';
import type { IndexedDoc, MatchIndex, ScoreBoard } from './corpus-index.js';
import type { Match, MatchableEntry } from './types.js';

/**
 * One question a candidate's matching asked of the index: the size (`n`), a key's document
 * frequency (`c`) or postings (`p`), the documents by exact content (`e`), by title (`t`) or by
 * id (`i`), a document (`d`), a deprecated entry by exact content (`r`) or by id (`R`).
 */
export type TraceOp = ['n'] | ['c' | 'p' | 'e' | 't' | 'i' | 'r' | 'R', string] | ['d', number];

/** A candidate's matches with the questions they were worked out from and a digest of the answers. */
export interface MemoRow {
  trace: TraceOp[];
  digest: string;
  matches: Match[];
}

/**
 * Matches kept between commands. `get` returns what `put` stored under the key, or null; the
 * caller replays the trace before trusting it.
 */
export interface MatchMemo {
  get(key: string): MemoRow | null;
  put(key: string, row: MemoRow): void;
}

/** The identity of an entry as the matcher reads it (every field `matchOne` or `docView` uses). */
export function entryStamp(e: MatchableEntry | undefined): string {
  if (!e) return '';
  return JSON.stringify([
    e.id,
    e.store,
    e.title ?? null,
    e.contentHash ?? null,
    e.contentHash ? null : e.content,
    e.file ?? null,
    e.line ?? null,
    e.supersedes ?? [],
    e.supersededBy ?? null,
    e.ref ?? null,
    e.status ?? 'active',
  ]);
}

/** A document's stamp: the index's own when it has one (no content read), else from its entry. */
function docStamp(index: MatchIndex, i: number): string {
  return index.docStamp ? index.docStamp(i) : entryStamp(index.doc(i).entry);
}

function feedList(h: Hash, list: readonly number[] | undefined) {
  if (!list) {
    h.update('-;');
    return;
  }
  h.update(`${list.length}:`);
  h.update(new Uint8Array(Float64Array.from(list).buffer));
  h.update(';');
}

/** Feeds the answer to one question into the digest (the same bytes when recording and replaying). */
function answer(h: Hash, index: MatchIndex, op: TraceOp) {
  switch (op[0]) {
    case 'n':
      h.update(`n${index.size};`);
      return;
    case 'c':
      h.update(`c${index.count(op[1])};`);
      return;
    case 'p':
      feedList(h, index.postings(op[1]));
      return;
    case 'e':
      feedList(h, index.byExact(op[1]));
      return;
    case 't':
      feedList(h, index.byTitle(op[1]));
      return;
    case 'i':
      h.update(`i${index.byId(op[1]) ?? '-'};`);
      return;
    case 'd':
      h.update(`d${docStamp(index, op[1])};`);
      return;
    case 'r':
      h.update(`r${entryStamp(index.retired(op[1]))};`);
      return;
    case 'R':
      h.update(`R${entryStamp(index.retiredById(op[1]))};`);
      return;
  }
}

/**
 * The digest of the answers the index gives now to a recorded trace, or null when one of them
 * cannot be given (a changed file: the caller matches again and meets the same error).
 */
export function replayTrace(index: MatchIndex, trace: readonly TraceOp[]): string | null {
  const h = createHash('sha256');
  try {
    for (const op of trace) answer(h, index, op);
  } catch {
    return null;
  }
  return h.digest('hex');
}

/**
 * An index that records every question asked of it, each once, in the order first asked: what a
 * candidate's matches depend on. `matchOne` is a function of the candidate, the linked documents
 * and these answers only, so a later index giving the same answers gives the same matches.
 * Questions over the whole corpus (title trigrams, back-links) make the trace unreplayable.
 */
export class TracingIndex implements MatchIndex {
  readonly trace: TraceOp[] = [];
  /** False once a question was asked that a trace cannot replay. */
  replayable = true;
  /** Its own: a weight memoised by an earlier candidate must still be asked for (and recorded). */
  readonly rarity = new Map<string, number>();
  private readonly asked = new Set<string>();
  private readonly h = createHash('sha256');

  constructor(private readonly inner: MatchIndex) {}

  private ask(op: TraceOp) {
    const k = op.length === 1 ? 'n' : `${op[0]}${op[1]}`;
    if (this.asked.has(k)) return;
    this.asked.add(k);
    this.trace.push(op);
    answer(this.h, this.inner, op);
  }

  /** The digest of the answers recorded (call once, after matching). */
  digest(): string {
    return this.h.digest('hex');
  }

  get size(): number {
    this.ask(['n']);
    return this.inner.size;
  }

  count(key: string): number {
    this.ask(['c', key]);
    return this.inner.count(key);
  }

  postings(key: string): readonly number[] | undefined {
    this.ask(['p', key]);
    return this.inner.postings(key);
  }

  byExact(key: string): readonly number[] | undefined {
    this.ask(['e', key]);
    return this.inner.byExact(key);
  }

  byTitle(titleKey: string): readonly number[] | undefined {
    this.ask(['t', titleKey]);
    return this.inner.byTitle(titleKey);
  }

  byId(id: string): number | undefined {
    this.ask(['i', id]);
    return this.inner.byId(id);
  }

  doc(i: number): IndexedDoc {
    this.ask(['d', i]);
    return this.inner.doc(i);
  }

  titleGrams(): ReadonlyMap<string, readonly number[]> {
    this.replayable = false;
    return this.inner.titleGrams();
  }

  backLinks(id: string): readonly number[] | undefined {
    this.replayable = false;
    return this.inner.backLinks(id);
  }

  retired(key: string): MatchableEntry | undefined {
    this.ask(['r', key]);
    return this.inner.retired(key);
  }

  retiredById(id: string): MatchableEntry | undefined {
    this.ask(['R', id]);
    return this.inner.retiredById(id);
  }

  scores(): ScoreBoard {
    return this.inner.scores();
  }
}

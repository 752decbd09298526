import type { DerivedStore } from '@maestro/store';
import type { IndexedDoc, MatchIndex, ScoreBoard } from '../matcher/corpus-index.js';
import { exactKey, matchNormalize, refTrigrams } from '../matcher/text.js';
import type { MatchableEntry } from '../matcher/types.js';
import type { CorpusState } from '../receipt/fingerprint.js';
import {
  type DocRow,
  decode,
  type FileRow,
  keyHash,
  REF,
  SLOT,
  type TargetInfo,
  type TargetLookup,
} from './match-rows.js';

/** Where each file's entries start in corpus order, and whether the stored files are exactly this corpus state. */
export function ranks(store: DerivedStore, state: CorpusState): { layout: Numbering; current: boolean } {
  const rows = store.prepare('SELECT file_id, path, sha256, entries FROM match_files').all() as FileRow[];
  const byPath = new Map(rows.map((r) => [r.path, r]));
  const numbering: Numbering = { baseOf: new Map(), bases: [], files: [], pathOf: new Map(), total: 0 };
  let current = rows.length === state.states.length;
  for (const f of state.states) {
    const r = byPath.get(f.path);
    if (!r || r.sha256 !== f.sha256) {
      current = false;
      continue;
    }
    numbering.baseOf.set(r.file_id, numbering.total);
    numbering.bases.push(numbering.total);
    numbering.files.push(r.file_id);
    numbering.pathOf.set(r.file_id, r.path);
    numbering.total += r.entries;
  }
  return { layout: numbering, current };
}

/** The matcher's document numbers: file `files[r]` holds numbers `bases[r]` up to the next base. */
export interface Numbering {
  baseOf: Map<number, number>;
  bases: number[];
  files: number[];
  pathOf: Map<number, string>;
  total: number;
}

type EntryRow = Pick<
  DocRow,
  | 'key'
  | 'id'
  | 'store'
  | 'status'
  | 'title'
  | 'content'
  | 'line'
  | 'content_hash'
  | 'supersedes'
  | 'superseded_by'
  | 'ref'
>;
const ENTRY_COLUMNS = 'key, id, store, status, title, content, line, content_hash, supersedes, superseded_by, ref';

/**
 * The matcher's view of the stored rows: postings of the keys a candidate asks for, then the rows
 * of the documents it scores, each read once per process. Document numbers are positions in the
 * corpus (see `Numbering`), so ties break as in the in-memory index and verdicts are identical.
 */
export class StoreIndex implements MatchIndex {
  readonly size: number;
  readonly rarity = new Map<string, number>();
  private readonly docs = new Map<number, IndexedDoc>();
  private readonly counts = new Map<string, number>();
  private readonly lists = new Map<string, number[]>();
  private grams: Map<string, number[]> | null = null;
  private readonly board: ArrayBoard;
  private readonly generation: number;
  private readonly pathOfFile: ReadonlyMap<number, string>;

  constructor(
    private readonly store: DerivedStore,
    private readonly numbering: Numbering,
  ) {
    this.pathOfFile = numbering.pathOf;
    this.board = new ArrayBoard(numbering.total);
    this.generation = this.readGeneration();
    const row = store.prepare("SELECT value FROM match_meta WHERE name = 'active'").get() as
      | { value: number }
      | undefined;
    this.size = row?.value ?? 0;
  }

  private readGeneration(): number {
    const row = this.store.prepare("SELECT value FROM match_meta WHERE name = 'generation'").get() as
      | { value: number }
      | undefined;
    return row?.value ?? 0;
  }

  /** False once another process (or this one) has changed the section since this index was made. */
  current(): boolean {
    return this.store.db.open && this.readGeneration() === this.generation;
  }

  private order(key: number): number {
    return (this.numbering.baseOf.get(Math.floor(key / SLOT)) as number) + (key % SLOT);
  }

  /** The file (by rank) holding document `i`: the last base not above it. */
  private rankOf(i: number): number {
    const { bases } = this.numbering;
    let lo = 0;
    let hi = bases.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (bases[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private storeKey(i: number): number {
    const r = this.rankOf(i);
    return this.numbering.files[r] * SLOT + (i - this.numbering.bases[r]);
  }

  private entryOf(r: EntryRow): MatchableEntry {
    return {
      id: r.id,
      store: r.store,
      title: r.title,
      content: r.content,
      file: this.pathOfFile.get(Math.floor(r.key / SLOT)) as string,
      line: r.line,
      contentHash: r.content_hash,
      supersedes: JSON.parse(r.supersedes) as string[],
      supersededBy: r.superseded_by,
      ref: r.ref,
      status: r.status as MatchableEntry['status'],
    };
  }

  count(key: string): number {
    let n = this.counts.get(key);
    if (n === undefined) {
      const row = this.store.prepare('SELECT df FROM match_terms WHERE term = ?').get(key) as
        | { df: number }
        | undefined;
      n = row?.df ?? 0;
      this.counts.set(key, n);
    }
    return n;
  }

  postings(key: string): readonly number[] | undefined {
    if (this.count(key) === 0) return undefined;
    let list = this.lists.get(key);
    if (!list) {
      const row = this.store.prepare('SELECT docs FROM match_terms WHERE term = ?').get(key) as { docs: Buffer };
      list = decode(row.docs, (k) => this.order(k)).sort((a, b) => a - b);
      this.lists.set(key, list);
    }
    return list;
  }

  private keysWhere(sql: string, arg: unknown): number[] {
    return (this.store.prepare(sql).all(arg) as { key: number }[]).map((r) => this.order(r.key)).sort((a, b) => a - b);
  }

  byExact(key: string): readonly number[] | undefined {
    const cut = key.indexOf('\u0000');
    const [storeName, exact] = [key.slice(0, cut), key.slice(cut + 1)];
    const found = this.keysWhere('SELECT key FROM match_docs WHERE exact_hash = ? AND active = 1', keyHash(key)).filter(
      (i) => {
        const d = this.doc(i);
        return d.entry.store === storeName && d.exact === exact;
      },
    );
    return found.length ? found : undefined;
  }

  byTitle(titleKey: string): readonly number[] | undefined {
    if (!titleKey) return undefined;
    const found = this.keysWhere(
      'SELECT key FROM match_docs WHERE title_hash = ? AND active = 1',
      keyHash(titleKey),
    ).filter((i) => this.doc(i).titleKey === titleKey);
    return found.length ? found : undefined;
  }

  byId(id: string): number | undefined {
    const found = this.keysWhere('SELECT key FROM match_docs WHERE id = ? AND active = 1', id);
    return found.length ? found[found.length - 1] : undefined;
  }

  doc(i: number): IndexedDoc {
    let doc = this.docs.get(i);
    if (!doc) {
      const r = this.store.prepare(`SELECT ${ENTRY_COLUMNS} FROM match_docs WHERE key = ?`).get(this.storeKey(i)) as
        | EntryRow
        | undefined;
      if (!r) throw new Error(`the derived-state store has no document ${i}`);
      const entry = this.entryOf(r);
      doc = {
        entry,
        exact: exactKey(entry.content),
        titleKey: matchNormalize(entry.title ?? ''),
        family: `${entry.store}:${entry.file ?? entry.id}`,
        view: null,
      };
      this.docs.set(i, doc);
    }
    return doc;
  }

  titleGrams(): ReadonlyMap<string, readonly number[]> {
    if (this.grams) return this.grams;
    // Only for a candidate whose terms retrieve almost nothing: every active title, once per process.
    const rows = (this.store.prepare('SELECT key, title FROM match_docs WHERE active = 1').all() as DocRow[])
      .map((r) => ({ i: this.order(r.key), title: r.title }))
      .sort((a, b) => a.i - b.i);
    const map = new Map<string, number[]>();
    for (const { i, title } of rows) {
      for (const g of refTrigrams(matchNormalize(title))) {
        const list = map.get(g);
        if (!list) map.set(g, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
    this.grams = map;
    return map;
  }

  backLinks(id: string): readonly number[] | undefined {
    const out = this.keysWhere('SELECT key FROM match_links WHERE target = ?', id);
    // A ref names a file: it points at the last active entry of that file.
    const i = this.byId(id);
    if (i !== undefined) {
      const fid = this.numbering.files[this.rankOf(i)];
      const last = this.store
        .prepare('SELECT max(key) AS key FROM match_docs WHERE key >= ? AND key < ? AND active = 1')
        .get(fid * SLOT, (fid + 1) * SLOT) as { key: number | null };
      if (last.key === this.storeKey(i)) {
        const file = this.pathOfFile.get(fid) as string;
        for (const j of this.keysWhere('SELECT key FROM match_links WHERE target = ?', `${REF}${file}`)) {
          if (!out.includes(j)) out.push(j);
        }
      }
    }
    return out.length ? out.sort((a, b) => a - b) : undefined;
  }

  private retiredWhere(sql: string, arg: unknown, keep: (e: MatchableEntry) => boolean): MatchableEntry | undefined {
    const rows = (this.store.prepare(sql).all(arg) as EntryRow[])
      .map((r) => ({ i: this.order(r.key), e: this.entryOf(r) }))
      .filter((x) => keep(x.e))
      .sort((a, b) => a.i - b.i);
    return rows.length ? rows[rows.length - 1].e : undefined; // the last one wins, as in a Map
  }

  retired(key: string): MatchableEntry | undefined {
    return this.retiredWhere(
      `SELECT ${ENTRY_COLUMNS} FROM match_docs WHERE exact_hash = ? AND retired = 1`,
      keyHash(key),
      (e) => `${e.store}\u0000${exactKey(e.content)}` === key,
    );
  }

  retiredById(id: string): MatchableEntry | undefined {
    return this.retiredWhere(`SELECT ${ENTRY_COLUMNS} FROM match_docs WHERE id = ? AND retired = 1`, id, () => true);
  }

  scores(): ScoreBoard {
    this.board.clear();
    return this.board;
  }

  /** Every entry's facts by id (all statuses), read on demand. */
  targets(): TargetLookup {
    const memo = new Map<string, TargetInfo | undefined>();
    return {
      get: (id) => {
        if (memo.has(id)) return memo.get(id);
        const r = this.store
          .prepare(`SELECT ${ENTRY_COLUMNS} FROM match_docs WHERE id = ? ORDER BY key`)
          .all(id) as EntryRow[];
        const last = r.map((x) => ({ i: this.order(x.key), x })).sort((a, b) => a.i - b.i)[r.length - 1]?.x;
        const t = last
          ? {
              status: last.status,
              contentHash: last.content_hash,
              title: last.title,
              file: this.pathOfFile.get(Math.floor(last.key / SLOT)) as string,
              line: last.line,
              supersededBy: last.superseded_by,
            }
          : undefined;
        memo.set(id, t);
        return t;
      },
    };
  }

  /** Every entry's receipt hash, keyed by id in id order (`corpusEntryHashes` of all entries). */
  entryHashes(): Record<string, string> {
    const rows = this.store.prepare('SELECT id, entry_hash FROM match_docs INDEXED BY match_docs_id').all() as {
      id: string;
      entry_hash: string;
    }[];
    const byId = new Map(rows.map((r) => [r.id, r.entry_hash]));
    const out: Record<string, string> = {};
    for (const id of [...byId.keys()].sort()) out[id] = byId.get(id) as string;
    return out;
  }
}

/** Scores in one array over the corpus's document numbers (as the in-memory index keeps them). */
class ArrayBoard implements ScoreBoard {
  touched: number[] = [];
  private readonly scores: Float64Array;
  constructor(size: number) {
    this.scores = new Float64Array(size);
  }
  get(i: number): number {
    return this.scores[i];
  }
  add(i: number, w: number): void {
    if (this.scores[i] === 0) this.touched.push(i);
    this.scores[i] += w;
  }
  clear(): void {
    for (const i of this.touched) this.scores[i] = 0;
    this.touched = [];
  }
}

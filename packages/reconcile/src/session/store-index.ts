import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { knowhowIdFor } from '@maestro/spec';
import type { DerivedStore } from '@maestro/store';
import type { IndexedDoc, MatchIndex, ScoreBoard } from '../matcher/corpus-index.js';
import { exactKey, matchNormalize, refTrigrams } from '../matcher/text.js';
import type { MatchableEntry } from '../matcher/types.js';
import { vouchedEntryHashes } from '../receipt/io.js';
import { entryHash } from '../receipt/revalidate.js';
import type { EntryHashSource } from './entry-columns.js';
import { HashLookup } from './hash-lookup.js';
import {
  ACTIVE,
  type BodyColumns,
  type DirColumns,
  H_CHECK,
  H_ENTRY,
  H_EXACT,
  H_TITLE,
  HASH_BYTES,
  keyHash,
  RETIRED,
  strip,
  type TargetInfo,
  type TargetLookup,
} from './match-rows.js';
import { ArrayBoard, changed, type Numbering, orderedPostings } from './store-numbering.js';

export { type Numbering, ranks } from './store-numbering.js';

interface LoadedFile {
  fid: number;
  path: string;
  base: number;
  entries: number;
  hashes: Buffer;
  body: BodyColumns | null;
}

/**
 * The matcher's view of the stored rows. Every entry's identity (ids after the corpus-wide passes,
 * flags, links, hashes) is read once per process from the file rows; postings are read for the
 * keys a candidate asks for, and an entry's title and content only when it is scored or looked
 * up (the content from its file, by byte range, checked against its content hash). Document
 * numbers are positions in the corpus (see `Numbering`), so ties break as in the in-memory index
 * and verdicts are identical.
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
  private readonly files: LoadedFile[] = [];
  /** Per document (corpus position): its id after the passes, flags, links after the passes. */
  private readonly ids: string[];
  private readonly flags: Uint8Array;
  private readonly status: string[];
  private readonly sup: (string[] | 0)[];
  private readonly by: (string | 0)[];
  private readonly ref: (string | 0)[];
  /** Per document: the rank of its file. */
  private readonly rankAt: Uint32Array;
  private readonly byIdAll = new Map<string, number>();
  /** Documents whose successor was resolved to another id than their file says (their entry hash moves). */
  private readonly relinked = new Set<number>();
  private exactMap: HashLookup | null = null;
  private retiredMap: HashLookup | null = null;
  private titleMap: HashLookup | null = null;
  private linkMap: Map<string, number[]> | null = null;

  constructor(
    private readonly store: DerivedStore,
    private readonly layout: WorkflowLayout,
    private readonly numbering: Numbering,
  ) {
    this.board = new ArrayBoard(numbering.total);
    this.generation = this.readGeneration();
    const row = store.prepare("SELECT value FROM match_meta WHERE name = 'active'").get() as
      | { value: number }
      | undefined;
    this.size = row?.value ?? 0;
    const total = numbering.total;
    this.ids = new Array(total);
    this.flags = new Uint8Array(total);
    this.status = new Array(total);
    this.rankAt = new Uint32Array(total);
    this.sup = new Array(total);
    this.by = new Array(total);
    this.ref = new Array(total);
    const read = store.prepare('SELECT entries, dir, hashes FROM match_files WHERE file_id = ?');
    numbering.files.forEach((fid, rank) => {
      const r = read.get(fid) as { entries: number; dir: string; hashes: Buffer };
      const base = numbering.bases[rank];
      const d = JSON.parse(r.dir) as DirColumns;
      for (let p = 0; p < r.entries; p++) {
        this.ids[base + p] = d.id[p];
        this.flags[base + p] = d.flags[p];
        this.status[base + p] = d.status[p];
        this.rankAt[base + p] = rank;
        this.sup[base + p] = d.sup[p];
        this.by[base + p] = d.by[p];
        this.ref[base + p] = d.ref[p];
      }
      this.files.push({
        fid,
        path: numbering.pathOf.get(fid) as string,
        base,
        entries: r.entries,
        hashes: r.hashes,
        body: null,
      });
    });
    this.passes();
  }

  /**
   * The corpus-wide passes of `loadCorpus`: an id written twice keeps it on the first entry in
   * corpus order and later copies become `<id>~2`, `~3`...; a knowhow link that names no id but a
   * document's file stem reads as that document's id.
   */
  private passes() {
    const byId = this.byIdAll;
    for (let i = 0; i < this.ids.length; i++) {
      const id = this.ids[i];
      if (!byId.has(id)) {
        byId.set(id, i);
        continue;
      }
      let n = 2;
      while (byId.has(`${id}~${n}`)) n++;
      this.ids[i] = `${id}~${n}`;
      byId.set(this.ids[i], i);
    }
    const resolve = (v: string) => {
      if (byId.has(v)) return v;
      const id = knowhowIdFor(v.trim());
      const j = byId.get(id);
      return j !== undefined && this.storeOf(j) === 'knowhow' ? id : v;
    };
    const first = this.files.find((f) => f.path.startsWith('knowhow/'));
    if (!first) return;
    for (let i = first.base; i < this.ids.length; i++) {
      const by = this.by[i];
      if (by) {
        const to = resolve(by);
        if (to !== by) {
          this.by[i] = to;
          this.relinked.add(i);
        }
      }
      const sup = this.sup[i];
      if (sup) this.sup[i] = sup.map(resolve);
    }
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

  private fileOf(i: number): LoadedFile {
    return this.files[this.rankAt[i]];
  }

  private storeOf(i: number): 'spec' | 'knowhow' {
    return this.fileOf(i).path.startsWith('specs/') ? 'spec' : 'knowhow';
  }

  private hexAt(i: number, at: number): string {
    const f = this.fileOf(i);
    const o = (i - f.base) * HASH_BYTES + at;
    return f.hashes.toString('hex', o, o + 8);
  }

  private bodyOf(f: LoadedFile): BodyColumns {
    if (!f.body) {
      const r = this.store.prepare('SELECT body FROM match_files WHERE file_id = ?').get(f.fid) as { body: string };
      f.body = JSON.parse(r.body) as BodyColumns;
    }
    return f.body;
  }

  /** An entry's content: inline, or read back from its file and checked against its content hash. */
  private contentOf(i: number): { content: string; hash: string } {
    const f = this.fileOf(i);
    const p = i - f.base;
    const body = this.bodyOf(f);
    let content = body.inline[p];
    if (content === undefined) {
      const len = body.len[p];
      const buf = Buffer.alloc(len);
      if (len > 0) {
        const abs = join(this.layout.workflow, f.path);
        let fd: number;
        try {
          fd = openSync(abs, 'r');
        } catch (err) {
          throw changed(f.path, err);
        }
        try {
          let got = 0;
          while (got < len) {
            const n = readSync(fd, buf, got, len - got, body.at[p] + got);
            if (n === 0) break;
            got += n;
          }
        } finally {
          closeSync(fd);
        }
      }
      content = buf.toString('utf8');
    }
    const hash = contentHash(content);
    if (hash.slice(0, 16) !== this.hexAt(i, H_CHECK)) throw changed(f.path);
    return { content, hash };
  }

  private entryAt(i: number): MatchableEntry {
    const f = this.fileOf(i);
    const p = i - f.base;
    const body = this.bodyOf(f);
    const { content, hash } = this.contentOf(i);
    const sup = this.sup[i];
    return {
      id: this.ids[i],
      store: this.storeOf(i),
      title: body.title[p],
      content,
      file: f.path,
      line: body.line[p] || null,
      contentHash: hash,
      supersedes: sup ? [...sup] : [],
      supersededBy: this.by[i] || null,
      ref: this.ref[i] || null,
      status: this.status[i] as MatchableEntry['status'],
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
      list = orderedPostings(row.docs, this.numbering);
      this.lists.set(key, list);
    }
    return list;
  }

  /** Documents with `flag` by one of their 6-byte lookup hashes, in corpus order. */
  private hashMap(at: number, flag: number): HashLookup {
    return new HashLookup(this.files, HASH_BYTES, at, (i) => (this.flags[i] & flag) !== 0);
  }

  byExact(key: string): readonly number[] | undefined {
    const cut = key.indexOf('\u0000');
    const [storeName, exact] = [key.slice(0, cut), key.slice(cut + 1)];
    this.exactMap ??= this.hashMap(H_EXACT, ACTIVE);
    const found = this.exactMap.get(keyHash(key)).filter((i) => {
      const d = this.doc(i);
      return d.entry.store === storeName && d.exact === exact;
    });
    return found.length ? found : undefined;
  }

  byTitle(titleKey: string): readonly number[] | undefined {
    if (!titleKey) return undefined;
    this.titleMap ??= this.hashMap(H_TITLE, ACTIVE);
    const found = this.titleMap.get(keyHash(titleKey)).filter((i) => this.doc(i).titleKey === titleKey);
    return found.length ? found : undefined;
  }

  byId(id: string): number | undefined {
    const i = this.byIdAll.get(id);
    return i !== undefined && this.flags[i] & ACTIVE ? i : undefined;
  }

  doc(i: number): IndexedDoc {
    let doc = this.docs.get(i);
    if (!doc) {
      if (!(i >= 0 && i < this.flags.length)) throw new Error(`the derived-state store has no document ${i}`);
      const entry = this.entryAt(i);
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

  /**
   * A document's identity from the columns, without reading its content: id, store, title,
   * content check and stored entry hash (the content hash is behind both), file, line, links
   * after the corpus-wide passes and status.
   */
  docStamp(i: number): string {
    if (!(i >= 0 && i < this.flags.length)) throw new Error(`the derived-state store has no document ${i}`);
    const f = this.fileOf(i);
    const p = i - f.base;
    const body = this.bodyOf(f);
    return JSON.stringify([
      'store',
      this.ids[i],
      this.storeOf(i),
      body.title[p],
      this.hexAt(i, H_CHECK),
      this.hexAt(i, H_ENTRY),
      f.path,
      body.line[p] || null,
      this.sup[i] || [],
      this.by[i] || null,
      this.ref[i] || null,
      this.status[i],
    ]);
  }

  titleGrams(): ReadonlyMap<string, readonly number[]> {
    if (this.grams) return this.grams;
    // Only for a candidate whose terms retrieve almost nothing: every active title, once per process.
    const map = new Map<string, number[]>();
    for (const f of this.files) {
      const body = this.bodyOf(f);
      for (let p = 0; p < f.entries; p++) {
        const i = f.base + p;
        if (!(this.flags[i] & ACTIVE)) continue;
        for (const g of refTrigrams(matchNormalize(body.title[p] ?? ''))) {
          const list = map.get(g);
          if (!list) map.set(g, [i]);
          else if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
    this.grams = map;
    return map;
  }

  /** The back-links of the in-memory index (`links`), over the active documents in corpus order. */
  backLinks(id: string): readonly number[] | undefined {
    if (!this.linkMap) {
      const map = new Map<string, number[]>();
      const push = (key: string, i: number) => {
        const list = map.get(key);
        if (list) {
          if (list[list.length - 1] !== i) list.push(i);
        } else map.set(key, [i]);
      };
      const byFile = new Map<string, string>();
      for (const f of this.files) {
        for (let i = f.base + f.entries - 1; i >= f.base; i--) {
          if (this.flags[i] & ACTIVE) {
            byFile.set(f.path, this.ids[i]);
            break;
          }
        }
      }
      for (let i = 0; i < this.flags.length; i++) {
        if (!(this.flags[i] & ACTIVE)) continue;
        const sup = this.sup[i];
        for (const t of [...(sup || []), this.by[i] || '']) if (t) push(t, i);
        const ref = this.ref[i];
        const refId = ref ? (byFile.get(ref) ?? byFile.get(strip(ref))) : undefined;
        if (refId) push(refId, i);
      }
      this.linkMap = map;
    }
    return this.linkMap.get(id);
  }

  retired(key: string): MatchableEntry | undefined {
    const cut = key.indexOf('\u0000');
    const [storeName, exact] = [key.slice(0, cut), key.slice(cut + 1)];
    this.retiredMap ??= this.hashMap(H_EXACT, RETIRED);
    let last: MatchableEntry | undefined;
    for (const i of this.retiredMap.get(keyHash(key))) {
      const e = this.entryAt(i);
      if (e.store === storeName && exactKey(e.content) === exact) last = e; // the last one wins, as in a Map
    }
    return last;
  }

  retiredById(id: string): MatchableEntry | undefined {
    const i = this.byIdAll.get(id);
    return i !== undefined && this.flags[i] & RETIRED ? this.entryAt(i) : undefined;
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
        const i = this.byIdAll.get(id);
        let t: TargetInfo | undefined;
        if (i !== undefined) {
          const e = this.entryAt(i);
          t = {
            status: e.status as string,
            contentHash: e.contentHash as string,
            title: e.title,
            file: e.file as string,
            line: e.line ?? null,
            supersededBy: e.supersededBy ?? null,
          };
        }
        memo.set(id, t);
        return t;
      },
    };
  }

  /** Every entry's receipt hash, keyed by id in id order (`corpusEntryHashes` of all entries). */
  entryHashes(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const id of [...this.byIdAll.keys()].sort()) {
      const i = this.byIdAll.get(id) as number;
      out[id] = this.relinked.has(i) ? this.relinkedHash(i) : this.hexAt(i, H_ENTRY);
    }
    return vouchedEntryHashes(out);
  }

  /** Every entry's receipt hash as 8 bytes, by document number (`columnsDelta` compares them). */
  entryHashSource(): EntryHashSource {
    return {
      size: this.ids.length,
      positionOf: (id) => this.byIdAll.get(id),
      idAt: (i) => this.ids[i],
      hashAt: (i) => {
        if (this.relinked.has(i)) return { buf: Buffer.from(this.relinkedHash(i), 'hex'), at: 0 };
        const f = this.fileOf(i);
        return { buf: f.hashes, at: (i - f.base) * HASH_BYTES + H_ENTRY };
      },
    };
  }

  /** The hash of an entry whose successor link was resolved here (not the one stored with its file). */
  private relinkedHash(i: number): string {
    const e = this.entryAt(i);
    return entryHash({
      status: e.status as string,
      contentHash: e.contentHash as string,
      title: e.title,
      file: e.file as string,
      supersededBy: e.supersededBy ?? null,
    });
  }
}

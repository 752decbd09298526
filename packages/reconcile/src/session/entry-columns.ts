import { columnsInRecordOrder } from '../receipt/entry-text.js';
import type { CorpusDelta } from '../schemas.js';

/** A receipt's `corpus_entries` as columns: ids in the recorded order, 8 bytes of hash each. */
export interface EntryColumns {
  ids: string[];
  hashes: Buffer;
}

export function entryColumns(record: Readonly<Record<string, string>>): EntryColumns {
  const ids = Object.keys(record);
  const hashes = Buffer.alloc(ids.length * 8);
  for (let k = 0; k < ids.length; k++) hashes.write(record[ids[k]], k * 8, 8, 'hex');
  return { ids, hashes };
}

export function entryRecord(cols: EntryColumns): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < cols.ids.length; k++) out[cols.ids[k]] = cols.hashes.toString('hex', k * 8, k * 8 + 8);
  return out;
}

/** The current entries as `columnsDelta` reads them: by position, with a lookup by id. */
export interface EntryHashSource {
  /** Positions are 0 .. size - 1, one entry each. */
  size: number;
  positionOf(id: string): number | undefined;
  idAt(i: number): string;
  /** Where the 8 bytes of the entry's hash are: `buf[at .. at + 8]`. */
  hashAt(i: number): { buf: Buffer; at: number };
}

/**
 * `corpusDelta` from recorded columns to the current entries, comparing hash bytes: no object of
 * 100,000 members on either side. Ids are unique on each side; the lists come back sorted.
 */
export function columnsDelta(
  before: EntryColumns,
  now: EntryHashSource,
  positions: Int32Array | null = null,
): CorpusDelta {
  const seen = new Uint8Array(now.size);
  const delta: CorpusDelta = { added: [], changed: [], removed: [] };
  for (let k = 0; k < before.ids.length; k++) {
    const id = before.ids[k];
    const i = now.positionOf(id);
    if (positions) positions[k] = i ?? -1;
    if (i === undefined) {
      delta.removed.push(id);
      continue;
    }
    seen[i] = 1;
    const { buf, at } = now.hashAt(i);
    const o = k * 8;
    const h = before.hashes;
    // Eight bytes compared as two words (a call into Buffer.compare per entry costs more).
    if (buf.readUInt32BE(at) !== h.readUInt32BE(o) || buf.readUInt32BE(at + 4) !== h.readUInt32BE(o + 4)) {
      delta.changed.push(id);
    }
  }
  for (let i = 0; i < seen.length; i++) if (!seen[i]) delta.added.push(now.idAt(i));
  for (const list of Object.values(delta)) list.sort();
  return delta;
}

/**
 * The current entries' hashes as columns in id order, from recorded columns in id order and the
 * delta `columnsDelta` found from them (`positions`: where each recorded id is now, -1 when
 * removed): the kept ids merged with the added ones, so no sort of every id. Null when the
 * recorded ids are not in the order a record of them would keep (then sort the current ids).
 */
export function columnsAfter(
  before: EntryColumns,
  delta: CorpusDelta,
  positions: Int32Array,
  now: EntryHashSource,
): EntryColumns | null {
  if (!columnsInRecordOrder(before.ids) || !columnsInRecordOrder(delta.added)) return null;
  const { added } = delta;
  const n = before.ids.length - delta.removed.length + added.length;
  const ids: string[] = new Array(n);
  const hashes = Buffer.alloc(n * 8);
  let out = 0;
  const put = (id: string, i: number) => {
    copyHash(now, i, hashes, out * 8);
    ids[out++] = id;
  };
  let a = 0;
  const putAdded = () => {
    const id = added[a++];
    const i = now.positionOf(id);
    if (i === undefined) throw new Error(`entry ${id} added since the receipt is not in the corpus`);
    put(id, i);
  };
  for (let k = 0; k < before.ids.length; k++) {
    const i = positions[k];
    if (i < 0) continue;
    const id = before.ids[k];
    while (a < added.length && added[a] < id) putAdded();
    put(id, i);
  }
  while (a < added.length) putAdded();
  return out === n ? { ids, hashes } : null;
}

/** Every current entry's hash as columns in id order (the sort `columnsAfter` avoids). */
export function sortedColumns(now: EntryHashSource): EntryColumns {
  const ids: string[] = new Array(now.size);
  for (let i = 0; i < now.size; i++) ids[i] = now.idAt(i);
  ids.sort();
  const hashes = Buffer.alloc(ids.length * 8);
  for (let k = 0; k < ids.length; k++) {
    copyHash(now, now.positionOf(ids[k]) as number, hashes, k * 8);
  }
  return { ids, hashes };
}

/** Copies entry `i`'s 8 hash bytes to `to[o ..]`, as two words (a `Buffer.copy` per entry costs more). */
function copyHash(now: EntryHashSource, i: number, to: Buffer, o: number): void {
  const { buf, at } = now.hashAt(i);
  to.writeUInt32BE(buf.readUInt32BE(at), o);
  to.writeUInt32BE(buf.readUInt32BE(at + 4), o + 4);
}

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
export function columnsDelta(before: EntryColumns, now: EntryHashSource): CorpusDelta {
  const seen = new Uint8Array(now.size);
  const delta: CorpusDelta = { added: [], changed: [], removed: [] };
  for (let k = 0; k < before.ids.length; k++) {
    const id = before.ids[k];
    const i = now.positionOf(id);
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

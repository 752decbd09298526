import { describe, expect, it } from 'vitest';
import { columnsAfter, columnsDelta, entryColumns, entryRecord, sortedColumns } from '../session/entry-columns.js';
import { columnsInRecordOrder, columnsJson, entryColumnsOf, lazyEntryColumns } from './entry-text.js';

const hex = (n: number) => n.toString(16).padStart(16, '0');

/** The current side of a delta, from a record, positions in a shuffled order. */
function sourceOf(after: Record<string, string>) {
  const ids = Object.keys(after).sort((a, b) => (a.length % 3) - (b.length % 3) || (a < b ? 1 : -1));
  const cols = entryColumns(after);
  const at = new Map(cols.ids.map((id, k) => [id, k * 8]));
  const pos = new Map(ids.map((id, i) => [id, i]));
  return {
    size: ids.length,
    positionOf: (id: string) => pos.get(id),
    idAt: (i: number) => ids[i],
    hashAt: (i: number) => ({ buf: cols.hashes, at: at.get(ids[i]) as number }),
  };
}

describe('entry hashes as columns', () => {
  it('columnsAfter merges the kept and added ids into what sorting every current id gives', () => {
    const before: Record<string, string> = {};
    const after: Record<string, string> = {};
    for (let i = 0; i < 400; i++) {
      if (i % 7 !== 0) before[`S-${String(i).padStart(3, '0')}`] = hex(i);
      if (i % 11 !== 0) after[`S-${String(i).padStart(3, '0')}`] = hex(i % 13 === 0 ? i + 1 : i);
    }
    after['S-zz'] = hex(9); // added after every kept id
    after['A-first'] = hex(8); // and before them
    const cols = entryColumns(before);
    const source = sourceOf(after);
    const positions = new Int32Array(cols.ids.length);
    const delta = columnsDelta(cols, source, positions);
    expect(delta.added.length + delta.changed.length + delta.removed.length).toBeGreaterThan(50);
    const merged = columnsAfter(cols, delta, positions, source);
    const sorted = sortedColumns(source);
    expect(merged?.ids).toEqual(sorted.ids);
    expect(merged?.hashes.equals(sorted.hashes)).toBe(true);
    expect(entryRecord(sorted)).toEqual(
      Object.fromEntries(
        Object.keys(after)
          .sort()
          .map((id) => [id, after[id]]),
      ),
    );
  });

  it('declines recorded ids out of order or that a record would reorder (array indexes)', () => {
    expect(columnsInRecordOrder(['S-1', 'S-2'])).toBe(true);
    expect(columnsInRecordOrder(['S-2', 'S-1'])).toBe(false);
    expect(columnsInRecordOrder(['S-1', 'S-1'])).toBe(false);
    expect(columnsInRecordOrder(['10', 'S-1'])).toBe(false);
    const before = { 'S-b': hex(1), 'S-a': hex(2) }; // a receipt written by another tool, unsorted
    const cols = entryColumns(before);
    const source = sourceOf(before);
    const positions = new Int32Array(2);
    expect(columnsAfter(cols, columnsDelta(cols, source, positions), positions, source)).toBeNull();
  });

  it('columnsJson writes the bytes JSON.stringify gives the record inside a receipt', () => {
    const cases: Record<string, string>[] = [
      {},
      { 'S-1': hex(1) },
      { 'K-"quoted"': hex(2), 'K-back\\slash': hex(3), 'K-newline\n': hex(4), 'K-中文': hex(5), 'S-\u0001': hex(6) },
    ];
    for (const record of cases) {
      const sorted = Object.fromEntries(
        Object.keys(record)
          .sort()
          .map((id) => [id, record[id]]),
      );
      const cols = entryColumns(sorted);
      expect(columnsInRecordOrder(cols.ids)).toBe(true);
      const plain = JSON.stringify({ a: 1, corpus_entries: sorted, z: [2] }, null, 2);
      const mark = JSON.stringify({ a: 1, corpus_entries: 'M', z: [2] }, null, 2);
      expect(mark.replace('"corpus_entries": "M"', `"corpus_entries": ${columnsJson(cols)}`)).toBe(plain);
    }
  });

  it('hands out the columns only while corpus_entries is unread and unreplaced', () => {
    const cols = entryColumns({ 'S-1': hex(1), 'S-2': hex(2) });
    const read: Record<string, unknown> = {};
    lazyEntryColumns(read, () => cols);
    expect(entryColumnsOf(read)).toBe(cols);
    expect(read.corpus_entries).toEqual({ 'S-1': hex(1), 'S-2': hex(2) });
    expect(entryColumnsOf(read)).toBeNull();
    const replaced: Record<string, unknown> = {};
    lazyEntryColumns(replaced, () => cols);
    replaced.corpus_entries = { 'S-9': hex(9) };
    expect(entryColumnsOf(replaced)).toBeNull();
    expect(replaced.corpus_entries).toEqual({ 'S-9': hex(9) });
    expect(Object.keys(replaced)).toEqual(['corpus_entries']);
  });
});

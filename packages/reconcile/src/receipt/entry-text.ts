/**
 * A receipt's `corpus_entries` kept as columns (ids ascending, 8 bytes of hash each) until it is
 * read: a refreshed receipt of a 100,000-entry corpus is written from the columns directly, never
 * through an object of 100,000 members (building it, then serialising it, then taking it apart
 * again for the receipt memo).
 */
export interface HashColumns {
  ids: string[];
  hashes: Buffer;
}

/** Lazy `corpus_entries` getters defined by `lazyEntryColumns`, with the columns they stand for. */
const pending = new WeakMap<object, () => HashColumns>();

/** An id JSON would move ahead of the others (an array index): the columns' order would not be the record's. */
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;

function record(cols: HashColumns): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < cols.ids.length; k++) out[cols.ids[k]] = cols.hashes.toString('hex', k * 8, k * 8 + 8);
  return out;
}

/**
 * Defines `corpus_entries` on `obj` as the record of `columns()` (built on first read, then a plain
 * value). Until it is read, `entryColumnsOf` hands out the columns instead. `columns` must give ids
 * in ascending order (`<`), unique, none an array index, and 16-hex hashes by construction.
 */
export function lazyEntryColumns(obj: object, columns: () => HashColumns): void {
  let cols: HashColumns | null = null;
  const once = () => {
    cols ??= columns();
    return cols;
  };
  const settle = (value: unknown) =>
    Object.defineProperty(obj, 'corpus_entries', { value, enumerable: true, writable: true, configurable: true });
  const get = () => {
    const value = record(once());
    settle(value);
    return value;
  };
  pending.set(get, once);
  Object.defineProperty(obj, 'corpus_entries', { enumerable: true, configurable: true, get, set: settle });
}

/** The columns of a `corpus_entries` defined by `lazyEntryColumns` and not read or replaced since, else null. */
export function entryColumnsOf(obj: object): HashColumns | null {
  const get = Object.getOwnPropertyDescriptor(obj, 'corpus_entries')?.get;
  const cols = get ? pending.get(get) : undefined;
  return cols ? cols() : null;
}

/** True when columns can stand for a record in this order: ids ascending and unique, none an array index. */
export function columnsInRecordOrder(ids: readonly string[]): boolean {
  for (let k = 0; k < ids.length; k++) {
    if (k > 0 && !(ids[k - 1] < ids[k])) return false;
    if (ARRAY_INDEX.test(ids[k])) return false;
  }
  return true;
}

/**
 * The text `JSON.stringify(record, null, 2)` gives the record of these columns as a member of a
 * top-level object (its members indented by 4, the closing brace by 2).
 */
export function columnsJson(cols: HashColumns): string {
  if (cols.ids.length === 0) return '{}';
  const hex = cols.hashes.toString('hex');
  const lines: string[] = new Array(cols.ids.length);
  for (let k = 0; k < cols.ids.length; k++) {
    lines[k] = `    ${JSON.stringify(cols.ids[k])}: "${hex.slice(k * 16, k * 16 + 16)}"`;
  }
  return `{\n${lines.join(',\n')}\n  }`;
}

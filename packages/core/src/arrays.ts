/**
 * `out.push(...items)` without the spread: a spread passes every item as a call argument, and a
 * few hundred thousand of them (the units of a 1 MB document, the findings of a large corpus)
 * overflow the stack. Use this wherever the items are data, not a fixed handful.
 */
export function appendAll<T>(out: T[], items: Iterable<T>): T[] {
  for (const item of items) out.push(item);
  return out;
}

/** The largest of `values`, or `floor` when there is none or all are smaller (no spread; see `appendAll`). */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}

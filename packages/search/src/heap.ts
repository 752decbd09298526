/**
 * A binary heap of candidate positions (indices into parallel `docs` / `scores` arrays), ordered
 * by score, then by document number (corpus order: file, then position) so that equal scores
 * always come out in the same order. Typed arrays rather than objects: a common word can match
 * most of a 100k corpus, and one object per match would be most of a query's cost.
 */
export class CandidateHeap {
  private readonly heap: Int32Array;
  size = 0;
  /** How many positions it can hold. */
  readonly capacity: number;

  constructor(
    private readonly docs: Int32Array,
    private readonly scores: Float64Array,
    capacity: number,
    /** true: the best candidate is on top; false: the worst (for keeping the best k). */
    private readonly bestFirst: boolean,
  ) {
    this.capacity = Math.max(0, capacity);
    this.heap = new Int32Array(this.capacity);
  }

  /** True when position a ranks above position b. */
  better(a: number, b: number): boolean {
    const sa = this.scores[a];
    const sb = this.scores[b];
    return sa > sb || (sa === sb && this.docs[a] < this.docs[b]);
  }

  private before(a: number, b: number): boolean {
    return this.bestFirst ? this.better(a, b) : this.better(b, a);
  }

  peek(): number {
    return this.heap[0];
  }

  push(i: number): void {
    const h = this.heap;
    let at = this.size++;
    h[at] = i;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.before(h[at], h[parent])) break;
      [h[parent], h[at]] = [h[at], h[parent]];
      at = parent;
    }
  }

  replaceTop(i: number): void {
    this.heap[0] = i;
    this.siftDown(0);
  }

  pop(): number {
    const h = this.heap;
    const top = h[0];
    this.size--;
    if (this.size > 0) {
      h[0] = h[this.size];
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let first = i;
      if (l < this.size && this.before(h[l], h[first])) first = l;
      if (r < this.size && this.before(h[r], h[first])) first = r;
      if (first === i) return;
      [h[first], h[i]] = [h[i], h[first]];
      i = first;
    }
  }
}

/** Empties a worst-first heap: its positions, best first. */
export function drainBestFirst(heap: CandidateHeap): number[] {
  const out = new Array<number>(heap.size);
  for (let j = out.length - 1; j >= 0; j--) out[j] = heap.pop();
  return out;
}

import type { Statement } from '@maestro/store';
import { decode, encode } from './match-rows.js';

/** The statements term ids and postings are read and written with. */
export interface TermStmts {
  termByName: Statement;
  maxTerm: Statement;
  insertTerm: Statement;
  termPostings: Statement;
  setTermPostings: Statement;
}

/** Term ids of one transaction: stored ones looked up, new ones numbered on and inserted at the end. */
export class Terms {
  private readonly ids = new Map<string, number>();
  readonly fresh = new Map<number, string>();
  private next: number;
  constructor(private readonly s: TermStmts) {
    this.next = (s.maxTerm.get() as { n: number }).n + 1;
  }
  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id !== undefined) return id;
    const row = this.s.termByName.get(term) as { term_id: number } | undefined;
    if (row) id = row.term_id;
    else {
      id = this.next++;
      this.fresh.set(id, term);
    }
    this.ids.set(term, id);
    return id;
  }
}

/** Postings changes of one transaction, applied term by term at the end. */
export class PostingsDelta {
  /** Change in the number of active documents. */
  active = 0;
  /** By term id: keys to add, keys to remove. */
  readonly add: (number[] | undefined)[] = [];
  readonly remove: (Set<number> | undefined)[] = [];
  added(termId: number, key: number) {
    const list = this.add[termId];
    if (list) list.push(key);
    else this.add[termId] = [key];
  }
  removed(termId: number, key: number) {
    const set = this.remove[termId];
    if (set) set.add(key);
    else this.remove[termId] = new Set([key]);
  }
  apply(s: TermStmts, terms: Terms) {
    const touched = new Set<number>();
    this.add.forEach((_, id) => {
      touched.add(id);
    });
    this.remove.forEach((_, id) => {
      touched.add(id);
    });
    for (const id of touched) {
      const more = this.add[id];
      more?.sort((a, b) => a - b);
      const term = terms.fresh.get(id);
      if (term !== undefined) {
        if (more) s.insertTerm.run(id, term, more.length, encode(more));
        continue;
      }
      const row = s.termPostings.get(id) as { df: number; docs: Buffer };
      const gone = this.remove[id];
      let list = decode(row.docs);
      if (gone) list = list.filter((k) => !gone.has(k));
      if (more) list = merge(list, more);
      s.setTermPostings.run(list.length, encode(list), id);
    }
  }
}

/** Two ascending lists as one. */
function merge(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) out.push(a[i] <= b[j] ? a[i++] : b[j++]);
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}

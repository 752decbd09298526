import { environmentError } from '@maestro/core';
import type { DerivedStore } from '@maestro/store';
import type { ScoreBoard } from '../matcher/corpus-index.js';
import type { CorpusState } from '../receipt/fingerprint.js';
import type { FileRow } from './match-rows.js';

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

/** A corpus file that changed while its stored rows were being read. */
export function changed(path: string, cause?: unknown) {
  return environmentError('CORPUS_CHANGED', `.workflow/${path} changed while maestro was reading the corpus`, {
    hint: 'rerun the command (another program wrote the file meanwhile)',
    cause,
  });
}

/** Scores in one array over the corpus's document numbers (as the in-memory index keeps them). */
export class ArrayBoard implements ScoreBoard {
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

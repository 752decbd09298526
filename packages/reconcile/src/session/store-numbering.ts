import { environmentError } from '@maestro/core';
import type { DerivedStore } from '@maestro/store';
import type { ScoreBoard } from '../matcher/corpus-index.js';
import type { CorpusState } from '../receipt/fingerprint.js';
import { type FileRow, SLOT } from './match-rows.js';

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

/** A postings blob as document numbers, ascending (store keys are in file-id order, numbers in corpus order). */
export function orderedPostings(buf: Uint8Array, numbering: Numbering): number[] {
  const out: number[] = [];
  let prev = 0;
  let v = 0;
  let scale = 1;
  let fid = -1;
  let base = 0;
  let sorted = true;
  let last = -1;
  for (let i = 0; i < buf.length; i++) {
    const b = buf[i];
    v += (b & 127) * scale;
    if (b & 128) {
      scale *= 128;
      continue;
    }
    prev += v;
    v = 0;
    scale = 1;
    const f = Math.floor(prev / SLOT);
    if (f !== fid) {
      fid = f;
      base = numbering.baseOf.get(f) as number;
    }
    const n = base + (prev - f * SLOT);
    if (n < last) sorted = false;
    last = n;
    out.push(n);
  }
  return sorted ? out : out.sort((a, b) => a - b);
}

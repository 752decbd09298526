import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type ForwardDoc, fieldTexts, type TermTable, tokenizeFields } from './build.js';
import { ForwardChunks } from './forward-chunks.js';
import type { IndexDoc } from './model.js';

/** sha256 over everything the index stores for a file's entries, so equal hashes mean equal documents. */
export function docsHash(docs: readonly IndexDoc[], bodies: readonly string[]): string {
  return docsHashJson(
    docs.map((d) => JSON.stringify(d)),
    bodies,
  );
}

/**
 * `docsHash` from each document already in JSON: per document its JSON, the body's length and
 * the body, fed to one hash (no JSON copy of the bodies is made).
 */
export function docsHashJson(docJson: readonly string[], bodies: readonly string[]): string {
  const h = new DocsHasher();
  for (let i = 0; i < docJson.length; i++) h.add(docJson[i], bodies[i]);
  return h.digest();
}

/** `docsHashJson` fed one document at a time. */
export class DocsHasher {
  private readonly h = createHash('sha256');

  add(docJson: string, body: string): void {
    this.h.update(`${docJson}\n${body.length}\n`);
    this.h.update(body);
    this.h.update('\n');
  }

  digest(): string {
    return this.h.digest('hex');
  }
}

/** The hashes of [from, to) document ranges (in order, not overlapping), fed document by document. */
export class GroupHashes {
  private readonly out: string[] = [];
  private g = 0;
  private hasher: DocsHasher | null = null;

  constructor(private readonly groups: readonly [number, number][]) {}

  /** Ends the group that ends at d and starts the one that starts there (an empty one ends at once). */
  private boundary(d: number): void {
    if (this.hasher && this.groups[this.g][1] === d) this.close();
    while (!this.hasher && this.g < this.groups.length && this.groups[this.g][0] === d) {
      this.hasher = new DocsHasher();
      if (this.groups[this.g][1] === d) this.close();
    }
  }

  private close(): void {
    this.out.push((this.hasher as DocsHasher).digest());
    this.hasher = null;
    this.g++;
  }

  add(d: number, docJson: string, body: string): void {
    this.boundary(d);
    this.hasher?.add(docJson, body);
  }

  /** The hashes, once all `count` documents went by. */
  end(count: number): string[] {
    this.boundary(count);
    return this.out;
  }
}

/** The documents of one corpus file to tokenise; `hash` null when it is still to be computed. */
export interface TokenizeGroup {
  docs: IndexDoc[];
  bodies: string[];
  hash: string | null;
}

/**
 * The worker's input, sent as several messages: first the `WorkerStart`, then the documents in
 * `WorkerBatch`es of at most `BATCH_DOCS`. Each batch's strings exist on either side only while
 * it is sent or tokenised: neither heap holds a copy of the whole input.
 */
export interface WorkerStart {
  /** How many documents the batches bring in all. */
  count: number;
  /** [from, to) document ranges (of this input) whose hash the worker computes. */
  hashGroups: [number, number][];
}

export interface WorkerBatch {
  /** Each document as JSON: strings only, which cross to the worker far cheaper than objects. */
  docJson: string[];
  bodies: string[];
}

/** Documents per batch sent to the worker. */
export const BATCH_DOCS = 1000;

export interface WorkerOutput {
  /** The worker's term table: the term ids in `ids` are positions in it. */
  terms: string[];
  /** `ForwardChunks` of every document's term ids and frequencies (4 per term). */
  ids: Uint32Array[];
  tfs: Uint8Array[];
  /** Per document: chunk, position in it, term count. */
  place: Uint32Array;
  lengths: Uint32Array;
  hashes: string[];
}

/**
 * Below this much body text (UTF-16 code units) everything is tokenised on the calling thread: a
 * worker costs tens of milliseconds to start and to hand the texts over.
 */
export const WORKER_MIN_CHARS = 2_000_000;
/**
 * The share of the text handed to the worker. More than half: the calling thread tokenises more
 * slowly (its heap holds the whole parsed corpus, so its garbage collections cost more; measured
 * at 100k entries: about 1.7× the worker's time per character) and then remaps and assembles.
 */
const WORKER_SHARE = 0.6;

function workerScript(): string | null {
  // Present in the built package; absent when running from TypeScript sources (tests): then the
  // calling thread does all the work, with the same result.
  const path = fileURLToPath(new URL('./tokenize-worker.js', import.meta.url));
  return existsSync(path) ? path : null;
}

/** A worker started ahead of a build that looks large (see `prestartWorker`), not yet given work. */
let spare: Worker | null = null;

function spawnWorker(script: string): Worker | null {
  try {
    const w = new Worker(script);
    // A failure before it is used (no threads, out of memory) only means it will not be used.
    w.on('error', () => {
      if (spare === w) spare = null;
    });
    return w;
  } catch {
    return null;
  }
}

/**
 * Starts the tokenising worker now when a build of about `chars` characters of text is coming, so
 * its start-up overlaps the corpus parse. `tokenizeGroups` uses it; `releaseWorker` ends it if not.
 */
export function prestartWorker(chars: number): void {
  if (spare || process.env.MAESTRO_SEARCH_WORKER === '0') return;
  if (chars < WORKER_MIN_CHARS && process.env.MAESTRO_SEARCH_WORKER !== '1') return;
  const script = workerScript();
  spare = script ? spawnWorker(script) : null;
  spare?.unref(); // an idle spare never keeps the process alive
}

/** Ends a worker started by `prestartWorker` that no build used. */
export function releaseWorker(): void {
  const w = spare;
  spare = null;
  if (w) void w.terminate();
}

function startWorker(
  script: string,
  start: WorkerStart,
  batch: (from: number, to: number) => WorkerBatch,
): Promise<WorkerOutput | null> {
  return new Promise((resolve) => {
    const worker = spare ?? spawnWorker(script);
    spare = null;
    if (!worker) {
      resolve(null);
      return;
    }
    worker.ref();
    let done = false;
    const finish = (v: WorkerOutput | null) => {
      if (done) return;
      done = true;
      resolve(v);
      void worker.terminate();
    };
    worker.once('message', (m: WorkerOutput) => finish(m));
    // A worker that cannot run (no threads, out of memory) is no reason to fail: the caller tokenises.
    worker.once('error', () => finish(null));
    worker.once('exit', () => finish(null));
    worker.postMessage(start);
    for (let from = 0; from < start.count; from += BATCH_DOCS) {
      worker.postMessage(batch(from, Math.min(start.count, from + BATCH_DOCS)));
    }
  });
}

function tokenizeHere(doc: IndexDoc, body: string, table: TermTable, chunks: ForwardChunks): ForwardDoc {
  const local = tokenizeFields(fieldTexts(doc, body));
  const { termIds, tfs } = chunks.add(local.terms, local.tfs, table);
  return { doc, body, termIds, tfs, lengths: local.lengths };
}

/**
 * Tokenises the documents of some corpus files into forward form, interning terms in `table`, and
 * fills in each group's missing hash. A large amount of text is split in two: the last part goes
 * to a worker thread (with the hashes of the files wholly inside it) while this thread tokenises
 * the first; the worker's term ids are then mapped into `table`. The result is the same either
 * way: forward documents are assembled by term string, not by id.
 */
export async function tokenizeGroups(
  groups: readonly TokenizeGroup[],
  table: TermTable,
): Promise<{ forward: ForwardDoc[][]; hashes: string[] }> {
  let chars = 0;
  for (const g of groups) for (const b of g.bodies) chars += b.length;
  // The cut: documents [0, cut) here, [cut, total) on the worker.
  const flat: { g: number; i: number }[] = [];
  groups.forEach((g, gi) => {
    for (let i = 0; i < g.docs.length; i++) flat.push({ g: gi, i });
  });
  // MAESTRO_SEARCH_WORKER: 0 never uses the worker, 1 always does (measurements and tests).
  const mode = process.env.MAESTRO_SEARCH_WORKER;
  const wanted = mode === '1' || (mode !== '0' && chars >= WORKER_MIN_CHARS);
  const script = wanted && flat.length > 1 ? workerScript() : null;
  let cut = flat.length;
  if (script) {
    let seen = 0;
    cut = 0;
    while (cut < flat.length && seen < chars * (1 - WORKER_SHARE)) {
      seen += groups[flat[cut].g].bodies[flat[cut].i].length;
      cut++;
    }
  }
  const hashes = groups.map((g) => g.hash);
  let pending: Promise<WorkerOutput | null> = Promise.resolve(null);
  const remote = flat.slice(cut);
  // Groups wholly on the worker: it hashes them; a group split by the cut is hashed here.
  const hashGroups: [number, number][] = [];
  const hashGroupOf: number[] = [];
  if (script && remote.length > 0) {
    let at = 0;
    for (let gi = flat[cut].g; gi < groups.length; gi++) {
      const n = gi === flat[cut].g ? groups[gi].docs.length - flat[cut].i : groups[gi].docs.length;
      if ((gi !== flat[cut].g || flat[cut].i === 0) && hashes[gi] === null) {
        hashGroups.push([at, at + n]);
        hashGroupOf.push(gi);
      }
      at += n;
    }
    pending = startWorker(script, { count: remote.length, hashGroups }, (from, to) => {
      const part = remote.slice(from, to);
      return {
        docJson: part.map(({ g, i }) => JSON.stringify(groups[g].docs[i])),
        bodies: part.map(({ g, i }) => groups[g].bodies[i]),
      };
    });
  }
  const forward: ForwardDoc[][] = groups.map(() => []);
  const chunks = new ForwardChunks();
  for (let k = 0; k < cut; k++) {
    const { g, i } = flat[k];
    forward[g].push(tokenizeHere(groups[g].docs[i], groups[g].bodies[i], table, chunks));
  }
  // This thread's hashes while the worker is still busy (the worker's own groups are left to it).
  const onWorker = new Set(hashGroupOf);
  for (let gi = 0; gi < groups.length; gi++) {
    if (hashes[gi] === null && !onWorker.has(gi)) hashes[gi] = docsHash(groups[gi].docs, groups[gi].bodies);
  }
  if (cut < flat.length) {
    const out = await pending;
    if (out) {
      const map = new Uint32Array(out.terms.length);
      for (let t = 0; t < out.terms.length; t++) map[t] = table.intern(out.terms[t]);
      for (let k = cut; k < flat.length; k++) {
        const { g, i } = flat[k];
        const d = k - cut;
        const [c, at, count] = [out.place[d * 3], out.place[d * 3 + 1], out.place[d * 3 + 2]];
        const termIds = out.ids[c].subarray(at, at + count);
        for (let j = 0; j < termIds.length; j++) termIds[j] = map[termIds[j]];
        forward[g].push({
          doc: groups[g].docs[i],
          body: groups[g].bodies[i],
          termIds,
          tfs: out.tfs[c].subarray(at * 4, (at + count) * 4),
          lengths: out.lengths.subarray(d * 4, d * 4 + 4),
        });
      }
      out.hashes.forEach((h, j) => {
        hashes[hashGroupOf[j]] = h;
      });
    } else {
      for (let k = cut; k < flat.length; k++) {
        const { g, i } = flat[k];
        forward[g].push(tokenizeHere(groups[g].docs[i], groups[g].bodies[i], table, chunks));
      }
    }
  }
  return {
    forward,
    hashes: hashes.map((h, gi) => h ?? docsHash(groups[gi].docs, groups[gi].bodies)),
  };
}

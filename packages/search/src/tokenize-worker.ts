// The tokenising half of a large (re)build, run on a worker thread: see tokenize-pool.ts.
import { parentPort } from 'node:worker_threads';
import { fieldTexts, TermTable, tokenizeFields } from './build.js';
import { ForwardChunks } from './forward-chunks.js';
import type { IndexDoc } from './model.js';
import { GroupHashes, type WorkerBatch, type WorkerOutput, type WorkerStart } from './tokenize-pool.js';

/** The worker's state across the batches of its input. */
class Run {
  private readonly table = new TermTable();
  private readonly chunks = new ForwardChunks();
  private readonly place: Uint32Array;
  private readonly lengths: Uint32Array;
  private readonly hashes: GroupHashes;
  /** Documents tokenised so far. */
  done = 0;

  constructor(readonly start: WorkerStart) {
    this.place = new Uint32Array(start.count * 3);
    this.lengths = new Uint32Array(start.count * 4);
    this.hashes = new GroupHashes(start.hashGroups);
  }

  add(batch: WorkerBatch): void {
    const { chunks, place, lengths, table } = this;
    for (let k = 0; k < batch.docJson.length; k++) {
      const d = this.done++;
      this.hashes.add(d, batch.docJson[k], batch.bodies[k]);
      const local = tokenizeFields(fieldTexts(JSON.parse(batch.docJson[k]) as IndexDoc, batch.bodies[k]));
      const [c, at] = chunks.reserve(local.terms.length);
      const ids = chunks.ids[c];
      for (let i = 0; i < local.terms.length; i++) ids[at + i] = table.intern(local.terms[i]);
      chunks.tfs[c].set(local.tfs, at * 4);
      place[d * 3] = c;
      place[d * 3 + 1] = at;
      place[d * 3 + 2] = local.terms.length;
      for (let f = 0; f < 4; f++) lengths[d * 4 + f] = local.lengths[f];
    }
  }

  output(): WorkerOutput {
    const { table, chunks, place, lengths } = this;
    return { terms: table.terms, ids: chunks.ids, tfs: chunks.tfs, place, lengths, hashes: this.hashes.end(this.done) };
  }
}

// The input comes as messages (a start, then batches of documents), so that the worker can be
// started (and load its modules) while the calling thread is still reading the corpus, and can
// tokenise each batch as it arrives.
let run: Run | null = null;
const onMessage = (m: WorkerStart | WorkerBatch) => {
  if (run === null) run = new Run(m as WorkerStart);
  else run.add(m as WorkerBatch);
  if (run.done < run.start.count) return;
  parentPort?.off('message', onMessage);
  const out = run.output();
  // Plain ArrayBuffers (made here, each wholly used by one array), moved rather than copied.
  const moved = [...out.ids, ...out.tfs, out.place, out.lengths].map((a) => a.buffer as ArrayBuffer);
  parentPort?.postMessage(out, moved);
};
parentPort?.on('message', onMessage);

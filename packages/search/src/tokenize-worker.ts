// The tokenising half of a large (re)build, run on a worker thread: see tokenize-pool.ts.
import { parentPort } from 'node:worker_threads';
import { fieldTexts, TermTable, tokenizeFields } from './build.js';
import type { IndexDoc } from './model.js';
import type { WorkerInput, WorkerOutput } from './tokenize-pool.js';
import { docsHashJson } from './tokenize-pool.js';

function run(input: WorkerInput): WorkerOutput {
  const { docJson, bodies, hashGroups } = input;
  const table = new TermTable();
  const offsets = new Uint32Array(docJson.length + 1);
  const lengths = new Uint32Array(docJson.length * 4);
  // Term ids and frequencies grow in typed arrays (a number[] of every posting costs several times more).
  let termIds = new Uint32Array(1 << 16);
  let tfs = new Uint8Array(termIds.length * 4);
  let n = 0;
  for (let d = 0; d < docJson.length; d++) {
    const local = tokenizeFields(fieldTexts(JSON.parse(docJson[d]) as IndexDoc, bodies[d]));
    if (n + local.terms.length > termIds.length) {
      let size = termIds.length * 2;
      while (size < n + local.terms.length) size *= 2;
      const ids = new Uint32Array(size);
      ids.set(termIds.subarray(0, n));
      termIds = ids;
      const f = new Uint8Array(size * 4);
      f.set(tfs.subarray(0, n * 4));
      tfs = f;
    }
    for (const t of local.terms) termIds[n++] = table.intern(t);
    tfs.set(local.tfs, (n - local.terms.length) * 4);
    for (let f = 0; f < 4; f++) lengths[d * 4 + f] = local.lengths[f];
    offsets[d + 1] = n;
  }
  const hashes = hashGroups.map(([from, to]) => docsHashJson(docJson.slice(from, to), bodies.slice(from, to)));
  // Exact-length copies: their buffers are moved to the calling thread as they are.
  return { terms: table.terms, termIds: termIds.slice(0, n), tfs: tfs.slice(0, n * 4), offsets, lengths, hashes };
}

// The input comes as a message, so that the worker can be started (and load its modules) while
// the calling thread is still reading the corpus.
parentPort?.once('message', (input: WorkerInput) => {
  const out = run(input);
  // Plain ArrayBuffers (made here), moved rather than copied.
  const moved = [out.termIds, out.tfs, out.offsets, out.lengths].map((a) => a.buffer as ArrayBuffer);
  parentPort?.postMessage(out, moved);
});

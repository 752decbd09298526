// The tokenising half of a large (re)build, run on a worker thread: see tokenize-pool.ts.
import { parentPort } from 'node:worker_threads';
import { fieldTexts, TermTable, tokenizeFields } from './build.js';
import type { IndexDoc } from './model.js';
import type { WorkerInput, WorkerOutput } from './tokenize-pool.js';
import { docsHashJson } from './tokenize-pool.js';

function run(input: WorkerInput): WorkerOutput {
  const { docJson, bodies, hashGroups } = input;
  const docs = docJson.map((j) => JSON.parse(j) as IndexDoc);
  const table = new TermTable();
  const offsets = new Uint32Array(docs.length + 1);
  const lengths = new Uint32Array(docs.length * 4);
  let ids: number[] = [];
  const tfParts: Uint8Array[] = [];
  for (let d = 0; d < docs.length; d++) {
    const local = tokenizeFields(fieldTexts(docs[d], bodies[d]));
    for (const t of local.terms) ids.push(table.intern(t));
    tfParts.push(local.tfs);
    for (let f = 0; f < 4; f++) lengths[d * 4 + f] = local.lengths[f];
    offsets[d + 1] = ids.length;
  }
  const termIds = Uint32Array.from(ids);
  ids = [];
  const tfs = new Uint8Array(termIds.length * 4);
  let at = 0;
  for (const p of tfParts) {
    tfs.set(p, at);
    at += p.length;
  }
  const hashes = hashGroups.map(([from, to]) => docsHashJson(docJson.slice(from, to), bodies.slice(from, to)));
  return { terms: table.terms, termIds, tfs, offsets, lengths, hashes };
}

// The input comes as a message, so that the worker can be started (and load its modules) while
// the calling thread is still reading the corpus.
parentPort?.once('message', (input: WorkerInput) => {
  const out = run(input);
  // Plain ArrayBuffers (made here), moved rather than copied.
  const moved = [out.termIds, out.tfs, out.offsets, out.lengths].map((a) => a.buffer as ArrayBuffer);
  parentPort?.postMessage(out, moved);
});

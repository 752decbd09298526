import { parentPort } from 'node:worker_threads';
import { deriveFile } from './match-derive.js';
import type { DeriveJob } from './match-store.js';

/** Derives the files it is given (see `deriveAll`) and hands the rows back. */
parentPort?.once('message', (jobs: DeriveJob[]) => {
  const out = jobs.map((j) => deriveFile(j.path, j.bytes as Uint8Array, j.sha256, new Map(j.known)));
  const transfer: ArrayBuffer[] = [];
  for (const d of out) {
    for (const a of [d.hashes, d.reuse, d.offsets, d.termIdx]) transfer.push(a.buffer as ArrayBuffer);
  }
  parentPort?.postMessage(out, transfer);
});

import { parentPort } from 'node:worker_threads';
import { type DerivedFile, deriveFile } from './match-derive.js';
import type { DeriveJob, WorkerReply } from './match-store.js';

/** About this many bytes of corpus files are derived before their rows are handed back. */
const BATCH_BYTES = 1 << 20;

/**
 * Derives the files it is given (see `deriveAll`) and hands the rows back in batches as it goes
 * (their typed arrays moved), so this thread never holds the rows of its whole share; each file's
 * bytes are let go once derived.
 */
parentPort?.once('message', (jobs: DeriveJob[]) => {
  let batch: DerivedFile[] = [];
  let bytes = 0;
  const send = (done: boolean) => {
    const transfer: ArrayBuffer[] = [];
    for (const d of batch) {
      for (const a of [d.flags, d.hashes, d.reuse, d.offsets, d.termIdx]) transfer.push(a.buffer as ArrayBuffer);
    }
    const reply: WorkerReply = { files: batch, done };
    parentPort?.postMessage(reply, transfer);
    batch = [];
    bytes = 0;
  };
  for (const j of jobs) {
    const buf = j.bytes as Uint8Array;
    j.bytes = null;
    batch.push(deriveFile(j.path, buf, j.sha256, new Map(j.known)));
    bytes += buf.length;
    if (bytes >= BATCH_BYTES) send(false);
  }
  send(true);
});

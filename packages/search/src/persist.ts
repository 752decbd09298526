import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type WorkflowLayout, writeFileAtomic } from '@maestro/fs';
import { CorruptIndexError } from './codec.js';
import { openIndexFile } from './codec-read.js';
import { CorruptManifestError, type IndexManifest, parseManifest } from './manifest.js';
import type { SearchIndex } from './model.js';

/** `.workflow/.index/search/`: manifest.json, index.bin, exposure.json, exposure.jsonl (all derived). */
export function searchIndexDir(layout: WorkflowLayout): string {
  return join(layout.index, 'search');
}

export const MANIFEST_FILE = 'manifest.json';
export const DATA_FILE = 'index.bin';

export type ManifestRead =
  | { kind: 'missing' }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'ok'; manifest: IndexManifest };

function readIfExists(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export function readManifest(dir: string): ManifestRead {
  let buf: Buffer | null;
  try {
    buf = readIfExists(join(dir, MANIFEST_FILE));
  } catch (err) {
    return { kind: 'corrupt', reason: `manifest.json is unreadable (${(err as Error).message})` };
  }
  if (buf === null) return { kind: 'missing' };
  try {
    return { kind: 'ok', manifest: parseManifest(buf.toString('utf8')) };
  } catch (err) {
    if (err instanceof CorruptManifestError) return { kind: 'corrupt', reason: err.message };
    throw err;
  }
}

/**
 * Opens index.bin for a manifest (its tables now, postings and texts when a query needs them);
 * throws `CorruptIndexError` when it is missing, the wrong size, malformed, or from another build
 * (a torn manifest/data pair).
 */
export function readIndexData(dir: string, manifest: IndexManifest, workflow: string): SearchIndex {
  let opened: ReturnType<typeof openIndexFile>;
  try {
    opened = openIndexFile(join(dir, DATA_FILE), { workflow, files: new Map(manifest.files.map((f) => [f.path, f])) });
  } catch (err) {
    if (err instanceof CorruptIndexError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new CorruptIndexError('index.bin is missing');
    throw new CorruptIndexError(`index.bin is unreadable (${(err as Error).message})`);
  }
  const { index, buildId, bytes } = opened;
  if (bytes !== manifest.data_bytes)
    throw new CorruptIndexError(`index.bin has ${bytes} bytes, expected ${manifest.data_bytes}`);
  if (buildId !== manifest.build_id)
    throw new CorruptIndexError('index.bin belongs to another build than manifest.json');
  if (index.size !== manifest.entries)
    throw new CorruptIndexError('index.bin and manifest.json disagree on the entry count');
  return index;
}

/** Writes index.bin (when given) and then manifest.json, each atomically; the build id ties them. */
export async function writeIndexFiles(dir: string, manifest: IndexManifest, data: Buffer | null): Promise<void> {
  if (data) await writeFileAtomic(join(dir, DATA_FILE), data);
  await writeFileAtomic(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest)}\n`);
}

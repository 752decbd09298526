import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, hashJson, sha256 } from '@maestro/core';
import { readTextIfExists, type WorkflowLayout, writeFileAtomic } from '@maestro/fs';
import { FingerprintCacheSchema } from '../schemas.js';

/**
 * A file hashed less than this long after its last modification is "racily clean" (as git says):
 * a write in the same timestamp tick could go unseen, so its cached hash is not trusted and it is
 * hashed again next time. Two seconds covers the coarsest common mtime granularity.
 */
export const RACY_WINDOW_MS = 2000;
export const FINGERPRINT_CACHE = 'corpus-fingerprint.json';

export interface CorpusFingerprint {
  /** sha256 over (path, sha256 of bytes) of every corpus file, sorted by path. */
  fingerprint: string;
  files: number;
  /** Files read and hashed this time (0 on an unchanged, settled corpus: only stats). */
  hashed: number;
}

type CacheEntry = { size: number; mtime_ns: string; ino: string; sha256: string; hashed_at_ms: number };

/** The corpus files, as `loadCorpus` reads them: `*.md` directly inside specs/ and knowhow/. */
export function corpusFiles(layout: WorkflowLayout): string[] {
  const out: string[] = [];
  for (const [dir, prefix] of [
    [layout.specs, 'specs'],
    [layout.knowhow, 'knowhow'],
  ] as const) {
    let names: string[] = [];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isFile() && d.name.endsWith('.md'))
        .map((d) => d.name);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        throw environmentError('READ_FAILED', `cannot list ${dir}: ${(err as Error).message}`, {
          hint: 'check that the directory is readable by this user',
          cause: err,
        });
      }
    }
    for (const name of names.sort()) out.push(`${prefix}/${name}`);
  }
  return out;
}

function readCache(path: string): Record<string, CacheEntry> {
  try {
    const text = readTextIfExists(path);
    if (text === null) return {};
    const parsed = FingerprintCacheSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.files : {};
  } catch {
    return {}; // derived state: a damaged cache is rebuilt
  }
}

/**
 * The corpus fingerprint, incrementally: each file's hash is cached under `.workflow/.index/` by
 * path, size, mtime and inode, so an unchanged corpus costs one stat per file. Uses the real
 * clock (not the injected runtime): the racy-timestamp guard compares with filesystem mtimes.
 */
export async function computeCorpusFingerprint(layout: WorkflowLayout): Promise<CorpusFingerprint> {
  const { result, cache, changed } = fingerprintSync(layout);
  if (changed) await saveCache(join(layout.index, FINGERPRINT_CACHE), cache);
  return result;
}

/**
 * The same fingerprint, synchronously and without updating the cache (for callers that cannot
 * await). Files whose cached hash is missing or not yet trusted are hashed each time.
 */
export function corpusFingerprintSync(layout: WorkflowLayout): CorpusFingerprint {
  return fingerprintSync(layout).result;
}

function fingerprintSync(layout: WorkflowLayout): {
  result: CorpusFingerprint;
  cache: Record<string, CacheEntry>;
  changed: boolean;
} {
  const cachePath = join(layout.index, FINGERPRINT_CACHE);
  const cache = readCache(cachePath);
  const next: Record<string, CacheEntry> = {};
  const pairs: [string, string][] = [];
  let hashed = 0;
  for (const rel of corpusFiles(layout)) {
    const abs = join(layout.workflow, rel);
    let st: ReturnType<typeof statSync> & { mtimeNs: bigint; ino: bigint; size: bigint };
    try {
      st = statSync(abs, { bigint: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // removed while we listed: a change anyway
      throw environmentError('READ_FAILED', `cannot stat ${abs}: ${(err as Error).message}`, {
        hint: 'check that the file is readable by this user',
        cause: err,
      });
    }
    const size = Number(st.size);
    const mtimeNs = st.mtimeNs.toString();
    const ino = st.ino.toString();
    const mtimeMs = Number(st.mtimeNs / 1_000_000n);
    const hit = cache[rel];
    let entry: CacheEntry;
    if (
      hit &&
      hit.size === size &&
      hit.mtime_ns === mtimeNs &&
      hit.ino === ino &&
      mtimeMs < hit.hashed_at_ms - RACY_WINDOW_MS
    ) {
      entry = hit;
    } else {
      const hashedAt = Date.now();
      entry = { size, mtime_ns: mtimeNs, ino, sha256: sha256(readFileSync(abs)), hashed_at_ms: hashedAt };
      hashed++;
    }
    next[rel] = entry;
    pairs.push([rel, entry.sha256]);
  }
  const changed = hashed > 0 || Object.keys(cache).length !== pairs.length;
  return { result: { fingerprint: hashJson(pairs), files: pairs.length, hashed }, cache: next, changed };
}

async function saveCache(path: string, files: Record<string, CacheEntry>): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify({ schema_version: 'corpus-fingerprint-cache/1.0', files })}\n`);
  } catch {
    // Derived state: a read-only or full disk only costs a re-hash next time.
  }
}

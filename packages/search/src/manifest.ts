import { RACY_WINDOW_MS } from './config.js';

export const MANIFEST_SCHEMA = 'search-index-manifest/1.0';

/** One corpus file as last indexed. Its documents are `first .. first + count` in `index.bin`. */
export interface ManifestFile {
  /** Relative to `.workflow/`. */
  path: string;
  size: number;
  mtime_ms: number;
  /**
   * The inode change time at indexing: an in-place edit that keeps the size and restores the mtime
   * (`touch -r`, `rsync -t`, `cp -p`) still changes it. Absent in manifests written before it was
   * recorded: such an index is rebuilt once.
   */
  ctime_ms?: number;
  /** sha256 of the file's indexed entries (every field the index stores, and the body). */
  hash: string;
  first: number;
  count: number;
}

/** A directory whose listing was indexed; `mtime_ms` null when it did not exist. */
export interface ManifestDir {
  path: string;
  mtime_ms: number | null;
}

/**
 * `.workflow/.index/search/manifest.json`: what `index.bin` was built from. Comparing it with a
 * stat of each file (and a listing of each changed directory) tells whether the index is fresh
 * without parsing the corpus.
 */
export interface IndexManifest {
  schema_version: typeof MANIFEST_SCHEMA;
  format: number;
  tokenizer: string;
  /** Also written in the header of `index.bin`; a mismatch means the pair is torn. */
  build_id: string;
  /** Wall-clock time when the corpus was read (racy-timestamp reference; not the injected clock). */
  built_at_ms: number;
  entries: number;
  data_bytes: number;
  dirs: ManifestDir[];
  files: ManifestFile[];
  /** Corpus problems seen at build time (file:line: message), repeated as warnings on every search. */
  issues: string[];
}

/** Thrown when manifest.json cannot be used; the caller rebuilds and warns. */
export class CorruptManifestError extends Error {}

const isNum = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown) => typeof v === 'string';

/**
 * Parses and checks manifest.json by hand (no zod on the search path, to keep cold start low; the
 * zod schema in schemas.ts describes the same shape and a test holds the two together).
 */
export function parseManifest(text: string): IndexManifest {
  let m: IndexManifest;
  try {
    m = JSON.parse(text) as IndexManifest;
  } catch (err) {
    throw new CorruptManifestError(`manifest.json is not valid JSON (${(err as Error).message})`);
  }
  const ok =
    m !== null &&
    typeof m === 'object' &&
    m.schema_version === MANIFEST_SCHEMA &&
    isNum(m.format) &&
    isStr(m.tokenizer) &&
    isStr(m.build_id) &&
    isNum(m.built_at_ms) &&
    isNum(m.entries) &&
    isNum(m.data_bytes) &&
    Array.isArray(m.issues) &&
    Array.isArray(m.dirs) &&
    m.dirs.every((d) => d && isStr(d.path) && (d.mtime_ms === null || isNum(d.mtime_ms))) &&
    Array.isArray(m.files) &&
    m.files.every(
      (f) =>
        f &&
        isStr(f.path) &&
        isNum(f.size) &&
        isNum(f.mtime_ms) &&
        (f.ctime_ms === undefined || isNum(f.ctime_ms)) &&
        isStr(f.hash) &&
        isNum(f.first) &&
        isNum(f.count),
    );
  if (!ok) throw new CorruptManifestError(`manifest.json does not have the ${MANIFEST_SCHEMA} shape`);
  return m;
}

/** A timestamp this close to the build cannot prove the file unchanged (same-tick writes). */
export function isRacy(mtimeMs: number, builtAtMs: number): boolean {
  return mtimeMs >= builtAtMs - RACY_WINDOW_MS;
}

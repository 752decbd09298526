import { readdirSync } from 'node:fs';
import { environmentError, hashJson } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type DerivedStore, type FileState, fileStates, openStore, RACY_WINDOW_MS } from '@maestro/store';

/**
 * A file hashed less than this long after its last modification is "racily clean" (as git says):
 * its stored hash is not trusted and it is hashed again next time (the store's guard).
 */
export { RACY_WINDOW_MS };

export interface CorpusFingerprint {
  /** sha256 over (path, sha256 of bytes) of every corpus file, sorted by path. */
  fingerprint: string;
  files: number;
  /** Files read and hashed this time (0 on an unchanged, settled corpus: only stats). */
  hashed: number;
}

/** The corpus files' states behind a fingerprint: what the matching section is derived from. */
export interface CorpusState extends CorpusFingerprint {
  store: DerivedStore;
  /** In `corpusFiles` order; `bytes` set for the files this call had to read. */
  states: FileState[];
}

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

let last: { index: string; state: CorpusState } | null = null;

/**
 * The corpus fingerprint and the state of every file, through the derived-state store's shared
 * file table (`fileStates`: one stat per settled file, racy-mtime guard). The value is the one
 * receipts have always recorded: `hashJson` of (path relative to `.workflow/`, sha256) pairs.
 * The last state is kept for the process, so the matching index built next reads no file twice.
 */
export function corpusState(layout: WorkflowLayout): CorpusState {
  const store = openStore(layout);
  let states: FileState[];
  try {
    states = fileStates(store, layout.workflow, corpusFiles(layout));
  } catch (err) {
    if ((err as { exitCode?: number }).exitCode !== undefined) throw err;
    throw environmentError('READ_FAILED', `cannot read the corpus files: ${(err as Error).message}`, {
      hint: 'check that .workflow/specs and .workflow/knowhow are readable by this user',
      cause: err,
    });
  }
  const state: CorpusState = {
    store,
    states,
    fingerprint: hashJson(states.map((s) => [s.path, s.sha256])),
    files: states.length,
    hashed: states.filter((s) => s.bytes !== null).length,
  };
  last = { index: layout.index, state };
  return state;
}

/** The state `corpusState` last computed for this workflow, when it had this fingerprint. */
export function lastCorpusState(layout: WorkflowLayout, fingerprint: string): CorpusState | null {
  return last && last.index === layout.index && last.state.fingerprint === fingerprint ? last.state : null;
}

/** What the derived-state store had to say in this process (rebuilt after damage, not saved, ...). */
export function storeWarnings(layout: WorkflowLayout): string[] {
  return last && last.index === layout.index ? [...last.state.store.warnings] : [];
}

/** Drops the bytes the last state holds (once the matching index has used them). */
export function releaseCorpusBytes(): void {
  if (last) last.state.states = last.state.states.map((s) => (s.bytes ? { ...s, bytes: null, resume: null } : s));
}

/**
 * The corpus fingerprint, incrementally: each file's hash is stored under `.workflow/.index/` by
 * path, size, mtime, ctime and inode, so an unchanged corpus costs one stat per file.
 */
export async function computeCorpusFingerprint(layout: WorkflowLayout): Promise<CorpusFingerprint> {
  return corpusFingerprintSync(layout);
}

/** The same fingerprint, synchronously (for callers that cannot await). */
export function corpusFingerprintSync(layout: WorkflowLayout): CorpusFingerprint {
  const { fingerprint, files, hashed } = corpusState(layout);
  return { fingerprint, files, hashed };
}

import { join } from 'node:path';
import type { Issue } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { requireResolvedRef } from './aliases.js';
import {
  finish,
  type LoadedCorpus,
  type LoadedKnowhowFile,
  type LoadedSpecFile,
  loadedSpecFile,
  markdownFiles,
  readCorpusFile,
  streamSpecEntries,
} from './corpus-files.js';
import { materialize, openCorpusStore } from './corpus-stored.js';

export type { LoadedCorpus, LoadedKnowhowFile, LoadedSpecFile } from './corpus-files.js';
export { finish } from './corpus-files.js';
export { type CorpusStoreView, materialize, openCorpusStore } from './corpus-stored.js';

import { knowhowEntry, parseKnowhowFile } from './knowhow-file.js';
import type { Corpus, CorpusFileInfo, KnowledgeEntry } from './model.js';
export interface LoadCorpusOptions {
  /**
   * Reuse the parsed rows of the derived-state store (`.workflow/.index/maestro.db`) for files whose
   * content hash is unchanged (default). `false` parses every file and touches no store: the
   * reference the stored path is tested against.
   */
  store?: boolean;
}

/**
 * Reads and parses every `specs/*.md` and `knowhow/*.md` (non-recursive), once each. Never writes
 * the corpus. Parse problems are returned as issues naming `.workflow/...` paths; they never abort
 * the load. Through the store, a file's text is read when first asked for (and checked against the
 * hash its entries came from).
 */
export function loadCorpusFiles(layout: WorkflowLayout, options: LoadCorpusOptions = {}): LoadedCorpus {
  return options.store === false ? load(layout, true) : loadStored(layout, true);
}

/** The corpus view every package uses: entries, `byId`, issues and file stats. */
export function loadCorpus(layout: WorkflowLayout, options: LoadCorpusOptions = {}): Corpus {
  return (options.store === false ? load(layout, false) : loadStored(layout, false)).corpus;
}

function load(layout: WorkflowLayout, keep: boolean): LoadedCorpus {
  const issues: Issue[] = [];
  const files: CorpusFileInfo[] = [];
  const specs: LoadedSpecFile[] = [];
  const knowhow: LoadedKnowhowFile[] = [];
  const entries: KnowledgeEntry[] = [];
  for (const name of markdownFiles(layout.specs, 'specs', issues)) {
    const file = `specs/${name}`;
    const { text, utf8 } = readCorpusFile(join(layout.specs, name), file, issues, files);
    const fileEntries = keep ? [] : entries;
    streamSpecEntries(text, file, issues, fileEntries);
    if (keep) {
      for (const e of fileEntries) entries.push(e);
      specs.push(loadedSpecFile(file, () => text, fileEntries, utf8));
    }
  }
  for (const name of markdownFiles(layout.knowhow, 'knowhow', issues)) {
    const file = `knowhow/${name}`;
    const { text, utf8 } = readCorpusFile(join(layout.knowhow, name), file, issues, files);
    const parsed = parseKnowhowFile(text, `.workflow/${file}`);
    for (const issue of parsed.issues) issues.push(issue);
    const entry = knowhowEntry(parsed.value, file, issues);
    entries.push(entry);
    if (keep) knowhow.push({ file, text, model: parsed.value, entry, utf8 });
  }
  return finish(entries, issues, files, specs, knowhow);
}

/**
 * Finds an entry by its id, or by any alias maestro-flow's tools use (`resolveEntryRef`): a knowhow
 * file stem / file name / explicit id (`TIP-20260427-x`, `TIP-20260427-x.md`, `tip-20260427-x` all
 * resolve to `knowhow-tip-20260427-x`), `knowhow:{slug}`, `spec:{sid}`, `legacy:{file}:{line}` and
 * the positional `spec:project:{stem}-{NNN}`. Null when unknown; an ambiguous or drifted positional
 * id is refused (exit 2) with its candidates. An alias used is pushed to `notes` when given.
 */
export function findEntry(corpus: Corpus, ref: string, notes?: string[]): KnowledgeEntry | null {
  return requireResolvedRef(corpus, ref, notes);
}

/**
 * `load` through the store: every file's hash comes from `fileStates` (by stat where it can be
 * trusted); a file whose hash matches its stored row is not read, its entries and issues come from
 * the rows; any other file is parsed (a spec file reusing its unchanged blocks) and its rows saved,
 * best effort. The result is the one `load` returns, entry for entry and issue for issue.
 */
function loadStored(layout: WorkflowLayout, keep: boolean): LoadedCorpus {
  const view = openCorpusStore(layout);
  return view ? materialize(layout, view, keep, null).loaded : load(layout, keep);
}

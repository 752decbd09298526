import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentError, type Issue } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { requireResolvedRef } from './aliases.js';
import { type KnowhowFileModel, knowhowEntry, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
import type { Corpus, CorpusFileInfo, KnowledgeEntry } from './model.js';
import { parseSpecFile, type SpecFileModel, scanSpecFile } from './spec-file.js';
import { specEntrySink } from './spec-view.js';

/** A corpus file as read: its text (exact), parsed model and entries. */
export interface LoadedSpecFile {
  /** Relative to `.workflow/`, e.g. `specs/learnings.md`. */
  file: string;
  text: string;
  /** `parseSpecFile(text).value`, parsed on first use (writers edit one or two files of many). */
  model: SpecFileModel;
  entries: KnowledgeEntry[];
  /** False when the bytes are not valid UTF-8; such a file is read but never rewritten. */
  utf8: boolean;
}

export interface LoadedKnowhowFile {
  file: string;
  text: string;
  model: KnowhowFileModel;
  entry: KnowledgeEntry;
  utf8: boolean;
}

export interface LoadedCorpus {
  corpus: Corpus;
  specs: LoadedSpecFile[];
  knowhow: LoadedKnowhowFile[];
}

/** `*.md` files directly inside `dir` (non-recursive), sorted; [] when the directory is missing. */
function markdownFiles(dir: string, rel: string, issues: Issue[]): string[] {
  try {
    const found = readdirSync(dir, { withFileTypes: true }).filter((d) => d.name.endsWith('.md'));
    for (const d of found) {
      if (d.isFile() || d.isSymbolicLink()) continue;
      issues.push({
        severity: 'warning',
        code: 'NOT_A_FILE',
        message: `${d.name} is ${d.isDirectory() ? 'a directory' : 'not a regular file'}, so it is not read`,
        hint: `move it out of .workflow/${rel}/ or rename it without .md`,
        file: `.workflow/${rel}/${d.name}`,
      });
    }
    return found
      .filter((d) => d.isFile())
      .map((d) => d.name)
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw environmentError('READ_FAILED', `cannot list ${dir}: ${(err as Error).message}`, { cause: err });
  }
}

function readCorpusFile(abs: string, rel: string, issues: Issue[], files: CorpusFileInfo[]) {
  let buf: Buffer;
  let st: ReturnType<typeof fstatSync>;
  try {
    const fd = openSync(abs, 'r');
    try {
      buf = readFileSync(fd);
      st = fstatSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    throw environmentError('READ_FAILED', `cannot read ${abs}: ${(err as Error).message}`, {
      hint: 'check its permissions',
      cause: err,
    });
  }
  const text = buf.toString('utf8');
  // Valid UTF-8 is exactly what decodes and re-encodes to the same bytes; checked without re-encoding.
  const utf8 = isUtf8(buf);
  if (!utf8) {
    issues.push({
      severity: 'error',
      code: 'FILE_NOT_UTF8',
      message: 'file is not valid UTF-8; it is read with replacement characters and maestro will not rewrite it',
      hint: 'convert the file to UTF-8',
      file: `.workflow/${rel}`,
    });
  }
  files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
  return { text, utf8 };
}

/**
 * Reads and parses every `specs/*.md` and `knowhow/*.md` (non-recursive), once each. Never writes.
 * Parse problems are returned as issues naming `.workflow/...` paths; they never abort the load.
 */
export function loadCorpusFiles(layout: WorkflowLayout): LoadedCorpus {
  return load(layout, true);
}

/** The corpus view every package uses: entries, `byId`, issues and file stats. */
export function loadCorpus(layout: WorkflowLayout): Corpus {
  return load(layout, false).corpus;
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
      specs.push(loadedSpecFile(file, text, fileEntries, utf8));
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
  const byId = indexById(entries, issues);
  resolveKnowhowLinks(entries, byId);
  return { corpus: { entries, byId, issues, files }, specs, knowhow };
}

/**
 * maestro-flow writes knowhow links by file stem (`supersededBy: AST-20260717-x`); the id of that
 * document is `knowhow-ast-20260717-x`. A knowhow link that names no id but does name a document's
 * stem or file name reads as that document's id (the file is not changed), so the chain is whole.
 */
function resolveKnowhowLinks(entries: readonly KnowledgeEntry[], byId: ReadonlyMap<string, KnowledgeEntry>): void {
  const resolve = (v: string) => {
    if (byId.has(v)) return v;
    const id = knowhowIdFor(v.trim());
    return byId.get(id)?.store === 'knowhow' ? id : v;
  };
  for (const e of entries) {
    if (e.store !== 'knowhow') continue;
    if (e.supersededBy) e.supersededBy = resolve(e.supersededBy);
    if (e.supersedes.length) e.supersedes = e.supersedes.map(resolve);
  }
}

/**
 * Exactly `parseSpecFile` + `specFileEntries` (same entries, same issues in the same order: parse
 * problems, then entry warnings) without keeping the file model: each entry's nodes become garbage
 * as soon as its view is built, which keeps them out of the old generation.
 */
function streamSpecEntries(text: string, file: string, issues: Issue[], entries: KnowledgeEntry[]): void {
  const issueFile = `.workflow/${file}`;
  const viewIssues: Issue[] = [];
  const scanned = scanSpecFile(text, issueFile, (fm) => specEntrySink(file, issueFile, fm, viewIssues, entries));
  for (const issue of scanned.issues) issues.push(issue);
  for (const issue of viewIssues) issues.push(issue);
}

/**
 * A loaded spec file whose model is parsed on first access and then kept (parsing is pure, so it
 * is the model an eager parse would have built; `entries` pair with its segments by position).
 * Loading a large corpus to edit one file no longer holds every file's model in memory.
 */
function loadedSpecFile(file: string, text: string, entries: KnowledgeEntry[], utf8: boolean): LoadedSpecFile {
  let model: SpecFileModel | null = null;
  return {
    file,
    text,
    get model(): SpecFileModel {
      if (model === null) model = parseSpecFile(text, `.workflow/${file}`).value;
      return model;
    },
    set model(value: SpecFileModel) {
      model = value;
    },
    entries,
    utf8,
  };
}

/**
 * Builds `byId`. A sid written twice keeps its id on the first entry (files in name order, then
 * file order); later copies become `<sid>~2`, `<sid>~3`, ... and are reported as errors.
 */
function indexById(entries: KnowledgeEntry[], issues: Issue[]): Map<string, KnowledgeEntry> {
  const byId = new Map<string, KnowledgeEntry>();
  for (const e of entries) {
    const first = byId.get(e.id);
    if (first === undefined) {
      byId.set(e.id, e);
      continue;
    }
    let n = 2;
    while (byId.has(`${e.id}~${n}`)) n++;
    issues.push({
      severity: 'error',
      code: 'DUPLICATE_ID',
      message: `id ${e.id} is also used at .workflow/${first.file}:${first.line ?? 1}; this copy is listed as ${e.id}~${n}`,
      hint: 'remove the sid attribute of one copy and run `maestro spec backfill-sid`',
      file: `.workflow/${e.file}`,
      line: e.line ?? undefined,
    });
    e.id = `${e.id}~${n}`;
    byId.set(e.id, e);
  }
  return byId;
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

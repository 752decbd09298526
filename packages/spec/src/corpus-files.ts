import { isUtf8 } from 'node:buffer';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { environmentError, type Issue, sha256 } from '@maestro/core';
import { type KnowhowFileModel, knowhowIdFor, parseKnowhowFile } from './knowhow-file.js';
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
  /**
   * Set when the file was loaded through the store's rows: whether it holds an entry with this id
   * (as its parse names it), answered without parsing it; undefined when the rows cannot say.
   */
  hasId?: (id: string) => boolean | undefined;
  /** Set when known without hashing `text` again: the sha256 of the file's bytes as read. */
  sha256?: string;
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
  /** Set when only some files were loaded: whether an id is in use anywhere in the corpus. */
  ids?: Pick<ReadonlySet<string>, 'has'>;
  /** Set when only some files were loaded: every knowhow file of the corpus (`knowhow/x.md`). */
  knowhowFiles?: Set<string>;
  /**
   * Set when only some files were loaded: the id of the first entry of `file` whose title, as the
   * duplicate check of `spec add` reads it (trimmed, lower case, not taken from the content), is `title`.
   */
  titleIn?: (file: string, title: string) => string | null;
}

/** `*.md` files directly inside `dir` (non-recursive), sorted; [] when the directory is missing. */
export function markdownFiles(dir: string, rel: string, issues: Issue[]): string[] {
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

export function readCorpusFile(abs: string, rel: string, issues: Issue[], files: CorpusFileInfo[]) {
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
    throw readFailed(abs, err);
  }
  files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
  return decode(buf, rel, issues);
}

export function readFailed(abs: string, err: unknown) {
  return environmentError('READ_FAILED', `cannot read ${abs}: ${(err as Error).message}`, {
    hint: 'check its permissions',
    cause: err,
  });
}

export function decode(buf: Buffer, rel: string, issues: Issue[]): { text: string; utf8: boolean } {
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
  return { text, utf8 };
}

/** The corpus of these entries (in corpus order): `byId` (duplicate sids renamed) and knowhow links resolved. */
export function finish(
  entries: KnowledgeEntry[],
  issues: Issue[],
  files: CorpusFileInfo[],
  specs: LoadedSpecFile[],
  knowhow: LoadedKnowhowFile[],
): LoadedCorpus {
  const byId = indexById(entries, issues);
  resolveKnowhowLinks(entries, byId);
  return { corpus: { entries, byId, issues, files }, specs, knowhow };
}

/** A file's bytes (those `fileStates` already read, or read now) and its stat, recorded in `files`. */
export function readCorpusBytes(
  abs: string,
  rel: string,
  files: CorpusFileInfo[],
  bytes: Buffer | null,
): { buf: Buffer } {
  if (bytes) {
    files.push(fileInfo(abs, rel));
    return { buf: bytes };
  }
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
    throw readFailed(abs, err);
  }
  files.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs });
  return { buf };
}

export function fileInfo(abs: string, rel: string): CorpusFileInfo {
  try {
    const st = statSync(abs);
    return { path: rel, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
  } catch (err) {
    throw readFailed(abs, err);
  }
}

/**
 * A file's text read when first needed, checked against the hash its stored entries belong to: a
 * file changed since the load is refused rather than edited from a view that no longer matches.
 */
export function lazyText(abs: string, file: string, hash: string): () => string {
  return () => {
    let buf: Buffer;
    try {
      buf = readFileSync(abs);
    } catch (err) {
      throw readFailed(abs, err);
    }
    if (sha256(buf) !== hash) {
      throw environmentError('CORPUS_CHANGED', `.workflow/${file} changed while maestro was reading the corpus`, {
        hint: 'rerun the command (another program wrote the file meanwhile)',
      });
    }
    return buf.toString('utf8');
  };
}

/**
 * maestro-flow writes knowhow links by file stem (`supersededBy: AST-20260717-x`); the id of that
 * document is `knowhow-ast-20260717-x`. A knowhow link that names no id but does name a document's
 * stem or file name reads as that document's id (the file is not changed), so the chain is whole.
 */
export function resolveKnowhowLinks(
  entries: readonly KnowledgeEntry[],
  byId: ReadonlyMap<string, KnowledgeEntry>,
): void {
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
export function streamSpecEntries(text: string, file: string, issues: Issue[], entries: KnowledgeEntry[]): void {
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
export function loadedSpecFile(
  file: string,
  readText: () => string,
  entries: KnowledgeEntry[],
  utf8: boolean,
): LoadedSpecFile {
  let model: SpecFileModel | null = null;
  let text: string | null = null;
  return {
    file,
    get text(): string {
      if (text === null) text = readText();
      return text;
    },
    get model(): SpecFileModel {
      if (model === null) model = parseSpecFile(this.text, `.workflow/${file}`).value;
      return model;
    },
    set model(value: SpecFileModel) {
      model = value;
    },
    entries,
    utf8,
  };
}

/** A stored knowhow document whose text and file model are read and parsed on first use. */
export function loadedKnowhowFile(
  file: string,
  readText: () => string,
  entry: KnowledgeEntry,
  utf8: boolean,
): LoadedKnowhowFile {
  let model: KnowhowFileModel | null = null;
  let text: string | null = null;
  return {
    file,
    get text(): string {
      if (text === null) text = readText();
      return text;
    },
    get model(): KnowhowFileModel {
      if (model === null) model = parseKnowhowFile(this.text, `.workflow/${file}`).value;
      return model;
    },
    set model(value: KnowhowFileModel) {
      model = value;
    },
    entry,
    utf8,
  };
}

/**
 * Builds `byId`. A sid written twice keeps its id on the first entry (files in name order, then
 * file order); later copies become `<sid>~2`, `<sid>~3`, ... and are reported as errors.
 */
export function indexById(entries: KnowledgeEntry[], issues: Issue[]): Map<string, KnowledgeEntry> {
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

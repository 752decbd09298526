import { appendAll } from '@maestro/core';
import { tryReadHead } from './frontmatter.js';
import type { PackIssue } from './model.js';
import type { PackFile } from './pack-tree.js';
import { checkPackPath, describePathProblem, resolvePackPath } from './paths.js';
import type { CompileRunRecord, ContextResolutionRecord, SourceMapFile } from './standard-schemas.js';
import { inferRecordKind, type RecordKind, schemaFindings } from './validate-json.js';

/** JSON records larger than this are reported, not parsed. */
export const JSON_CAP_BYTES = 8 * 1024 * 1024;

/** Reads and parses one JSON file of the pack; problems become findings naming file and line. */
export function readPackJson(file: PackFile): { data: unknown; issues: PackIssue[] } {
  if (file.size > JSON_CAP_BYTES) {
    return {
      data: undefined,
      issues: [
        {
          severity: 'warning',
          code: 'PACK_JSON_TOO_LARGE',
          file: file.rel,
          message: `not validated: ${file.size} bytes is over the ${JSON_CAP_BYTES / 1048576} MB cap`,
        },
      ],
    };
  }
  const head = tryReadHead(file.real, JSON_CAP_BYTES);
  if (head === null) {
    const message = 'cannot read: not a regular file, or permission denied';
    return { data: undefined, issues: [{ severity: 'error', code: 'PACK_UNREADABLE', file: file.rel, message }] };
  }
  const text = head.text;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { data: JSON.parse(body), issues: [] };
  } catch (err) {
    const message = (err as Error).message;
    const pos = /position (\d+)/.exec(message);
    const line = pos
      ? body.slice(0, Number(pos[1])).split('\n').length
      : /end of JSON/i.test(message)
        ? body.trimEnd().split('\n').length
        : undefined;
    return {
      data: undefined,
      issues: [
        {
          severity: 'error',
          code: 'PACK_INVALID_JSON',
          file: file.rel,
          line,
          message: `Invalid JSON: ${body.trim() === '' ? 'the file is empty' : message}`,
        },
      ],
    };
  }
}

/**
 * Checks the JSON records of a pack: `indexes/source-map.json`, `evals/**.json` and
 * `runs/**.json`, each against the standard schema its name or keys imply, plus every path
 * reference inside them.
 */
export function checkRecords(realRoot: string, files: readonly PackFile[]): PackIssue[] {
  const issues: PackIssue[] = [];
  for (const file of files) {
    const isRecord =
      file.rel === 'indexes/source-map.json' ||
      (file.rel.endsWith('.json') && (file.rel.startsWith('runs/') || file.rel.startsWith('evals/')));
    if (!isRecord) continue;
    const read = readPackJson(file);
    appendAll(issues, read.issues);
    if (read.data === undefined) continue;
    const kind: RecordKind | null =
      file.rel === 'indexes/source-map.json' ? 'source-map' : inferRecordKind(file.rel, read.data);
    if (kind === null) continue;
    const found = schemaFindings(kind, read.data, file.rel);
    appendAll(issues, found);
    if (found.some((i) => i.severity === 'error')) continue;
    appendAll(issues, recordPaths(realRoot, kind, read.data, file.rel));
  }
  return issues;
}

function recordPaths(realRoot: string, kind: RecordKind, data: unknown, file: string): PackIssue[] {
  const issues: PackIssue[] = [];
  if (kind === 'source-map') sourceMapPaths(realRoot, data as SourceMapFile, file, issues);
  else if (kind === 'context-resolution') {
    (data as ContextResolutionRecord).activated_packs.forEach((p, i) => {
      const refs = {
        selected_files: p.selected_files,
        selected_documents: p.selected_documents,
        selected_splits: p.selected_splits,
      };
      for (const [key, list] of Object.entries(refs)) {
        (list ?? []).forEach((ref, j) => {
          lexical(ref, `activated_packs[${i}].${key}[${j}]`, file, issues);
        });
      }
    });
  } else if (kind === 'compile-run') {
    const run = data as CompileRunRecord;
    const refs = { outputs: run.outputs, documents: run.documents ?? [], inputs: run.inputs };
    for (const [key, list] of Object.entries(refs)) {
      list.forEach((o, i) => {
        lexical(o.path, `${key}[${i}].path`, file, issues);
      });
    }
  }
  return issues;
}

/** Claims must point at an existing source inside the pack; derived targets may lag (warning). */
function sourceMapPaths(realRoot: string, map: SourceMapFile, file: string, issues: PackIssue[]): void {
  map.claims.forEach((claim, i) => {
    const field = `claims[${i}].source.path`;
    const resolved = resolvePackPath(realRoot, claim.source.path);
    if (!resolved.ok) {
      issues.push({
        severity: 'error',
        code: 'PACK_PATH_OUTSIDE',
        file,
        field,
        message: `Claim ${claim.claim_id}: ${resolved.message}`,
      });
    } else if (resolved.real === null) {
      const message = `Claim ${claim.claim_id} points to missing source: ${claim.source.path}.`;
      issues.push({ severity: 'error', code: 'PACK_MISSING_SOURCE', file, field, message });
    }
    (claim.compiled_into ?? []).forEach((p, j) => {
      existing(realRoot, p, `claims[${i}].compiled_into[${j}]`, file, issues);
    });
    if (claim.document !== undefined) existing(realRoot, claim.document, `claims[${i}].document`, file, issues);
  });
  (map.document_sections ?? []).forEach((s, i) => {
    existing(realRoot, s.document, `document_sections[${i}].document`, file, issues);
    (s.compiled_into ?? []).forEach((p, j) => {
      existing(realRoot, p, `document_sections[${i}].compiled_into[${j}]`, file, issues);
    });
  });
}

/** A reference that must be relative and stay inside the pack; it need not exist. */
function lexical(ref: string, field: string, file: string, issues: PackIssue[]): void {
  const checked = checkPackPath(ref);
  if ('problem' in checked) {
    issues.push({
      severity: 'error',
      code: 'PACK_PATH_OUTSIDE',
      file,
      field,
      message: `${field}: ${describePathProblem(checked.problem, ref)}`,
    });
  }
}

/** A reference that must stay inside the pack; a missing target is a warning (derived views may lag). */
function existing(realRoot: string, ref: string, field: string, file: string, issues: PackIssue[]): void {
  const resolved = resolvePackPath(realRoot, ref);
  if (!resolved.ok)
    issues.push({
      severity: 'error',
      code: 'PACK_PATH_OUTSIDE',
      file,
      field,
      message: `${field}: ${resolved.message}`,
    });
  else if (resolved.real === null)
    issues.push({
      severity: 'warning',
      code: 'PACK_MISSING_FILE',
      file,
      field,
      message: `${field}: points to missing file: ${ref}`,
    });
}

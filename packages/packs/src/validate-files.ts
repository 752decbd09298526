import { readHead } from './frontmatter.js';
import type { PackIssue } from './model.js';
import type { PackFile } from './pack-tree.js';
import { checkPackPath, describePathProblem, resolvePackPath } from './paths.js';
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
  const text = readHead(file.real, JSON_CAP_BYTES).text;
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
    issues.push(...read.issues);
    if (read.data === undefined) continue;
    const kind: RecordKind | null =
      file.rel === 'indexes/source-map.json' ? 'source-map' : inferRecordKind(file.rel, read.data);
    if (kind === null) continue;
    const found = schemaFindings(kind, read.data, file.rel);
    issues.push(...found);
    if (found.some((i) => i.severity === 'error')) continue;
    issues.push(...recordPaths(realRoot, kind, read.data, file.rel));
  }
  return issues;
}

type Any = Record<string, unknown>;

function recordPaths(realRoot: string, kind: RecordKind, data: unknown, file: string): PackIssue[] {
  const d = data as Any;
  const issues: PackIssue[] = [];
  const lexical = (ref: string, field: string) => {
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
  };
  if (kind === 'source-map') {
    const claims = d.claims as Any[];
    claims.forEach((claim, i) => {
      const source = claim.source as Any;
      const ref = String(source.path);
      const resolved = resolvePackPath(realRoot, ref);
      if (!resolved.ok) {
        issues.push({
          severity: 'error',
          code: 'PACK_PATH_OUTSIDE',
          file,
          field: `claims[${i}].source.path`,
          message: `Claim ${String(claim.claim_id)}: ${resolved.message}`,
        });
      } else if (resolved.real === null) {
        issues.push({
          severity: 'error',
          code: 'PACK_MISSING_SOURCE',
          file,
          field: `claims[${i}].source.path`,
          message: `Claim ${String(claim.claim_id)} points to missing source: ${ref}.`,
        });
      }
      ((claim.compiled_into as string[] | undefined) ?? []).forEach((p, j) => {
        existing(realRoot, p, `claims[${i}].compiled_into[${j}]`, file, issues);
      });
      if (typeof claim.document === 'string') existing(realRoot, claim.document, `claims[${i}].document`, file, issues);
    });
    ((d.document_sections as Any[] | undefined) ?? []).forEach((s, i) => {
      existing(realRoot, String(s.document), `document_sections[${i}].document`, file, issues);
      ((s.compiled_into as string[] | undefined) ?? []).forEach((p, j) => {
        existing(realRoot, p, `document_sections[${i}].compiled_into[${j}]`, file, issues);
      });
    });
  } else if (kind === 'context-resolution') {
    (d.activated_packs as Any[]).forEach((p, i) => {
      for (const key of ['selected_files', 'selected_documents', 'selected_splits']) {
        ((p[key] as string[] | undefined) ?? []).forEach((ref, j) => {
          lexical(ref, `activated_packs[${i}].${key}[${j}]`);
        });
      }
    });
  } else if (kind === 'compile-run') {
    (d.outputs as Any[]).forEach((o, i) => {
      lexical(String(o.path), `outputs[${i}].path`);
    });
    ((d.documents as Any[] | undefined) ?? []).forEach((o, i) => {
      lexical(String(o.path), `documents[${i}].path`);
    });
    ((d.inputs as Any[] | undefined) ?? []).forEach((o, i) => {
      lexical(String(o.path), `inputs[${i}].path`);
    });
  }
  return issues;
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

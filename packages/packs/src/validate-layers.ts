import { posix } from 'node:path';
import { appendAll } from '@maestro/core';
import { isObject } from './graph-load.js';
import type { PackIssue, PackManifest } from './model.js';
import type { PackFile } from './pack-tree.js';
import { resolvePackPath } from './paths.js';
import { readPackJson } from './validate-files.js';

/**
 * The structured layers (reference CLI 0.7.2 parity, plus containment): every JSON file under
 * `ontology/` (exports aside) and `answers/` must parse, and the files an ontology manifest or
 * answer map lists must stay inside the pack (a missing one is a warning).
 */
export function checkLayers(realRoot: string, files: readonly PackFile[], m: PackManifest | null): PackIssue[] {
  const issues: PackIssue[] = [];
  const manifests = new Set([m?.primaryOntology, m?.primaryAnswers, 'ontology/ontology.json'].filter(Boolean));
  for (const file of files) {
    const layer = file.rel.startsWith('ontology/') || file.rel.startsWith('answers/');
    if (!layer || !file.rel.endsWith('.json') || file.rel.startsWith('ontology/exports/')) continue;
    const read = readPackJson(file);
    appendAll(issues, read.issues);
    if (read.data !== undefined && manifests.has(file.rel))
      appendAll(issues, listedFiles(realRoot, file.rel, read.data));
  }
  return issues;
}

function listedFiles(realRoot: string, manifest: string, data: unknown): PackIssue[] {
  if (!isObject(data) || !Array.isArray(data.files)) return [];
  const dir = posix.dirname(manifest);
  const issues: PackIssue[] = [];
  data.files.forEach((entry, i) => {
    const ref = typeof entry === 'string' ? entry : isObject(entry) ? (entry.path ?? entry.file) : undefined;
    if (typeof ref !== 'string') return;
    const field = `files[${i}]`;
    const rel = /^([\\/]|[A-Za-z]:)/.test(ref) || ref.startsWith(`${dir}/`) ? ref : posix.join(dir, ref);
    const r = resolvePackPath(realRoot, rel);
    if (!r.ok)
      issues.push({
        severity: 'error',
        code: 'PACK_PATH_OUTSIDE',
        file: manifest,
        field,
        message: `${field}: ${r.message}`,
      });
    else if (r.real === null)
      issues.push({
        severity: 'warning',
        code: 'PACK_MISSING_FILE',
        file: manifest,
        field,
        message: `${field}: points to missing file: ${ref}`,
      });
  });
  return issues;
}

import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { appendAll, inputError } from '@maestro/core';
import type { PackIssue, PackManifest } from './model.js';
import { ENTRY_FILE, readPackHead } from './pack-head.js';
import { listPackFiles } from './pack-tree.js';
import { resolvePackPath, safeRealpath } from './paths.js';
import { checkRecords } from './validate-files.js';
import { checkLayers } from './validate-layers.js';

export type ValidationStatus = 'passed' | 'needs-review' | 'failed';

export interface PackValidation {
  ok: boolean;
  status: ValidationStatus;
  /** Absolute pack directory. */
  pack: string;
  name: string | null;
  manifest: PackManifest | null;
  /** Errors first, then warnings; each names the file (relative to the pack) and the field. */
  findings: PackIssue[];
}

/** Bounds for walking a pack during validation. */
export const VALIDATE_LIMITS = { maxDepth: 12, maxEntries: 5000 };

/**
 * Validates one pack directory (or its `KNOWLEDGE.md`): frontmatter, profile consistency,
 * metadata paths, every symlink staying inside the pack, and the JSON records under `indexes/`,
 * `evals/` and `runs/`. Reads files, never executes anything. A path that does not exist or is
 * not a directory is bad input (exit 2); everything else is a finding.
 */
export function validatePack(path: string): PackValidation {
  const abs = resolve(path);
  if (!existsSync(abs)) {
    throw inputError('PACK_PATH_NOT_FOUND', `Path does not exist: ${abs}`, {
      hint: 'pass a pack directory or a pack name from `maestro pack list`',
    });
  }
  const dir = basename(abs) === ENTRY_FILE && statSync(abs).isFile() ? dirname(abs) : abs;
  if (!statSync(dir).isDirectory()) {
    throw inputError('PACK_NOT_DIRECTORY', `Not a directory: ${dir}`, {
      hint: 'pass the directory that holds KNOWLEDGE.md',
    });
  }
  const realRoot = safeRealpath(dir) ?? dir;
  const names = readdirSync(dir);
  if (!names.includes(ENTRY_FILE)) {
    const lower = names.find((n) => n.toLowerCase() === 'knowledge.md');
    const finding: PackIssue = {
      severity: 'error',
      code: 'PACK_MISSING_ENTRY',
      file: ENTRY_FILE,
      message: lower
        ? `Missing required file: ${ENTRY_FILE} (found ${lower}; the name is case-sensitive)`
        : `Missing required file: ${ENTRY_FILE}`,
    };
    return { ok: false, status: 'failed', pack: dir, name: null, manifest: null, findings: [finding] };
  }
  const head = readPackHead(dir, realRoot);
  const findings = [...head.issues];
  if (head.manifest)
    appendAll(findings, layoutFindings(realRoot, head.manifest, new Set(head.issues.map((i) => i.field))));
  const tree = listPackFiles(realRoot, { under: '', ...VALIDATE_LIMITS, skip: new Set(['node_modules']) });
  findings.push(
    ...tree.issues,
    ...checkRecords(realRoot, tree.files),
    ...checkLayers(realRoot, tree.files, head.manifest),
  );
  findings.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  const ok = !findings.some((f) => f.severity === 'error');
  return {
    ok,
    status: ok ? 'passed' : 'needs-review',
    pack: dir,
    name: head.manifest?.name ?? null,
    manifest: head.manifest,
    findings,
  };
}

function isDir(realRoot: string, rel: string): boolean {
  const r = resolvePackPath(realRoot, rel);
  if (!r.ok || r.real === null) return false;
  try {
    return statSync(r.real).isDirectory();
  } catch {
    return false;
  }
}

/** Profile consistency and metadata paths (the reference CLI 0.7.2 rules, plus containment). */
function layoutFindings(realRoot: string, m: PackManifest, flagged: ReadonlySet<string | undefined>): PackIssue[] {
  const out: PackIssue[] = [];
  const add: Finding = (severity, field, code, message) =>
    out.push({ severity, code, file: ENTRY_FILE, field, message });
  const checkFile = (field: string, ref: string | null, missing: 'error' | 'warning') => {
    if (ref === null) return;
    const r = resolvePackPath(realRoot, ref);
    if (!r.ok) add('error', field, 'PACK_PATH_OUTSIDE', `${field}: ${r.message}`);
    else if (r.real === null) add(missing, field, 'PACK_MISSING_FILE', `${field} points to missing file: ${ref}`);
  };
  checkFile('metadata.primaryDocument', m.primaryDocument, 'warning');
  checkFile('metadata.primaryOntology', m.primaryOntology, 'error');
  checkFile('metadata.primaryAnswers', m.primaryAnswers, 'error');
  profileFindings(realRoot, m, flagged, add);
  derivedLayerFindings(realRoot, m, add);
  return out;
}

type Finding = (severity: 'error' | 'warning', field: string, code: string, message: string) => void;

function profileFindings(
  realRoot: string,
  m: PackManifest,
  flagged: ReadonlySet<string | undefined>,
  add: Finding,
): void {
  const layout = (severity: 'error' | 'warning', field: string, message: string) =>
    add(severity, field, 'PACK_PROFILE_LAYOUT', message);
  if (m.profile === 'document-first' && m.profileDeclared) {
    if (!isDir(realRoot, 'documents'))
      layout('warning', 'profile', 'document-first profile should include a documents/ directory');
    if (m.primaryDocument === null && !flagged.has('metadata.primaryDocument')) {
      layout('warning', 'metadata.primaryDocument', 'document-first profile should declare metadata.primaryDocument');
    }
  }
  if (m.profile === 'wiki-first' && m.profileDeclared && !isDir(realRoot, 'wiki') && !isDir(realRoot, 'compiled')) {
    layout('warning', 'profile', 'wiki-first profile should include a wiki/ or compiled/ directory');
  }
  if (m.profile === 'hybrid' && m.primaryDocument === null && !isDir(realRoot, 'wiki')) {
    layout('warning', 'profile', 'hybrid profile should declare metadata.primaryDocument or keep a wiki/ directory');
  }
}

/** ontology/ and answers/ must agree with the metadata that declares them. */
function derivedLayerFindings(realRoot: string, m: PackManifest, add: Finding): void {
  const layout = (severity: 'error' | 'warning', field: string, message: string) =>
    add(severity, field, 'PACK_PROFILE_LAYOUT', message);
  const hasOntology = isDir(realRoot, 'ontology');
  if (m.type === 'content-ontology' && !hasOntology)
    layout('error', 'type', 'type content-ontology requires an ontology/ directory');
  if (m.primaryOntology !== null && !hasOntology) {
    layout(
      'warning',
      'metadata.primaryOntology',
      `metadata.primaryOntology is declared but ontology/ is missing: ${m.primaryOntology}`,
    );
  }
  if (hasOntology && m.primaryOntology === null)
    layout('warning', 'metadata.primaryOntology', 'ontology-aware packs should declare metadata.primaryOntology');
  const hasAnswers = isDir(realRoot, 'answers');
  if (m.primaryAnswers !== null && !hasAnswers) {
    layout(
      'warning',
      'metadata.primaryAnswers',
      `metadata.primaryAnswers is declared but answers/ is missing: ${m.primaryAnswers}`,
    );
  }
  if (hasAnswers && m.primaryAnswers === null)
    layout('warning', 'metadata.primaryAnswers', 'answer-ready packs should declare metadata.primaryAnswers');
}

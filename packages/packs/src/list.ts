import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { inputError } from '@maestro/core';
import type { CatalogEntry } from './catalog.js';
import { gitignoredHint, isPathSelection, loadCatalog, type PackScopeOptions } from './load-catalog.js';
import type { PackListOutputData, PackValidateOutputData } from './output-schemas.js';
import { validatePack } from './validate.js';

function listEntry(e: CatalogEntry): PackListOutputData['packs'][number] {
  const m = e.pack.manifest;
  return {
    name: e.name,
    description: m?.description ?? null,
    type: m?.type ?? null,
    status: m?.status ?? null,
    profile: m?.profile ?? null,
    runtime_mode: m?.mode ?? null,
    grounding: m?.grounding ?? null,
    version: m?.version ?? null,
    trust: { declared: e.trust.declared, effective: e.trust.effective },
    scope: e.pack.scope,
    home_scope: e.pack.home,
    location: e.pack.location,
    root: e.pack.root,
    state: e.state,
    explicit: e.explicit,
    metadata_only: e.trust.metadataOnly,
    shadowed_by: e.shadowedBy,
    errors: e.pack.issues.filter((i) => i.severity === 'error').length,
    warnings: e.pack.issues.filter((i) => i.severity === 'warning').length,
  };
}

/**
 * `maestro pack list`: every pack in every scope with its state (active, shadowed, disabled,
 * invalid), declared and effective trust, and the scan and collision diagnostics. Only
 * frontmatter is read; an untrusted workspace's packs are marked metadata-only.
 */
export function listPacks(o: PackScopeOptions): PackListOutputData {
  const loaded = loadCatalog(o);
  return {
    workspace_trusted: loaded.workspaceTrusted,
    scopes: loaded.scans.map((s) => ({
      scope: s.scope,
      dir: s.dir,
      exists: s.exists,
      dirs_scanned: s.dirsScanned,
      packs: s.packs,
      truncated: s.truncated,
      ignored: s.ignored,
    })),
    packs: loaded.catalog.entries.map(listEntry),
    diagnostics: loaded.diagnostics,
  };
}

/**
 * `maestro pack validate <path|name>`: a path (anything with a separator, a leading `.`, or an
 * existing directory) is validated directly; a name is looked up across the scopes (the winning
 * copy, else any copy). An unknown name is bad input.
 */
export function validatePackTarget(target: string, o: PackScopeOptions): PackValidateOutputData {
  const asPath = resolve(o.cwd, target);
  let dir: string;
  if (isPathSelection(target) || existsSync(asPath)) dir = asPath;
  else {
    const loaded = loadCatalog({ ...o, packs: [] });
    const entry = loaded.catalog.active.get(target) ?? loaded.catalog.entries.find((e) => e.name === target);
    if (!entry) {
      const names = [...new Set(loaded.catalog.entries.map((e) => e.name))].sort();
      throw inputError('PACK_NOT_FOUND', `no pack named '${target}' in any scope, and no such path`, {
        hint:
          gitignoredHint(loaded.diagnostics, target) ??
          (names.length
            ? `known packs: ${names.join(', ')}`
            : 'pass the pack directory, e.g. `maestro pack validate ./my-pack`'),
      });
    }
    dir = entry.pack.root;
  }
  const v = validatePack(dir);
  return {
    ok: v.ok,
    status: v.status,
    command: 'validate',
    pack: v.pack,
    name: v.name,
    errors: v.findings.filter((f) => f.severity === 'error').length,
    warnings: v.findings.filter((f) => f.severity === 'warning').length,
    findings: v.findings.map((f) => ({
      severity: f.severity,
      code: f.code,
      file: f.file,
      ...(f.field ? { field: f.field } : {}),
      ...(f.line !== undefined ? { line: f.line } : {}),
      ...(f.column !== undefined ? { column: f.column } : {}),
      message: f.message,
      ...(f.hint ? { hint: f.hint } : {}),
    })),
  };
}

import { type Runtime, systemRuntime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import { type LoadedCorpus, loadCorpusFiles } from './corpus.js';
import { fmList, fmString } from './frontmatter.js';
import { setKnowhowFields } from './knowhow-edit.js';
import { knowhowIdFor } from './knowhow-file.js';
import type { KnowledgeEntry } from './model.js';
import { applyEntryEdits, type EntryEdits } from './spec-apply.js';
import { editCorpus, type FileWrite, type WriteOptions } from './write.js';

/** One link that names no entry, and what the repair does about it. */
export interface LinkRepair {
  id: string;
  store: 'spec' | 'knowhow';
  file: string;
  line: number | null;
  attribute: 'supersedes' | 'superseded-by';
  missing: string;
}

export interface LinkRepairResult {
  dryRun: boolean;
  repairs: LinkRepair[];
  /** Files written (or, with dryRun, that would be), relative to `.workflow/`. */
  files: string[];
  /** Links the repair cannot make safe (legacy entries have no attributes to edit). */
  skipped: LinkRepair[];
}

const reasonFor = (missing: string) =>
  `superseded by ${missing}, which is no entry of this project (link removed by maestro spec link repair)`;

/**
 * `spec link repair [--dry-run]`: removes every `supersedes` member and `superseded-by` value that
 * names no entry (a deleted entry, an issue id), on specs and knowhow. Nothing else changes: a
 * deprecated entry stays deprecated, and the successor it named is kept in its deprecation reason
 * (`deprecated-reason`, `deprecatedReason`) when it has none. Writes go through the parser, under
 * the corpus and file locks, in one journaled commit; a dry run reads without locking or writing.
 */
export async function repairLinks(
  layout: WorkflowLayout,
  options: { dryRun?: boolean } = {},
  runtime: Runtime = systemRuntime,
  write: WriteOptions = {},
): Promise<LinkRepairResult> {
  if (options.dryRun) {
    const { writes, result } = planLinkRepair(loadCorpusFiles(layout));
    return { ...result, dryRun: true, files: writes.map((w) => w.file) };
  }
  return editCorpus(layout, runtime, write, (loaded) => {
    const { writes, result } = planLinkRepair(loaded);
    return { writes, result: { ...result, dryRun: false, files: writes.map((w) => w.file) } };
  });
}

/** The repairs and the writes that make them (pure). */
export function planLinkRepair(loaded: LoadedCorpus): { writes: FileWrite[]; result: LinkRepairResult } {
  const byId = loaded.corpus.byId;
  const result: LinkRepairResult = { dryRun: false, repairs: [], files: [], skipped: [] };
  const specEdits = new Map<string, EntryEdits>();
  const writes: FileWrite[] = [];
  for (const e of loaded.corpus.entries) {
    const missing = e.supersedes.filter((id) => !byId.has(id));
    const dangling = e.supersededBy && !byId.has(e.supersededBy) ? e.supersededBy : null;
    if (missing.length === 0 && !dangling) continue;
    const found: LinkRepair[] = missing.map((m) => repair(e, 'supersedes', m));
    if (dangling) found.push(repair(e, 'superseded-by', dangling));
    if (e.store === 'spec' && e.legacy) {
      for (const f of found) result.skipped.push(f);
      continue;
    }
    for (const f of found) result.repairs.push(f);
    if (e.store === 'spec') {
      const edits = specEdits.get(e.file) ?? new Map();
      const kept = missing.length ? e.supersedes.filter((id) => byId.has(id)) : null;
      edits.set(e.id, specChanges(e, kept, dangling));
      specEdits.set(e.file, edits);
    } else {
      const file = loaded.knowhow.find((k) => k.entry === e);
      if (file) writes.push({ file: e.file, text: knowhowText(file, e, byId, dangling) });
    }
  }
  for (const [file, edits] of specEdits) {
    const loadedFile = loaded.specs.find((s) => s.file === file);
    if (loadedFile) writes.push({ file, text: applyEntryEdits(loadedFile, edits) });
  }
  return { writes, result };
}

function repair(e: KnowledgeEntry, attribute: LinkRepair['attribute'], missing: string): LinkRepair {
  return { id: e.id, store: e.store, file: e.file, line: e.line, attribute, missing };
}

function specChanges(e: KnowledgeEntry, kept: readonly string[] | null, dangling: string | null) {
  const changes: Record<string, string | null> = {};
  if (kept) changes.supersedes = kept.length ? kept.join(',') : null;
  if (dangling) {
    if (e.attributes?.['superseded-by'] !== undefined) changes['superseded-by'] = null;
    if (e.attributes?.superseded_by !== undefined) changes.superseded_by = null;
    if (e.status === 'deprecated' && !e.attributes?.['deprecated-reason']) {
      changes['deprecated-reason'] = reasonFor(dangling);
    }
  }
  return changes;
}

function knowhowText(
  file: LoadedCorpus['knowhow'][number],
  e: KnowledgeEntry,
  byId: ReadonlyMap<string, KnowledgeEntry>,
  dangling: string | null,
): string {
  const names = (v: string) => byId.has(v) || byId.get(knowhowIdFor(v.trim()))?.store === 'knowhow';
  const changes: Record<string, string | readonly string[] | null> = {};
  const raw = fmList(file.model.data, 'supersedes');
  const kept = raw.filter(names);
  if (kept.length !== raw.length) changes.supersedes = kept.length ? kept : null;
  if (dangling) {
    changes.supersededBy = null;
    const hasReason = !!fmString(file.model.data, 'deprecatedReason')?.trim();
    if (e.status === 'deprecated' && !hasReason) changes.deprecatedReason = reasonFor(dangling);
  }
  return setKnowhowFields(file.text, changes, { inlineLists: true });
}

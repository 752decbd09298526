import {
  compactDate,
  inputError,
  isoDate,
  newSid,
  type Runtime,
  randomBase36,
  refusedError,
  systemRuntime,
} from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { LoadedCorpus } from './corpus.js';
import { buildLinks } from './history.js';
import type { KnowledgeEntry } from './model.js';
import { applyEntryEdits, type EntryEdits, requireSpecEntry } from './spec-apply.js';
import { editCorpus, type FileWrite, type WriteOptions } from './write.js';

/** Writes for edits grouped per file (one text per file, all edits applied). */
function writesFor(loaded: LoadedCorpus, edits: EntryEdits): FileWrite[] {
  const byFile = new Map<string, EntryEdits>();
  for (const [id, changes] of edits) {
    const file = loaded.corpus.byId.get(id)!.file;
    if (!byFile.has(file)) byFile.set(file, new Map());
    byFile.get(file)!.set(id, changes);
  }
  return [...byFile].map(([file, e]) => ({
    file,
    text: applyEntryEdits(loaded.specs.find((s) => s.file === file)!, e),
  }));
}

/** Only the attributes whose value actually changes. */
function diff(entry: KnowledgeEntry, changes: Record<string, string | null>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(changes)) {
    const current = entry.attributes?.[k];
    if (v === null ? current !== undefined : current !== v) out[k] = v;
  }
  return out;
}

export interface SupersedeResult {
  old: string;
  new: string;
  /** False when both sides already said so (a rerun): nothing was written. */
  changed: boolean;
  files: string[];
}

/** Refusals of a supersession, shared by specs and knowhow. */
export function checkSupersede(
  old: KnowledgeEntry,
  next: KnowledgeEntry,
  byId: ReadonlyMap<string, KnowledgeEntry>,
  historyHint: (id: string) => string,
): void {
  if (old.id === next.id) {
    throw refusedError('SELF_SUPERSESSION', `${old.id} cannot supersede itself`, {
      hint: 'name a different replacement',
    });
  }
  if (old.supersededBy && old.supersededBy !== next.id) {
    throw refusedError('ALREADY_SUPERSEDED', `${old.id} is already superseded by ${old.supersededBy}`, {
      hint: `run \`${historyHint(old.supersededBy)}\` and supersede the current version instead`,
    });
  }
  if (next.status === 'deprecated' && !(next.supersedes.includes(old.id) && old.supersededBy === next.id)) {
    throw refusedError('REPLACEMENT_DEPRECATED', `the replacement ${next.id} is deprecated`, {
      hint: `run \`${historyHint(next.id)}\` and supersede by the current version`,
    });
  }
  const { successors } = buildLinks(byId.values(), byId);
  const seen = new Set<string>([next.id]);
  const queue = [next.id];
  while (queue.length) {
    for (const s of successors.get(queue.shift()!) ?? []) {
      if (s === old.id) {
        throw refusedError(
          'SUPERSEDE_CYCLE',
          `${old.id} already follows ${next.id}; superseding it would make a cycle`,
          {
            hint: `run \`${historyHint(old.id)}\` to see the chain`,
          },
        );
      }
      if (!seen.has(s)) {
        seen.add(s);
        queue.push(s);
      }
    }
  }
}

/**
 * `spec supersede <old> --by <new>`: the old entry becomes `status="deprecated"
 * superseded-by="<new>"`, the new one's `supersedes` gains `<old>` (merged, deduped). Both sides
 * are written in one commit. Self-supersession, cycles, re-pointing an existing `superseded-by`
 * and a deprecated replacement are refused (exit 1); a rerun is a no-op.
 */
export function supersedeEntry(
  layout: WorkflowLayout,
  oldId: string,
  newId: string,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<SupersedeResult> {
  return editCorpus(layout, runtime, options, (loaded) => {
    const { entry: old } = requireSpecEntry(loaded, oldId, { needSid: true });
    const { entry: next } = requireSpecEntry(loaded, newId, { needSid: true });
    checkSupersede(old, next, loaded.corpus.byId, (id) => `maestro spec history ${id}`);
    const edits: EntryEdits = new Map();
    const oldChanges = diff(old, { status: 'deprecated', 'superseded-by': next.id });
    const merged = [...new Set([...next.supersedes, old.id])].join(',');
    const newChanges = diff(next, { supersedes: merged });
    if (Object.keys(oldChanges).length) edits.set(old.id, oldChanges);
    if (Object.keys(newChanges).length) edits.set(next.id, newChanges);
    const writes = writesFor(loaded, edits);
    return {
      writes,
      result: { old: old.id, new: next.id, changed: writes.length > 0, files: writes.map((w) => w.file) },
    };
  });
}

export interface EntryEditResult {
  id: string;
  file: string;
  changed: boolean;
}

/** `spec deprecate <id> [--reason r]`: `status="deprecated"` (+ `deprecated-reason`). A rerun is a no-op. */
export function deprecateEntry(
  layout: WorkflowLayout,
  id: string,
  reason: string | null = null,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<EntryEditResult> {
  return editCorpus(layout, runtime, options, (loaded) => {
    const { entry } = requireSpecEntry(loaded, id);
    const changes = diff(entry, { status: 'deprecated', ...(reason ? { 'deprecated-reason': reason } : {}) });
    const writes = Object.keys(changes).length ? writesFor(loaded, new Map([[entry.id, changes]])) : [];
    return { writes, result: { id: entry.id, file: entry.file, changed: writes.length > 0 } };
  });
}

export interface ConflictResult extends EntryEditResult {
  marker: string | null;
}

/**
 * `spec conflict mark <id> --note n`: `confidence="contested"`, a `CMK-YYYYMMDD-xxxx` marker, the
 * note and today's date. Addressed by id, never by line. Marking again keeps the marker and
 * updates note and date only if the note differs.
 */
export async function markConflict(
  layout: WorkflowLayout,
  id: string,
  note: string,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<ConflictResult> {
  if (!note.trim())
    throw inputError('MISSING_NOTE', 'the conflict note is empty', { hint: 'pass --note "<why it is contested>"' });
  return editCorpus(layout, runtime, options, (loaded) => {
    const { entry } = requireSpecEntry(loaded, id);
    const now = runtime.now();
    const marker = entry.conflict?.marker ?? `CMK-${compactDate(now)}-${randomBase36(runtime, 4)}`;
    const same = entry.confidence === 'contested' && entry.conflict?.note === note.trim();
    const changes = same
      ? {}
      : diff(entry, {
          confidence: 'contested',
          'conflict-marker': marker,
          'conflict-note': note.trim(),
          'conflict-date': isoDate(now),
        });
    const writes = Object.keys(changes).length ? writesFor(loaded, new Map([[entry.id, changes]])) : [];
    return { writes, result: { id: entry.id, file: entry.file, changed: writes.length > 0, marker } };
  });
}

/** `spec conflict clear <id>`: removes marker, note, date and a `contested` confidence. */
export function clearConflict(
  layout: WorkflowLayout,
  id: string,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<ConflictResult> {
  return editCorpus(layout, runtime, options, (loaded) => {
    const { entry } = requireSpecEntry(loaded, id);
    const changes = diff(entry, {
      'conflict-marker': null,
      'conflict-note': null,
      'conflict-date': null,
      ...(entry.attributes?.confidence?.trim().toLowerCase() === 'contested' ? { confidence: null } : {}),
    });
    const writes = Object.keys(changes).length ? writesFor(loaded, new Map([[entry.id, changes]])) : [];
    return { writes, result: { id: entry.id, file: entry.file, changed: writes.length > 0, marker: null } };
  });
}

export interface BackfillResult {
  count: number;
  assigned: { previousId: string; sid: string; file: string; line: number | null }[];
  /** Legacy heading entries, which have no tag to carry a sid. */
  legacySkipped: number;
}

/** `spec backfill-sid`: gives every tagged entry without a sid a new corpus-unique sid. Idempotent. */
export function backfillSids(
  layout: WorkflowLayout,
  runtime: Runtime = systemRuntime,
  options: WriteOptions = {},
): Promise<BackfillResult> {
  return editCorpus(layout, runtime, options, (loaded) => {
    const taken = new Set(loaded.corpus.byId.keys()); // the whole corpus is loaded here
    const edits: EntryEdits = new Map();
    const assigned: BackfillResult['assigned'] = [];
    let legacySkipped = 0;
    for (const e of loaded.corpus.entries) {
      if (e.store !== 'spec' || e.hasSid) continue;
      if (e.legacy) {
        legacySkipped++;
        continue;
      }
      const sid = newSid(runtime, taken);
      taken.add(sid);
      edits.set(e.id, { sid });
      assigned.push({ previousId: e.id, sid, file: e.file, line: e.line });
    }
    return { writes: writesFor(loaded, edits), result: { count: assigned.length, assigned, legacySkipped } };
  });
}

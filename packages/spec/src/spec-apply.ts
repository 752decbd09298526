import { inputError } from '@maestro/core';
import { findEntry, type LoadedCorpus, type LoadedSpecFile } from './corpus.js';
import type { KnowledgeEntry } from './model.js';
import { withAttributes } from './spec-edit.js';
import { serializeSpecFile } from './spec-file.js';

/** Attribute changes per entry id (null removes an attribute). */
export type EntryEdits = Map<string, Readonly<Record<string, string | null>>>;

/**
 * Applies attribute edits to a loaded spec file through its already-parsed model (no re-parse)
 * and returns the new text. Entry ids are the loaded ones (duplicate-sid copies included).
 */
export function applyEntryEdits(loaded: LoadedSpecFile, edits: EntryEdits): string {
  const segments = [...loaded.model.segments];
  let v = 0;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i];
    if (s.kind === 'text') continue;
    const entry = loaded.entries[v++];
    const changes = edits.get(entry.id);
    if (changes && s.kind === 'entry') segments[i] = withAttributes(s, changes);
  }
  return serializeSpecFile({ ...loaded.model, segments });
}

/** A spec entry by id (or alias), with the file it lives in; unknown ids are exit 2. */
export function requireSpecEntry(
  loaded: LoadedCorpus,
  id: string,
  options: { needSid?: boolean } = {},
): { entry: KnowledgeEntry; file: LoadedSpecFile } {
  const entry = findEntry(loaded.corpus, id);
  if (!entry) {
    throw inputError('UNKNOWN_ID', `no spec entry with id ${id}`, {
      hint: 'run `maestro spec list` (add --include-deprecated for deprecated entries) to see the ids',
    });
  }
  if (entry.store !== 'spec') {
    throw inputError('NOT_A_SPEC', `${id} is a knowhow document, not a spec entry`, {
      hint: 'use the `maestro knowhow ...` commands for knowhow',
    });
  }
  if (entry.legacy) {
    throw inputError(
      'LEGACY_ENTRY',
      `${id} is a legacy "### [category] [date] title" entry; it has no attributes to edit`,
      {
        hint: `convert it to a <spec-entry> block first (.workflow/${entry.file}:${entry.line})`,
        location: { file: `.workflow/${entry.file}`, line: entry.line ?? undefined },
      },
    );
  }
  if (options.needSid && !entry.hasSid) {
    throw inputError('NO_SID', `${id} has no sid yet (it is a derived id)`, {
      hint: 'run `maestro spec backfill-sid` to give every entry a sid, then use the new sid',
    });
  }
  const file = loaded.specs.find((f) => f.file === entry.file)!;
  return { entry, file };
}

/** Every sid in use in the corpus (for drawing new unique ones). */
export function takenIds(loaded: LoadedCorpus): Pick<ReadonlySet<string>, 'has'> {
  return loaded.ids ?? new Set(loaded.corpus.byId.keys());
}

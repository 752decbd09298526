import type { Issue } from '@maestro/core';
import type { DerivedStore } from '@maestro/store';
import {
  type EntrySpot,
  encodeSpots,
  keysOf,
  type PreviousFile,
  putKeys,
  type Spot,
  Spots,
  saveAppended,
  scanAppended,
  specSection,
  spotOf,
} from './corpus-store.js';
import type { KnowledgeEntry } from './model.js';

/**
 * For a writer of other derived state that found spec file `file` (relative to `.workflow/`)
 * only grew at its end, its first `oldSize` bytes being those hashed `oldSha` (checked by the
 * caller): brings the file's `spec` rows from those bytes to `text` (hashed `hash`, `size` bytes)
 * by parsing only the new end, when the stored rows are those of the old bytes. Anything else
 * is left to the next corpus load. Call inside the caller's write transaction.
 */
export function saveGrownSpecRows(
  store: DerivedStore,
  file: string,
  text: string,
  size: number,
  hash: string,
  oldSha: string,
): void {
  store.section(specSection());
  const row = store
    .prepare(
      'SELECT num, sha256, size, utf8, entries, default_category, issues, parse_issues FROM spec_files WHERE path = ?',
    )
    .get(file) as PreviousFile | undefined;
  if (!row || row.sha256 !== oldSha) return;
  const grown = scanAppended(store, file, text, size, hash, row, true);
  if (grown) saveAppended(store, grown);
}

/** A spec file re-derived in part by another section (see `saveSplicedSpecRows`). */
export interface SpecSplice {
  file: string;
  oldSha: string;
  sha256: string;
  size: number;
  /** Old entries `[pa, pb)` replaced by `entries` (scanned from the changed bytes, at `spots`). */
  pa: number;
  pb: number;
  entries: KnowledgeEntry[];
  spots: EntrySpot[];
  /** The scan's issues (its parse issues first). */
  issues: Issue[];
  parseIssues: number;
  /** UTF-8 byte offset of a character offset of the new text. */
  byteOf: (char: number) => number;
  /** Where the changed part starts (line, column): issues before it stand. */
  cut: { line: number; column: number };
  /** The line the kept part after the change started on in the old file (null: no kept part). */
  keptLine: number | null;
  /** How far the kept part after the change moved. */
  shift: { chars: number; bytes: number; lines: number; entries: number };
}

/**
 * Brings the `spec` rows of a file re-derived in part from the old rows: the entries before and
 * after the changed part keep theirs (moved), the changed part's come from its scan. Left to the
 * next corpus load when the stored rows are not those of the old bytes or an issue's place is
 * ambiguous. Call inside the caller's write transaction.
 */
export function saveSplicedSpecRows(store: DerivedStore, sp: SpecSplice): void {
  store.section(specSection());
  const row = store
    .prepare('SELECT num, sha256, utf8, entries, issues, parse_issues, spots FROM spec_files WHERE path = ?')
    .get(sp.file) as
    | {
        num: number;
        sha256: string;
        utf8: number;
        entries: number;
        issues: string;
        parse_issues: number;
        spots: Buffer;
      }
    | undefined;
  if (!row || row.sha256 !== sp.oldSha || row.utf8 !== 1) return;
  const { pa, pb, shift, cut, keptLine } = sp;
  const old = JSON.parse(row.issues) as Issue[];
  const before = (i: Issue) => (i.line as number) < cut.line || (i.line === cut.line && (i.column ?? 0) < cut.column);
  const after = (i: Issue) => keptLine !== null && (i.line as number) > keptLine;
  if (old.some((i) => i.line === undefined || (!before(i) && !after(i) && i.line === keptLine))) return;
  const moved = (i: Issue): Issue => ({ ...i, line: (i.line as number) + shift.lines });
  const oldParse = old.slice(0, row.parse_issues);
  const oldView = old.slice(row.parse_issues);
  const parse = oldParse.filter(before).concat(sp.issues.slice(0, sp.parseIssues), oldParse.filter(after).map(moved));
  const view = oldView.filter(before).concat(sp.issues.slice(sp.parseIssues), oldView.filter(after).map(moved));
  const stored = new Spots(row.spots, row.entries);
  const spots: Spot[] = [];
  for (let i = 0; i < pa; i++) spots.push(stored.at(i));
  sp.entries.forEach((e, i) => {
    const s = sp.spots[i];
    spots.push(spotOf(e, s, s.end === null ? null : [sp.byteOf(s.offset), sp.byteOf(s.end)]));
  });
  for (let i = pb; i < row.entries; i++) {
    const s = stored.at(i);
    spots.push({
      ...s,
      line: s.line === null ? null : s.line + shift.lines,
      offset: s.offset + shift.chars,
      end: s.end === null ? null : s.end + shift.chars,
      byteStart: s.byteStart === null ? null : s.byteStart + shift.bytes,
      byteEnd: s.byteEnd === null ? null : s.byteEnd + shift.bytes,
    });
  }
  const issues = parse.concat(view);
  store
    .prepare(
      'UPDATE spec_files SET sha256 = ?, size = ?, entries = ?, issues = ?, parse_issues = ?, spots = ? WHERE num = ?',
    )
    .run(sp.sha256, sp.size, spots.length, JSON.stringify(issues), parse.length, encodeSpots(spots), row.num);
  // Ids and links: the changed part's replaced, the later ones moved.
  for (const table of ['spec_ids', 'spec_links']) {
    store.prepare(`DELETE FROM ${table} WHERE file = ? AND pos >= ? AND pos < ?`).run(row.num, pa, pb);
    if (shift.entries !== 0) {
      // Through negative positions: no two rows share a key on the way.
      store
        .prepare(`UPDATE ${table} SET pos = -1 - (pos + ?) WHERE file = ? AND pos >= ?`)
        .run(shift.entries, row.num, pb);
      store.prepare(`UPDATE ${table} SET pos = -1 - pos WHERE file = ? AND pos < 0`).run(row.num);
    }
  }
  putKeys(store, row.num, pa, keysOf(sp.entries));
}

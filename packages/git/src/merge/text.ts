/** A three-way text merge: the merged text and how many conflict regions it holds. */
export interface TextMerge {
  text: string;
  conflicts: number;
}

/** Merges `ours` and `theirs` against `base` as plain text (git's `merge-file` in practice). */
export type MergeText = (ours: string, base: string, theirs: string) => TextMerge;

/** What the pure merges need besides the three texts. */
export interface MergeContext {
  mergeText: MergeText;
  /** Length of the conflict markers (git's `%L`, 7 by default). */
  markerSize?: number;
}

/** The trivial cases of a three-way merge; null when both sides changed the text differently. */
export function trivialMerge(base: string, ours: string, theirs: string): string | null {
  if (ours === theirs) return ours;
  if (ours === base) return theirs;
  if (theirs === base) return ours;
  return null;
}

/**
 * Standard conflict markers around two versions of one unit (an entry, a document). An empty side
 * (deleted there) leaves the markers with nothing between them, as git writes a delete.
 */
export function conflictBlock(ours: string, theirs: string, eol: string, markerSize = 7): string {
  const line = (s: string) => (s === '' || s.endsWith('\n') ? s : `${s}${eol}`);
  return (
    `${'<'.repeat(markerSize)} ours${eol}${line(ours)}` +
    `${'='.repeat(markerSize)}${eol}${line(theirs)}` +
    `${'>'.repeat(markerSize)} theirs`
  );
}

import { parseKnowhowFile } from '@maestro/spec';
import type { MergeConflict, MergeOutcome, MergeRefusal } from './spec-merge.js';
import { conflictBlock, type MergeContext, trivialMerge } from './text.js';

function frontmatterError(text: string, path: string): string | null {
  const e = parseKnowhowFile(text, path).issues.find((i) => i.severity === 'error');
  return e ? `line ${e.line ?? '?'}: ${e.message}` : null;
}

/**
 * Merges three versions of a knowhow document (pure): one document is one entry. Changed on one
 * side, that side wins; changed on both, the changes are merged as text when they do not overlap
 * and the result still has readable frontmatter; otherwise the whole document stands between
 * conflict markers. Returns a refusal when a side's frontmatter does not parse.
 */
export function mergeKnowhowFile(
  base: string,
  ours: string,
  theirs: string,
  path: string,
  ctx: MergeContext,
): MergeOutcome | MergeRefusal {
  for (const [label, text] of [
    ['the common ancestor', base],
    ['our version', ours],
    ['their version', theirs],
  ] as const) {
    const error = text === '' ? null : frontmatterError(text, path);
    if (error) return { fallback: `${label} does not parse (${error})` };
  }
  const counts = { entries: 1, ours: 0, theirs: 0, deleted: 0 };
  const same = trivialMerge(base, ours, theirs);
  if (same !== null) {
    if (same !== base) counts[same === ours ? 'ours' : 'theirs']++;
    return { text: same, conflicts: [], counts };
  }
  const key = path.split('/').pop() ?? path;
  const kind: MergeConflict['kind'] = base === '' ? 'both-added' : 'both-edited';
  if (base !== '') {
    const m = ctx.mergeText(ours, base, theirs);
    if (m.conflicts === 0 && frontmatterError(m.text, path) === null) {
      return { text: m.text, conflicts: [], counts: { ...counts, ours: 1, theirs: 1 } };
    }
  }
  const eol = ours.includes('\r\n') ? '\r\n' : '\n';
  const text = `${conflictBlock(ours, theirs, eol, ctx.markerSize ?? 7)}${eol}`;
  return { text, conflicts: [{ key, kind }], counts };
}

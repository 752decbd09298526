import { contentHash, normalizeText, refusedError } from '@maestro/core';
import type { Corpus, KnowledgeEntry } from '@maestro/spec';

/**
 * Title preflight (pure), run before anything is written: two selected spec candidates with the
 * same normalised title but different content, or a candidate whose title is taken by an active
 * entry with different content, are refused. An active entry with the same title *and* content
 * is the same rule restated: the caller records a reaffirmation of it instead of a copy.
 */

export interface TitleCandidate {
  candidate_id: string;
  title: string;
  content: string;
  /** The entry this candidate supersedes (its title may be the same), if any. */
  supersedes: string | null;
  /** The candidate's planned sid: an entry with it is the candidate's own earlier write. */
  plannedId: string;
}

function titled(e: KnowledgeEntry): boolean {
  return e.titleSource !== 'content' && e.titleSource !== 'none';
}

/** Active spec entries by normalised title. */
export function activeSpecTitles(corpus: Corpus): Map<string, KnowledgeEntry[]> {
  const out = new Map<string, KnowledgeEntry[]>();
  for (const e of corpus.entries) {
    if (e.store !== 'spec' || e.status !== 'active' || !titled(e)) continue;
    const key = normalizeText(e.title);
    const list = out.get(key);
    if (list) list.push(e);
    else out.set(key, [e]);
  }
  return out;
}

/**
 * Returns, per candidate id, the existing identical entry to reaffirm (if any); throws
 * `TITLE_CONFLICT` (exit 1) for the first conflict, naming both sides and how to resolve it.
 */
export function preflightTitles(
  sessionId: string,
  candidates: readonly TitleCandidate[],
  titles: ReadonlyMap<string, readonly KnowledgeEntry[]>,
): Map<string, KnowledgeEntry> {
  const seen = new Map<string, TitleCandidate>();
  const reaffirm = new Map<string, KnowledgeEntry>();
  for (const c of candidates) {
    const key = normalizeText(c.title);
    const other = seen.get(key);
    if (other) {
      throw refusedError(
        'TITLE_CONFLICT',
        `candidates ${other.candidate_id} and ${c.candidate_id} conflict on spec title "${c.title}"`,
        {
          hint: `promote one of them, run \`maestro knowledge review ${sessionId} --refresh\` and resolve the other; nothing was written`,
        },
      );
    }
    seen.set(key, c);
    const hash = contentHash(c.content);
    for (const e of titles.get(key) ?? []) {
      if (e.id === c.supersedes || e.id === c.plannedId) continue;
      if (e.contentHash === hash) {
        reaffirm.set(c.candidate_id, e);
        continue;
      }
      throw refusedError(
        'TITLE_CONFLICT',
        `candidate ${c.candidate_id} conflicts with existing spec title "${e.title}" (${e.id} at .workflow/${e.file}:${e.line ?? 1})`,
        {
          hint: `resolve it first, e.g. \`maestro knowledge review ${sessionId} --resolve ${c.candidate_id} --as supersede --target ${e.id} --reason "<why>"\`, or retitle one of them; nothing was written`,
          location: { file: `.workflow/${e.file}`, line: e.line ?? undefined },
        },
      );
    }
  }
  return reaffirm;
}

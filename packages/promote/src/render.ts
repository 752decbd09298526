import { contentHash, isoDate } from '@maestro/core';
import type { LedgerCandidate } from '@maestro/ledger';
import {
  categoryFileFor,
  isSpecCategory,
  renderKnowhowFile,
  renderSpecEntry,
  SPEC_INLINE_LIMIT,
  setKnowhowFields,
  summarize,
} from '@maestro/spec';
import type { PlannedIds } from './ids.js';

/**
 * The exact text a promoted candidate becomes (pure). Everything here is a function of the
 * candidate, its planned ids, the session and the promotion time, so a plan is reproducible.
 */

export interface RenderContext {
  sessionId: string;
  /** The promotion time (spec `date`, knowhow `created`). */
  now: Date;
}

type Candidate = Pick<
  LedgerCandidate,
  'candidate_id' | 'title' | 'content' | 'category' | 'source_kind' | 'evidence_refs' | 'target'
>;

/**
 * Provenance lives in `source` (`session:<session>:<candidate>`), never in keywords: keywords are
 * the entry's topic, and bookkeeping words there made every prompt that says "session" or
 * "knowledge" match every promoted rule.
 */
export const sourceOf = (sessionId: string, candidateId: string) => `session:${sessionId}:${candidateId}`;

/** `Promoted from <evidence refs>` (maestro-flow's description), at most 200 characters. */
export function descriptionOf(c: Candidate, sessionId: string): string {
  const refs = c.evidence_refs.length ? c.evidence_refs.join(', ') : `session ${sessionId}`;
  const text = `Promoted from ${refs}`;
  const chars = [...text];
  return chars.length <= 200 ? text : `${chars.slice(0, 199).join('')}…`;
}

/** The spec category a candidate lands in: its own when valid, else `learning`. */
export function specCategoryOf(c: Candidate): string {
  return c.category && isSpecCategory(c.category) ? c.category : 'learning';
}

export interface RenderedSpec {
  /** Relative to `.workflow/`, e.g. `specs/learnings.md`. */
  file: string;
  block: string;
  /** `contentHash` of the entry's content as it will parse (the summary when redirected). */
  entryHash: string;
  /** The DOC knowhow document holding the full text, when the content exceeds 2048 characters. */
  doc: { file: string; text: string; explicitId: string; contentHash: string } | null;
}

export function renderSpecCandidate(
  c: Candidate,
  ids: PlannedIds,
  ctx: RenderContext,
  supersedes: string | null,
): RenderedSpec {
  const category = specCategoryOf(c);
  const keywords: string[] = [];
  const description = descriptionOf(c, ctx.sessionId);
  const source = sourceOf(ctx.sessionId, c.candidate_id);
  const long = [...c.content].length > SPEC_INLINE_LIMIT;
  const content = long ? summarize(c.content) : c.content;
  const doc = long
    ? {
        file: ids.docFile,
        explicitId: ids.docExplicitId,
        contentHash: contentHash(c.content),
        text: renderKnowhowFile({
          title: c.title,
          type: 'document',
          body: c.content,
          created: ctx.now.toISOString(),
          description,
          explicitId: ids.docExplicitId,
          keywords,
          tags: ['promoted'],
          extra: { specCategory: category, source },
        }),
      }
    : null;
  const block = renderSpecEntry({
    category,
    keywords,
    date: isoDate(ctx.now),
    sid: ids.sid,
    title: c.title,
    description,
    source,
    ref: doc?.file ?? null,
    supersedes: supersedes ? [supersedes] : [],
    content,
  });
  return { file: `specs/${categoryFileFor(category)}`, block, entryHash: contentHash(content), doc };
}

/** A knowhow candidate as `knowhow/TIP-YYYYMMDD-<16hex>.md` (type tip, tags [promoted]). */
export function renderKnowhowCandidate(c: Candidate, ids: PlannedIds, ctx: RenderContext, supersedes: string | null) {
  const text = renderKnowhowFile({
    title: c.title,
    type: 'tip',
    body: c.content,
    created: ctx.now.toISOString(),
    description: descriptionOf(c, ctx.sessionId),
    category: c.category,
    explicitId: ids.tipExplicitId,
    keywords: [],
    tags: ['promoted'],
    extra: { source: sourceOf(ctx.sessionId, c.candidate_id) },
  });
  return {
    file: ids.tipFile,
    text: supersedes ? setKnowhowFields(text, { supersedes: [supersedes] }, { inlineLists: true }) : text,
    explicitId: ids.tipExplicitId,
    contentHash: contentHash(c.content),
  };
}

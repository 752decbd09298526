import { inputError } from '@maestro/core';
import { LIMITS, SELECTION } from './config.js';
import type { Alternative } from './expand.js';
import type { RankContext, RankedHit, Ranking, RankOptions, SearchIndex } from './model.js';
import { type ParsedQuery, parseQuery } from './query.js';
import { scoreQuery, termRankOf } from './score.js';
import { type Selected, selectResults } from './select.js';
import { makeSnippet } from './snippet.js';

export type CheckedRankOptions = RankOptions & Required<Pick<RankOptions, 'limit' | 'offset' | 'mode'>>;

function bad(what: string, got: unknown, hint: string) {
  return inputError('SEARCH_BAD_OPTION', `${what} (got ${JSON.stringify(got)})`, { hint });
}

/** Validates paging, mode and facet values; throws an input error (exit 2) naming the option. */
export function checkRankOptions(o: RankOptions = {}): CheckedRankOptions {
  const limit = o.limit ?? LIMITS.defaultLimit;
  const offset = o.offset ?? 0;
  const mode = o.mode ?? 'balanced';
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.maxLimit) {
    throw bad(`--limit must be a whole number from 1 to ${LIMITS.maxLimit}`, o.limit, 'for example --limit 20');
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw bad('--offset must be a whole number ≥ 0', o.offset, 'for example --offset 10 for the second page of 10');
  }
  if (mode !== 'balanced' && mode !== 'relevance') {
    throw bad(
      '--mode must be one of balanced, relevance',
      o.mode,
      'balanced diversifies the page; relevance is pure score order',
    );
  }
  if (o.type !== undefined && o.type !== 'spec' && o.type !== 'knowhow') {
    throw bad('--type must be one of spec, knowhow', o.type, 'omit --type to search both stores');
  }
  if (o.status !== undefined && o.status !== 'active' && o.status !== 'deprecated') {
    throw bad(
      '--status must be one of active, deprecated',
      o.status,
      'deprecated entries also appear with --include-deprecated',
    );
  }
  return { ...o, limit, offset, mode };
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** True when document `d` is in the posting list of term `r` (postings are sorted by document). */
function hasPosting(index: SearchIndex, r: number, d: number): boolean {
  let lo = index.termStart[r];
  let hi = index.termStart[r + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const x = index.postDoc[mid];
    if (x === d) return true;
    if (x < d) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

function toHit(
  index: SearchIndex,
  q: ParsedQuery,
  alternatives: readonly Alternative[][],
  s: Selected,
  rank: number,
  top: number,
): RankedHit {
  const doc = index.doc(s.c.doc);
  // The mask holds the first 31 terms; a longer query (a pasted prompt) looks the rest up.
  const matched = q.terms.filter((t, i) => {
    if (i < 31) return (s.c.mask & (1 << i)) !== 0;
    const r = termRankOf(index, t);
    return r >= 0 && hasPosting(index, r, s.c.doc);
  });
  // Terms matched through an alternative: the alternative's own index terms (logging for log).
  for (let i = 0; i < Math.min(31, alternatives.length); i++) {
    if ((s.c.altMask & (1 << i)) === 0) continue;
    for (const alt of alternatives[i]) {
      if (!alt.ranks.every((r) => hasPosting(index, r, s.c.doc))) continue;
      for (const t of alt.terms) if (!matched.includes(t)) matched.push(t);
    }
  }
  const body = index.body(s.c.doc);
  const source = body.trim() ? body : (doc.description ?? '');
  const snippet = makeSnippet(
    source,
    matched,
    q.phrases.map((p) => p.text),
  );
  return {
    rank,
    id: doc.id,
    store: doc.store,
    title: doc.title,
    category: doc.category,
    keywords: doc.keywords,
    status: doc.status,
    confidence: doc.confidence,
    date: doc.date,
    file: doc.file,
    line: doc.line,
    score: round4(s.c.score),
    relevance: top > 0 ? round4(s.c.score / top) : 0,
    selection_reason: s.reason,
    snippet: snippet.text,
    highlights: snippet.highlights,
    matched_terms: matched,
  };
}

/**
 * Ranks an index for a query: BM25F with coverage and time decay over every entry that passes the
 * facets and filters, a candidate pool of max(3 × (offset + limit), 40) (at most 1000, at least
 * offset + limit), then balanced or relevance selection and the requested page. Pure: no disk,
 * the clock and exposure counters come in `ctx`.
 */
export function rankIndex(
  index: SearchIndex,
  query: string | ParsedQuery,
  options: RankOptions,
  ctx: RankContext,
): Ranking {
  const o = checkRankOptions(options);
  const q = typeof query === 'string' ? parseQuery(query) : query;
  const k = o.offset + o.limit;
  const pool = Math.max(k, Math.min(SELECTION.poolMax, Math.max(SELECTION.poolMin, SELECTION.poolFactor * k)));
  const scored = scoreQuery(index, q, o, ctx.now, pool);
  const selected = selectResults({
    index,
    candidates: scored.candidates,
    k,
    limit: o.limit,
    offset: o.offset,
    mode: o.mode,
    exposure: o.mode === 'balanced' ? ctx.exposure : null,
  });
  const top = scored.candidates[0]?.score ?? 0;
  const page = selected.slice(o.offset, k);
  const hits = page.map((s, i) => toHit(index, q, scored.alternatives, s, o.offset + i + 1, top));
  return {
    total: scored.total,
    total_exact: scored.totalExact,
    hits,
    docs: page.map((s) => s.c.doc),
    exploration_available: o.mode === 'balanced' && ctx.exposure !== null,
  };
}

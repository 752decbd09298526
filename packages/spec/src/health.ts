import { relative } from 'node:path';
import { INDEXED_TEXT_MAX, isCapped } from '@maestro/core';
import { findLeftoverTemps, type WorkflowLayout } from '@maestro/fs';
import { loadCorpus } from './corpus.js';
import { buildLinks, cyclicIds } from './history.js';
import type { Corpus } from './model.js';
import { findUnindexedProse, type UnindexedProse } from './prose.js';

/** maestro-flow's spec time decay: 0.3 + 0.7·e^(−ln2·age/60 days). */
export const SPEC_HALF_LIFE_DAYS = 60;
const DAY = 86_400_000;

export function freshness(date: string, now: Date, halfLifeDays = SPEC_HALF_LIFE_DAYS): number {
  const t = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(t)) return 1;
  const age = Math.max(0, (now.getTime() - t) / DAY);
  return 0.3 + 0.7 * Math.exp((-Math.LN2 * age) / halfLifeDays);
}

export interface DanglingLink {
  id: string;
  missing: string;
  file: string;
  line: number | null;
}

export interface SpecHealth {
  total: number;
  active: number;
  deprecated: number;
  contested: number;
  lowConfidence: number;
  withSid: number;
  withoutSid: number;
  legacy: number;
  /** Supersession chains (connected groups of two or more linked entries). */
  chains: number;
  danglingSupersedes: DanglingLink[];
  danglingSupersededBy: DanglingLink[];
  cyclicSids: string[];
  /** Contested entries whose conflict-date is more than 30 days old. */
  contestedStale: number;
  /** Mean freshness of active dated entries (1 when there are none), 3 decimals. */
  avgFreshness: number;
  /** Active entries with freshness below 0.5 (older than about 108 days). */
  staleActive: number;
  issues: { errors: number; warnings: number };
  /**
   * Temp files left under `.workflow/` by interrupted writes (relative to `.workflow/`); filled by
   * `readSpecHealth`, empty from the pure `specHealth`. The next write of that file removes them.
   */
  leftoverTemps: string[];
  /**
   * Spec files that hold text but no entry (filled by `readSpecHealth`, empty from the pure
   * `specHealth`): search, context and the matcher never see that text.
   */
  unindexedProse: UnindexedProse[];
  /** Entries (specs and knowhow) longer than what search, context and the matcher index. */
  capped: { limit: number; entries: CappedEntry[] };
}

export interface CappedEntry {
  id: string;
  store: 'spec' | 'knowhow';
  file: string;
  line: number | null;
  chars: number;
}

/** `spec health`: counts over the spec entries of a corpus (pure; `now` from the runtime). */
export function specHealth(corpus: Corpus, now: Date): SpecHealth {
  const specs = corpus.entries.filter((e) => e.store === 'spec');
  const links = buildLinks(specs, corpus.byId);
  const h: SpecHealth = {
    total: specs.length,
    active: 0,
    deprecated: 0,
    contested: 0,
    lowConfidence: 0,
    withSid: 0,
    withoutSid: 0,
    legacy: 0,
    chains: countChains(links.successors),
    danglingSupersedes: [],
    danglingSupersededBy: [],
    cyclicSids: cyclicIds(links),
    contestedStale: 0,
    avgFreshness: 1,
    staleActive: 0,
    issues: {
      errors: corpus.issues.filter((i) => i.severity === 'error').length,
      warnings: corpus.issues.filter((i) => i.severity === 'warning').length,
    },
    leftoverTemps: [],
    unindexedProse: [],
    capped: { limit: INDEXED_TEXT_MAX, entries: [] },
  };
  for (const e of corpus.entries) {
    if (isCapped(e.content)) {
      h.capped.entries.push({ id: e.id, store: e.store, file: e.file, line: e.line, chars: e.content.length });
    }
  }
  let fresh = 0;
  let dated = 0;
  for (const e of specs) {
    h[e.status === 'deprecated' ? 'deprecated' : 'active']++;
    h[e.hasSid ? 'withSid' : 'withoutSid']++;
    if (e.legacy) h.legacy++;
    if (e.confidence === 'low') h.lowConfidence++;
    if (e.confidence === 'contested') {
      h.contested++;
      const d = e.conflict?.date ? Date.parse(`${e.conflict.date}T00:00:00Z`) : Number.NaN;
      if (!Number.isNaN(d) && now.getTime() - d > 30 * DAY) h.contestedStale++;
    }
    for (const s of e.supersedes) {
      if (!corpus.byId.has(s)) h.danglingSupersedes.push({ id: e.id, missing: s, file: e.file, line: e.line });
    }
    if (e.supersededBy && !corpus.byId.has(e.supersededBy)) {
      h.danglingSupersededBy.push({ id: e.id, missing: e.supersededBy, file: e.file, line: e.line });
    }
    if (e.status === 'active' && e.date) {
      const f = freshness(e.date, now);
      fresh += f;
      dated++;
      if (f < 0.5) h.staleActive++;
    }
  }
  h.avgFreshness = dated ? Math.round((fresh / dated) * 1000) / 1000 : 1;
  return h;
}

/** Connected components of the link graph (undirected), each with at least two members. */
function countChains(successors: Map<string, string[]>): number {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const [from, tos] of successors) {
    for (const node of [from, ...tos]) if (!parent.has(node)) parent.set(node, node);
    for (const to of tos) parent.set(find(from), find(to));
  }
  return new Set([...parent.keys()].map(find)).size;
}

/**
 * `maestro spec health`: the counts over the corpus, plus the temp files interrupted writes left
 * and the spec files whose text is outside any entry.
 * Pass `corpus` when the caller has loaded it already, so it is parsed once.
 */
export function readSpecHealth(layout: WorkflowLayout, now: Date, corpus: Corpus = loadCorpus(layout)): SpecHealth {
  const health = specHealth(corpus, now);
  health.leftoverTemps = findLeftoverTemps(layout.workflow).map((t) => relative(layout.workflow, t.path));
  health.unindexedProse = findUnindexedProse(layout, corpus);
  return health;
}

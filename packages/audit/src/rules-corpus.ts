import type { Issue } from '@maestro/core';
import { appendAll } from '@maestro/core';
import type { KnowledgeEntry } from '@maestro/spec';
import { cmp, finding, projectPath } from './finding.js';
import type { Finding } from './schemas.js';

/** Documented half-lives (days) of the freshness decay (spec health's; search ranks with a gentler decay). */
export const HALF_LIFE_DAYS = { spec: 60, knowhow: 30 } as const;
/** freshness = FLOOR + (1 − FLOOR) · 2^(−age / half-life); below STALE_BELOW an active entry is stale. */
export const FRESHNESS_FLOOR = 0.3;
export const STALE_BELOW = 0.5;
/** A `contested` entry whose conflict is older than this many days has waited too long for a decision. */
export const CONTESTED_STALE_DAYS = 30;
const DAY_MS = 86_400_000;
/** How many ids an aggregate finding names. */
const LIST_MAX = 10;

/** A knowhow `codePaths` entry and whether it exists (the reader stats it; the rule stays pure). */
export interface CodeRef {
  id: string;
  file: string;
  path: string;
  exists: boolean;
}

export function freshness(ageDays: number, halfLifeDays: number): number {
  return FRESHNESS_FLOOR + (1 - FRESHNESS_FLOOR) * 2 ** (-Math.max(0, ageDays) / halfLifeDays);
}

function ageDays(date: string | null, now: Date): number | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return null;
  const t = Date.parse(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(t) ? null : (now.getTime() - t) / DAY_MS;
}

const where = (e: KnowledgeEntry) => ({ file: projectPath(e.file), line: e.line });

/** Per-entry lifecycle rules: missing sid, stale contested, knowhow metadata, dangling ref. */
export function entryFindings(
  entries: readonly KnowledgeEntry[],
  files: ReadonlySet<string>,
  now: Date,
  inScope: (store: string) => boolean,
  brokenFiles: ReadonlySet<string> = new Set(),
): Finding[] {
  const out: Finding[] = [];
  for (const e of entries) {
    if (!inScope(e.store)) continue;
    if (e.store === 'spec' && !e.hasSid) {
      out.push(
        finding({
          priority: 'P2',
          store: 'spec',
          subtype: 'missing-stable-id',
          target: e.id,
          ...where(e),
          evidence: e.legacy
            ? `legacy entry "${e.title}" has no sid; it is known by the derived id ${e.id}`
            : `entry "${e.title}" has no sid; it is known by the derived id ${e.id}`,
          recommended_action: 'review',
          command: e.legacy ? null : 'maestro spec backfill-sid',
        }),
      );
    }
    const contested = staleContested(e, now);
    if (contested) out.push(contested);
    // A document whose frontmatter does not parse is reported once, as invalid-frontmatter.
    if (e.store === 'knowhow' && !brokenFiles.has(e.file)) appendAll(out, knowhowMetadata(e));
    const ref = danglingRef(e, files);
    if (ref) out.push(ref);
  }
  return out;
}

function staleContested(e: KnowledgeEntry, now: Date): Finding | null {
  if (e.status !== 'active' || e.confidence !== 'contested') return null;
  const since = e.conflict?.date ?? e.date;
  const age = ageDays(since, now);
  if (age === null || age <= CONTESTED_STALE_DAYS) return null;
  return finding({
    priority: 'P1',
    store: e.store,
    subtype: 'stale-contested',
    target: e.id,
    ...where(e),
    evidence: `contested since ${since} (${Math.floor(age)} days, limit ${CONTESTED_STALE_DAYS})${e.conflict?.note ? `: ${e.conflict.note}` : ''}`,
    recommended_action: 'review',
    // The rule stands once someone says so; the open question is in the note and the receipts.
    command: e.store === 'spec' ? `maestro spec conflict clear ${e.id}` : null,
  });
}

/** A spec `ref` to a knowhow document that is not in the corpus. */
function danglingRef(e: KnowledgeEntry, files: ReadonlySet<string>): Finding | null {
  if (e.store !== 'spec' || !e.ref) return null;
  const ref = e.ref.replace(/^\.\//, '').replace(/^\.workflow\//, '');
  if (!ref.startsWith('knowhow/') || files.has(ref)) return null;
  return finding({
    priority: 'P1',
    store: 'spec',
    subtype: 'dangling-ref',
    target: e.id,
    ...where(e),
    evidence: `ref="${e.ref}" names a knowhow document that does not exist`,
    related: [e.ref],
    recommended_action: 'review',
  });
}

function knowhowMetadata(e: KnowledgeEntry): Finding[] {
  const missing: string[] = [];
  if (e.titleSource !== undefined ? e.titleSource !== 'frontmatter' : !e.title.trim()) missing.push('title');
  if (!e.type) missing.push('type');
  if (!missing.length) return [];
  return [
    finding({
      priority: 'P1',
      store: 'knowhow',
      subtype: 'missing-required-metadata',
      target: e.id,
      ...where(e),
      evidence: `frontmatter has no ${missing.join(' and no ')}`,
      recommended_action: 'fix',
    }),
  ];
}

/** One aggregate finding per store: how many active entries decayed below the freshness threshold. */
export function staleFindings(
  entries: readonly KnowledgeEntry[],
  now: Date,
  inScope: (s: string) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const store of ['spec', 'knowhow'] as const) {
    if (!inScope(store)) continue;
    const stale: { e: KnowledgeEntry; f: number }[] = [];
    for (const e of entries) {
      if (e.store !== store || e.status !== 'active') continue;
      const age = ageDays(e.date, now);
      if (age === null) continue;
      const f = freshness(age, HALF_LIFE_DAYS[store]);
      if (f < STALE_BELOW) stale.push({ e, f });
    }
    if (!stale.length) continue;
    stale.sort((a, b) => a.f - b.f || cmp(a.e.id, b.e.id));
    const ids = stale.slice(0, LIST_MAX).map((s) => s.e.id);
    out.push(
      finding({
        priority: 'P2',
        store,
        subtype: 'stale-active-observation',
        target: store,
        evidence: `${stale.length} active ${store} entr${stale.length === 1 ? 'y has' : 'ies have'} freshness below ${STALE_BELOW} (half-life ${HALF_LIFE_DAYS[store]} days, floor ${FRESHNESS_FLOOR}); oldest: ${ids.join(', ')}`,
        related: ids,
        recommended_action: 'observe',
      }),
    );
  }
  return out;
}

/** Parse problems of the corpus: knowhow frontmatter and spec entries the user must fix. */
export function issueFindings(issues: readonly Issue[], inScope: (s: string) => boolean): Finding[] {
  const out: Finding[] = [];
  for (const i of issues) {
    if (i.code === 'DUPLICATE_ID') continue; // reported as the P0 duplicate-id finding
    const file = i.file.replace(/^\.\//, '');
    const rel = file.replace(/^\.workflow\//, '');
    const store = rel.startsWith('knowhow/') ? 'knowhow' : rel.startsWith('specs/') ? 'spec' : null;
    if (!store || !inScope(store)) continue;
    const error = i.severity === 'error';
    out.push(
      finding({
        priority: error ? 'P1' : 'P2',
        store,
        subtype:
          store === 'knowhow'
            ? error
              ? 'invalid-frontmatter'
              : 'frontmatter-warning'
            : error
              ? 'invalid-spec-entry'
              : 'spec-warning',
        target: file,
        file,
        line: i.line ?? null,
        evidence: `${i.code}: ${i.message}${i.hint ? ` (${i.hint})` : ''}`,
        recommended_action: 'fix',
        key: [i.code, String(i.line ?? 0), String(i.column ?? 0)],
      }),
    );
  }
  return out;
}

/** `ghost-code-reference`: a knowhow `codePaths` entry inside the project that no longer exists. */
export function codeRefFindings(refs: readonly CodeRef[], inScope: (s: string) => boolean): Finding[] {
  if (!inScope('knowhow')) return [];
  return refs
    .filter((r) => !r.exists)
    .map((r) =>
      finding({
        priority: 'P1',
        store: 'knowhow',
        subtype: 'ghost-code-reference',
        target: r.id,
        file: projectPath(r.file),
        evidence: `codePaths names ${r.path}, which no longer exists in the project`,
        related: [r.path],
        recommended_action: 'review',
        key: [r.path],
      }),
    );
}

/**
 * The `codePaths` entries worth checking: relative paths that stay inside the project. Absolute
 * paths, URLs and `..` escapes are someone else's tree and are left alone.
 */
export function codePathsToCheck(codePaths: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of codePaths) {
    const p = raw
      .trim()
      .replace(/\\/g, '/')
      .replace(/^\.\//, '')
      .replace(/#.*$/, '')
      .replace(/:\d+(?::\d+)?$/, '');
    if (!p || p.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(p)) continue;
    if (p.split('/').includes('..')) continue;
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

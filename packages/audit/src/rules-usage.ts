import type { KnowledgeEntry } from '@maestro/spec';
import { cmp, finding } from './finding.js';
import type { Finding, UsageStats } from './schemas.js';

/** maestro-flow's thresholds: a top-10 share above 0.75 or a Gini coefficient above 0.65. */
export const TOP10_SHARE_MAX = 0.75;
export const GINI_MAX = 0.65;
/**
 * With ten entries or fewer the top ten hold everything, so concentration says nothing; both
 * rules need more active entries than this.
 */
export const MIN_ENTRIES = 10;
/**
 * With few events the top ten hold them all by construction (one search shows ten entries), so
 * concentration is judged only once there are at least this many events.
 */
export const MIN_EVENTS = 50;

/** Counters per knowledge id; null when the counters are absent (not an error). */
export interface UsageSnapshot {
  exposure: ReadonlyMap<string, number> | null;
  consumption: ReadonlyMap<string, number> | null;
}

/** Concentration of `counts` over the active entries (zeros included). */
export function concentration(active: readonly string[], counts: ReadonlyMap<string, number> | null): UsageStats {
  if (!counts) return { available: false, events: 0, entries: active.length, top10_share: null, gini: null };
  const xs = active.map((id) => Math.max(0, counts.get(id) ?? 0)).sort((a, b) => a - b);
  const total = xs.reduce((s, x) => s + x, 0);
  if (total === 0 || xs.length === 0) {
    return { available: true, events: total, entries: xs.length, top10_share: null, gini: null };
  }
  const top10 = xs.slice(-10).reduce((s, x) => s + x, 0) / total;
  let weighted = 0;
  for (let i = 0; i < xs.length; i++) weighted += (i + 1) * xs[i];
  const n = xs.length;
  const gini = (2 * weighted) / (n * total) - (n + 1) / n;
  return { available: true, events: total, entries: n, top10_share: round(top10), gini: round(gini) };
}

function round(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * Observe-only findings about exposure (search/injection counters) and consumption (explicit
 * `load`/record signals in run ledgers). Low exposure can be long-tail value, so usage never
 * produces a prune action: these findings always recommend `observe`.
 */
export function usageFindings(
  entries: readonly KnowledgeEntry[],
  usage: UsageSnapshot,
): { findings: Finding[]; exposure: UsageStats; consumption: UsageStats } {
  const active = entries.filter((e) => e.status === 'active').map((e) => e.id);
  const exposure = concentration(active, usage.exposure);
  const consumption = concentration(active, usage.consumption);
  const findings: Finding[] = [];
  for (const [kind, stats, counts] of [
    ['exposure', exposure, usage.exposure],
    ['consumption', consumption, usage.consumption],
  ] as const) {
    if (!counts || stats.events < MIN_EVENTS || stats.entries <= MIN_ENTRIES) continue;
    const top = stats.top10_share ?? 0;
    const gini = stats.gini ?? 0;
    if (top <= TOP10_SHARE_MAX && gini <= GINI_MAX) continue;
    const leaders = active
      .filter((id) => (counts.get(id) ?? 0) > 0)
      .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || cmp(a, b))
      .slice(0, 10);
    findings.push(
      finding({
        priority: 'P2',
        store: 'usage',
        subtype: `${kind}-concentration`,
        target: kind,
        evidence: `top-10 share ${pct(top)} (limit ${pct(TOP10_SHARE_MAX)}), Gini ${gini.toFixed(2)} (limit ${GINI_MAX}) over ${stats.entries} active entries and ${stats.events} events; most ${kind === 'exposure' ? 'exposed' : 'consumed'}: ${leaders.join(', ')}`,
        related: leaders,
        recommended_action: 'observe',
      }),
    );
  }
  return { findings, exposure, consumption };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

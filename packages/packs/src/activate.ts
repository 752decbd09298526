import { maxOf } from '@maestro/core';
import type { Catalog, CatalogEntry } from './catalog.js';
import { expandedTerms } from './expand.js';
import type { Activation, PackManifest } from './model.js';
import { matchedTerms, matchScore, termIndex } from './tokens.js';

/** At most this many packs are activated implicitly or by the resolver per request. */
export const MAX_IMPLICIT = 3;
/** Share of query terms the catalog metadata must contain for implicit activation. */
export const IMPLICIT_THRESHOLD = 0.2;
/** Share the resolver hints (compiled view names and titles) must contain. */
export const RESOLVER_THRESHOLD = 0.34;

export interface ActivatedPack {
  entry: CatalogEntry;
  manifest: PackManifest;
  activation: Activation;
  score: number;
  /** Status warnings that travel in the wrapper. */
  warnings: string[];
}

export type PendingReason = 'needs-confirmation' | 'needs-approval';

export interface PendingPack {
  name: string;
  reason: PendingReason;
  status: string;
  scope: string;
  location: string;
  /** The flag that would let it through. */
  hint: string;
}

export interface SkippedPack {
  name: string;
  reason: 'archived' | 'ready-alternative-preferred' | 'activation-limit';
  message: string;
}

export interface ActivationPlan {
  activated: ActivatedPack[];
  pending: PendingPack[];
  skipped: SkippedPack[];
}

export interface ActivationRequest {
  query: string;
  /** Names confirmed for draft/disputed use (`--confirm`, or answered yes). */
  confirmed: ReadonlySet<string>;
  /** Resolver hints per pack name: names and titles of its compiled views. */
  resolverHints?: ReadonlyMap<string, string>;
}

const STATUS_WARNING: Record<string, string> = {
  draft: 'Pack status is draft: used after confirmation; its content has not been reviewed.',
  disputed: 'Pack status is disputed: parts of it are contested; verify before relying on it and say so.',
  'needs-review': 'Pack status is needs-review: it has known gaps or open questions; do not treat it as ready.',
  stale: 'Pack status is stale: it may be out of date; prefer newer sources and say that it may be outdated.',
  archived: 'Pack status is archived: used only because it was requested explicitly.',
};

/** The catalog text implicit activation matches against: name, description and type. */
export const metadataText = (m: PackManifest) =>
  `${m.name.replaceAll('-', ' ')} ${m.description} ${m.type.replace(/[:-]/g, ' ')}`;

/**
 * Decides which catalog packs take part in a request, and how: explicit selections always;
 * implicit ones when the query matches the name/description/type; resolver-driven ones when it
 * matches the names and titles of a pack's compiled views. Then the gates: untrusted workspace
 * packs need approval and draft/disputed packs confirmation (both reported as pending, never
 * used silently); archived packs only on explicit request; stale and needs-review packs are used
 * with warnings unless a ready pack matches at least as well. Pure.
 */
export function planActivation(catalog: Catalog, request: ActivationRequest): ActivationPlan {
  const queryTerms = expandedTerms(request.query);
  const plan: ActivationPlan = { activated: [], pending: [], skipped: [] };
  const matches: ActivatedPack[] = [];
  for (const entry of catalog.active.values()) {
    const manifest = entry.pack.manifest as PackManifest;
    const index = termIndex(metadataText(manifest));
    const score = matchScore(queryTerms, index);
    let activation: Activation | null = null;
    if (entry.explicit) activation = 'explicit';
    else if (score >= IMPLICIT_THRESHOLD || matchedTerms(queryTerms, index).length >= 2) activation = 'implicit';
    else {
      const hints = request.resolverHints?.get(entry.name);
      if (hints && matchScore(queryTerms, termIndex(hints)) >= RESOLVER_THRESHOLD) activation = 'resolver-driven';
    }
    if (activation === null) continue;
    matches.push({ entry, manifest, activation, score, warnings: [] });
  }
  const readyScore = maxOf(
    matches.filter((m) => m.manifest.status === 'ready').map((m) => m.score),
    -1,
  );
  const ranked = matches.sort(
    (a, b) =>
      Number(b.activation === 'explicit') - Number(a.activation === 'explicit') ||
      b.score - a.score ||
      (a.entry.name < b.entry.name ? -1 : 1),
  );
  let implicitCount = 0;
  for (const m of ranked) {
    const gate = gatePack(m, request.confirmed, readyScore);
    if (gate.kind === 'pending') plan.pending.push(gate.pending);
    else if (gate.kind === 'skip') plan.skipped.push(gate.skipped);
    else if (m.activation !== 'explicit' && ++implicitCount > MAX_IMPLICIT) {
      plan.skipped.push({
        name: m.entry.name,
        reason: 'activation-limit',
        message: `matched, but only the ${MAX_IMPLICIT} best matching packs are activated implicitly; select it with --pack ${m.entry.name}`,
      });
    } else plan.activated.push({ ...m, warnings: gate.warnings });
  }
  return plan;
}

type Gate =
  | { kind: 'use'; warnings: string[] }
  | { kind: 'pending'; pending: PendingPack }
  | { kind: 'skip'; skipped: SkippedPack };

function gatePack(m: ActivatedPack, confirmed: ReadonlySet<string>, readyScore: number): Gate {
  const { entry, manifest } = m;
  const pending = (reason: PendingReason, hint: string): Gate => ({
    kind: 'pending',
    pending: {
      name: entry.name,
      reason,
      status: manifest.status,
      scope: entry.pack.scope,
      location: entry.pack.location,
      hint,
    },
  });
  if (entry.trust.metadataOnly) return pending('needs-approval', `--approve ${entry.name} (or --trust-workspace)`);
  const status = manifest.status;
  const warnings: string[] = [];
  if (!manifest.profileDeclared) warnings.push('No profile declared: read as wiki-first (v0.5 compatibility).');
  if (status === 'ready') return { kind: 'use', warnings };
  if (status === 'archived') {
    if (m.activation === 'explicit') return { kind: 'use', warnings: [STATUS_WARNING.archived, ...warnings] };
    return {
      kind: 'skip',
      skipped: {
        name: entry.name,
        reason: 'archived',
        message: 'archived packs are used only on explicit request (--pack)',
      },
    };
  }
  if (status === 'draft' || status === 'disputed') {
    if (!confirmed.has(entry.name)) return pending('needs-confirmation', `--confirm ${entry.name}`);
    return { kind: 'use', warnings: [STATUS_WARNING[status], ...warnings] };
  }
  if (m.activation !== 'explicit' && readyScore >= m.score) {
    return {
      kind: 'skip',
      skipped: {
        name: entry.name,
        reason: 'ready-alternative-preferred',
        message: `status ${status}: a ready pack matches at least as well and is preferred`,
      },
    };
  }
  return { kind: 'use', warnings: [STATUS_WARNING[status], ...warnings] };
}

import { type ActivatedPack, type ActivationPlan, metadataText, planActivation } from './activate.js';
import { assembleContext, type ContextAssembly, type ContextPackInput, type ContextSpecInput } from './assemble.js';
import { collectCandidates, wantsEvidence } from './candidates.js';
import type { CatalogEntry } from './catalog.js';
import { catalogEntries, renderCatalogBlock } from './catalog-block.js';
import { expandedTerms } from './expand.js';
import { type LoadedCatalog, loadCatalog, type PackScopeOptions } from './load-catalog.js';
import type { PackResolveOutputData } from './output-schemas.js';
import { listPackFiles } from './pack-tree.js';
import { literalTerms, matchedTerms, termIndex } from './tokens.js';

export interface ResolveContextOptions extends PackScopeOptions {
  query: string;
  /** Hard token budget for everything emitted, wrappers included. */
  budget: number;
  /** Draft/disputed pack names confirmed for use. */
  confirm?: readonly string[];
  /** Relevant project specs (from search), for `maestro context`. */
  specs?: readonly ContextSpecInput[];
  /** Only implicitly/explicitly activated packs; false skips resolver-driven activation. */
  resolver?: boolean;
  /** Include each activated pack's guide (`KNOWLEDGE.md` body) when it fits; default true. */
  guide?: boolean;
  /** Put the model-facing catalog (`<available_knowledge_packs>`) first, within the budget. */
  catalog?: boolean;
}

/** The catalog takes at most this share of the budget when asked for; context keeps the rest. */
export const CATALOG_SHARE = 0.3;

export interface ResolvedContext {
  output: PackResolveOutputData;
  plan: ActivationPlan;
  assembly: ContextAssembly;
  loaded: LoadedCatalog;
}

/**
 * The use case behind `maestro pack resolve` and `maestro context`: discover and catalog packs,
 * activate and gate them, gather each activated pack's candidates (bounded reads, never
 * executing anything), then assemble persona, specs and data wrappers within the budget.
 */
export function resolveContext(o: ResolveContextOptions): ResolvedContext {
  const loaded = loadCatalog(o);
  const hints = o.resolver === false ? undefined : resolverHints([...loaded.catalog.active.values()]);
  const plan = planActivation(loaded.catalog, {
    query: o.query,
    confirmed: new Set(o.confirm ?? []),
    resolverHints: hints,
  });
  const queryTerms = expandedTerms(o.query);
  const inputs = plan.activated.map((a) => ({ ...packInput(a, queryTerms, o.query), guide: o.guide }));
  const evidence = wantsEvidence(o.query);
  const entries = o.catalog ? catalogEntries(loaded.catalog) : [];
  const wanted = o.catalog ? renderCatalogBlock(entries, o.budget).tokens : 0;
  const share = Math.min(wanted, Math.floor(o.budget * CATALOG_SHARE));
  const assembly = assembleContext({
    query: o.query,
    specs: o.specs ?? [],
    packs: inputs,
    budget: o.budget - share,
    evidence,
  });
  const catalog = o.catalog ? renderCatalogBlock(entries, o.budget - assembly.tokens) : null;
  const output = toOutput(o, plan, assembly, loaded, evidence);
  if (catalog) {
    output.context = `${catalog.text}${assembly.text}`;
    output.token_estimate = catalog.tokens + assembly.tokens;
    output.catalog = { listed: catalog.listed, omitted: catalog.omitted, tokens: catalog.tokens };
    if (catalog.omitted.length > 0)
      output.diagnostics.push({
        severity: 'warning',
        code: 'PACK_CATALOG_BUDGET',
        message: `${catalog.omitted.length} pack(s) left out of the catalog block to stay within the budget: ${catalog.omitted.join(', ')}`,
      });
  }
  return { output, plan, assembly, loaded };
}

/**
 * Terms that select content inside a pack: the query terms minus those its catalog metadata
 * already matched (they chose the pack; inside it, "Acme Widget" is in every file and says
 * nothing about which file to pick), unless that leaves none.
 */
export function selectionTerms(queryTerms: readonly string[], m: ActivatedPack['manifest']): string[] {
  const matched = new Set(matchedTerms(queryTerms, termIndex(metadataText(m))));
  const rest = queryTerms.filter((t) => !matched.has(t));
  return literalTerms(rest).length > 0 ? rest : [...queryTerms];
}

function packInput(a: ActivatedPack, queryTerms: readonly string[], query: string): ContextPackInput {
  const m = a.manifest;
  return {
    name: m.name,
    description: m.description,
    activation: a.activation,
    status: m.status,
    trust: a.entry.trust.effective,
    grounding: m.grounding,
    profile: m.profile,
    mode: m.mode,
    language: m.language,
    warnings: a.warnings,
    candidates: collectCandidates(a.entry.pack.realRoot, m, selectionTerms(queryTerms, m), query, queryTerms),
  };
}

/**
 * What the resolver knows about a pack beyond its catalog metadata: the names of its compiled
 * views and documents (a directory listing; no file is read). Untrusted packs get none.
 */
function resolverHints(entries: readonly CatalogEntry[]): Map<string, string> {
  const hints = new Map<string, string>();
  for (const e of entries) {
    if (e.trust.metadataOnly || e.explicit) continue;
    const names: string[] = [];
    for (const under of ['compiled', 'documents']) {
      const listed = listPackFiles(e.pack.realRoot, { under, maxDepth: 3, maxEntries: 500 });
      for (const f of listed.files) names.push(f.rel.replace(/\.[a-z]+$/i, '').replace(/[/_.-]+/g, ' '));
    }
    if (names.length > 0) hints.set(e.name, names.join('\n'));
  }
  return hints;
}

function toOutput(
  o: ResolveContextOptions,
  plan: ActivationPlan,
  assembly: ContextAssembly,
  loaded: LoadedCatalog,
  evidence: boolean,
): PackResolveOutputData {
  const packs = assembly.blocks
    .filter((b) => b.kind === 'pack' && b.input && b.selection)
    .map((b) => {
      const a = plan.activated.find((x) => x.manifest.name === b.name) as ActivatedPack;
      const s = b.selection as NonNullable<typeof b.selection>;
      return {
        name: b.name,
        activation: a.activation,
        scope: a.entry.pack.scope,
        location: a.entry.pack.location,
        status: a.manifest.status,
        trust: { declared: a.entry.trust.declared, effective: a.entry.trust.effective },
        grounding: a.manifest.grounding,
        profile: a.manifest.profile,
        runtime_mode: a.manifest.mode,
        wrapper_order: b.wrapperOrder,
        tokens: b.tokens,
        guide: s.guide,
        selected_files: s.units.filter((u) => u.kind !== 'guide').map((u) => u.path),
        selected_documents: s.selectedDocuments,
        selected_splits: s.selectedSplits,
        source_anchors: s.sourceAnchors,
        warnings: s.warnings,
      };
    });
  const specsBlock = assembly.blocks.find((b) => b.kind === 'specs');
  const specIds = new Set(specsBlock?.selected ?? []);
  return {
    query: o.query,
    budget: o.budget,
    token_estimate: assembly.tokens,
    context: assembly.text,
    wrapper_order: assembly.wrapperOrder,
    evidence_requested: evidence,
    packs,
    specs: (o.specs ?? [])
      .filter((s) => specIds.has(s.id))
      .map((s) => ({ id: s.id, title: s.title, category: s.category })),
    pending: plan.pending,
    skipped: plan.skipped,
    missing: assembly.missing,
    recommendation: assembly.missing.length > 0 ? 'ask_user_or_mark_unknown' : null,
    catalog: null,
    diagnostics: [
      ...loaded.diagnostics,
      ...(specsBlock?.warnings ?? []).map((message) => ({
        severity: 'warning' as const,
        code: 'CONTEXT_SPECS_BUDGET',
        message,
      })),
    ],
    record: null,
  };
}

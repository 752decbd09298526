import { existsSync, readdirSync } from 'node:fs';
import type { Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';
import type { PackResolveOutputData, PackScopeOptions } from '@maestro/packs';
import { estimateTokens } from '@maestro/packs/light';
import { recordExposure } from '@maestro/search/search';
import { RECALL, RECALLED_ELEMENT } from './config.js';
import { recallHits } from './recall.js';
import { renderRecalled } from './render.js';
import type { ContextOutputData } from './schemas.js';
import { type RecallHit, type RecallSelection, selectRecalled } from './select.js';

export interface PromptContextOptions extends PackScopeOptions {
  prompt: string;
  /** Hard token budget for everything in `context`, wrappers included. */
  budget: number;
  confirm?: readonly string[];
  /** Put the pack catalog (`<available_knowledge_packs>`) before the pack wrappers. */
  catalog?: boolean;
  /** Include each activated pack's guide when it fits (default true). */
  guide?: boolean;
  /** Count the recalled entries as shown (default true); exposure only, never consumption. */
  recordExposure?: boolean;
  /** The caller's session and run (attribution only: nothing is recorded on them). */
  session?: string | null;
  run?: string | null;
}

/**
 * False only when no pack can exist: nothing named explicitly, no catalog asked for, and none of
 * the scope roots exists (or each that does is an empty directory). Then the pack machinery (and its YAML and schema code) is not even
 * loaded, which keeps the prompt hook fast in the common case of a project without packs.
 */
export function mayHavePacks(o: PromptContextOptions): boolean {
  if ((o.packs ?? []).length > 0 || o.catalog) return true;
  const roots = [o.workspaceRoot, o.userRoot, o.builtinRoot, ...(o.orgRoots ?? [])];
  return roots.some((r) => typeof r === 'string' && existsSync(r) && !isEmptyDir(r));
}

/** True for a directory with nothing in it (it holds no pack); anything else may, or may need a diagnostic. */
function isEmptyDir(path: string): boolean {
  try {
    return readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** What `resolveContext` answers when there is no pack at all. */
function noPacks(query: string, budget: number): PackResolveOutputData {
  return {
    query,
    budget,
    token_estimate: 0,
    context: '',
    wrapper_order: [],
    evidence_requested: false,
    packs: [],
    specs: [],
    pending: [],
    skipped: [],
    missing: [],
    recommendation: null,
    catalog: null,
    diagnostics: [],
    record: null,
  };
}

const select = (hits: readonly RecallHit[], corpusSize: number, budget: number): RecallSelection =>
  selectRecalled(hits, { budget, corpusSize, estimate: estimateTokens, render: renderRecalled });

/**
 * What an agent receives for a prompt: the `<recalled-knowledge>` block (the project's entries
 * about the prompt, or nothing), then the packs the prompt activates, within one budget. The
 * blocks are a list, each rendered on its own and joined in order; recall gets what it needs up to
 * `RECALL.share` of the budget when packs are also activated, and everything the packs leave.
 * Writes nothing but exposure counters and the derived search index.
 */
export async function promptContext(
  layout: WorkflowLayout,
  o: PromptContextOptions,
  runtime: Runtime,
): Promise<{ data: ContextOutputData; warnings: string[] }> {
  const { hits, corpusSize, warnings } = await recallHits(layout, o.prompt, runtime);
  const wanted = estimateTokens(renderRecalled(select(hits, corpusSize, o.budget).chosen));
  const packBudget = o.budget - Math.min(wanted, Math.floor(o.budget * RECALL.share));
  const packs = mayHavePacks(o)
    ? (await import('@maestro/packs')).resolveContext({ ...o, query: o.prompt, budget: packBudget, specs: [] }).output
    : noPacks(o.prompt, packBudget);
  const recall = select(hits, corpusSize, o.budget - packs.token_estimate);
  const recalledText = renderRecalled(recall.chosen);
  const blocks = [
    { name: RECALLED_ELEMENT, text: recalledText, ids: recall.chosen.map((e) => e.id) },
    { name: 'packs', text: packs.context, ids: packs.packs.map((p) => p.name) },
  ].filter((b) => b.text);
  let exposureRecorded = false;
  if (recall.chosen.length > 0 && o.recordExposure !== false) {
    const failed = await recordExposure(
      layout,
      recall.chosen.map((e) => e.id),
    );
    if (failed) warnings.push(failed);
    exposureRecorded = failed === null;
  }
  const cut = recall.chosen.filter((e) => e.cut).map((e) => e.id);
  if (cut.length) warnings.push(cutWarning(cut));
  const context = blocks.map((b) => b.text).join('');
  const data: ContextOutputData = {
    ...packs,
    context,
    token_estimate: estimateTokens(context),
    wrapper_order: [...(recalledText ? [RECALLED_ELEMENT] : []), ...packs.wrapper_order],
    specs: recall.chosen.map((e) => ({ id: e.id, title: e.title, category: e.category })),
    session_id: o.session ?? null,
    run_id: o.run ?? null,
    exposure_recorded: exposureRecorded,
    blocks: blocks.map((b) => ({ name: b.name, tokens: estimateTokens(b.text), ids: b.ids })),
    recall: {
      top_score: recall.topScore,
      floor: recall.floor,
      left: recall.left,
      cut,
      contested: recall.chosen.filter((e) => e.contested).map((e) => e.id),
    },
  };
  return { data, warnings };
}

/** Says, on stderr, which entries were served cut to fit and how to read them whole. */
function cutWarning(ids: readonly string[]): string {
  const docs = ids.filter((id) => id.startsWith('knowhow-')).length;
  const what = [
    docs ? `${docs} knowhow document${docs === 1 ? '' : 's'}` : '',
    ids.length - docs ? `${ids.length - docs} spec entr${ids.length - docs === 1 ? 'y' : 'ies'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `${what} over the budget, served cut to fit: ${ids.map((id) => `\`maestro load --id ${id}\``).join(', ')} prints it whole`;
}

import type { PackCandidates } from './candidates.js';
import type { Activation, PackGrounding, PackProfile, PackStatus, PackTrust, RuntimeMode } from './model.js';
import { type PackSelection, selectPackContext } from './select.js';
import { estimateTokens, type TokenEstimator, termIndex, terms } from './tokens.js';
import { DATA_PREFACE, escapeAttr, neutraliseTags } from './wrap.js';

/** One activated pack with what it may contribute. */
export interface ContextPackInput {
  name: string;
  /** Catalog description; counts as coverage when reporting missing terms. */
  description?: string;
  activation: Activation;
  status: PackStatus;
  trust: PackTrust;
  grounding: PackGrounding;
  profile: PackProfile;
  mode: RuntimeMode;
  language: string | null;
  warnings: string[];
  candidates: PackCandidates;
  /** Include the guide tier (`KNOWLEDGE.md` body) within the budget; default true. */
  guide?: boolean;
}

/** One project spec or knowhow entry found relevant (by search), already ranked. */
export interface ContextSpecInput {
  id: string;
  title: string;
  category: string | null;
  text: string;
}

export interface AssembleInput {
  query: string;
  specs: readonly ContextSpecInput[];
  packs: readonly ContextPackInput[];
  budget: number;
  /** Attach `sources/` anchors (the request asked for evidence). */
  evidence?: boolean;
  estimate?: TokenEstimator;
}

export interface ContextBlock {
  kind: 'pack' | 'specs';
  name: string;
  mode: RuntimeMode;
  /** 1-based position among emitted wrappers, or null when nothing was emitted. */
  wrapperOrder: number | null;
  text: string;
  tokens: number;
  /** Pack paths, or spec ids. */
  selected: string[];
  warnings: string[];
  /** Pack blocks only. */
  selection: PackSelection | null;
  input: ContextPackInput | null;
}

export interface ContextAssembly {
  text: string;
  tokens: number;
  budget: number;
  /** Persona packs, then project specs, then data packs (emission order, empty blocks included). */
  blocks: ContextBlock[];
  wrapperOrder: string[];
  /** Query terms that no activated pack or spec mentions at all. */
  missing: string[];
}

export const SPECS_WRAPPER_NAME = 'project';

/**
 * Assembles the context an agent receives: persona pack wrappers first, then the project's
 * specs (one data wrapper), then data pack wrappers, all within one hard token budget. The budget
 * is shared by water-filling: each block first asks for what it wants with the whole budget;
 * when the sum is too large, small demands are met in full and the rest split evenly. Pure.
 */
export function assembleContext(input: AssembleInput): ContextAssembly {
  const estimate = input.estimate ?? estimateTokens;
  const ordered = [
    ...input.packs.filter((p) => p.mode === 'persona'),
    ...(input.specs.length > 0 ? [null] : []),
    ...input.packs.filter((p) => p.mode !== 'persona'),
  ];
  const build = (p: ContextPackInput | null, budget: number): ContextBlock =>
    p === null ? specsBlock(input.specs, budget, estimate) : packBlock(p, budget, estimate, input.evidence ?? false);
  const demands = ordered.map((p) => build(p, input.budget).tokens);
  const shares = waterFill(demands, input.budget);
  const blocks = ordered.map((p, i) => (shares[i] >= demands[i] ? build(p, input.budget) : build(p, shares[i])));
  let order = 0;
  for (const b of blocks) b.wrapperOrder = b.text ? ++order : null;
  const text = blocks.map((b) => b.text).join('');
  return {
    text,
    tokens: estimate(text),
    budget: input.budget,
    blocks,
    wrapperOrder: blocks.filter((b) => b.text).map((b) => b.name),
    missing: missingTerms(input),
  };
}

/** Splits `budget` so that demands below the fair share are met and the rest share evenly. */
export function waterFill(demands: readonly number[], budget: number): number[] {
  const shares = demands.map(() => 0);
  let left = budget;
  const open = demands.map((d, i) => ({ d, i })).sort((a, b) => a.d - b.d);
  for (let k = 0; k < open.length; k++) {
    const fair = Math.floor(left / (open.length - k));
    const give = Math.min(open[k].d, fair);
    shares[open[k].i] = give;
    left -= give;
  }
  return shares;
}

function packBlock(p: ContextPackInput, budget: number, estimate: TokenEstimator, evidence: boolean): ContextBlock {
  const selection = selectPackContext({
    wrapper: {
      name: p.name,
      status: p.status,
      trust: p.trust,
      grounding: p.grounding,
      profile: p.profile,
      mode: p.mode,
      language: p.language,
    },
    warnings: p.warnings,
    candidates: p.candidates,
    budget,
    estimate,
    evidence,
    guide: p.guide,
  });
  return {
    kind: 'pack',
    name: p.name,
    mode: p.mode,
    wrapperOrder: null,
    text: selection.text,
    tokens: selection.tokens,
    selected: selection.units.map((u) => u.path),
    warnings: selection.warnings,
    selection,
    input: p,
  };
}

function renderSpecs(items: readonly ContextSpecInput[]): string {
  const head = `<project_knowledge name="${SPECS_WRAPPER_NAME}" source=".workflow" status="active" mode="data">\n${DATA_PREFACE}\nSelected: ${items.map((s) => neutraliseTags(s.id)).join(', ')}\n`;
  const body = items
    .map(
      (s) =>
        `--- ${neutraliseTags(s.id)}${s.category ? ` [${escapeAttr(s.category)}]` : ''} ${neutraliseTags(s.title)} ---\n${neutraliseTags(s.text).trimEnd()}\n`,
    )
    .join('\n');
  return `${head}\n${body}</project_knowledge>\n`;
}

function specsBlock(specs: readonly ContextSpecInput[], budget: number, estimate: TokenEstimator): ContextBlock {
  const chosen: ContextSpecInput[] = [];
  for (const s of specs) {
    if (estimate(renderSpecs([...chosen, s])) <= budget) chosen.push(s);
  }
  const text = chosen.length > 0 ? renderSpecs(chosen) : '';
  const warnings =
    chosen.length < specs.length
      ? [`${specs.length - chosen.length} relevant spec(s) did not fit the budget of ${budget} tokens`]
      : [];
  return {
    kind: 'specs',
    name: SPECS_WRAPPER_NAME,
    mode: 'data',
    wrapperOrder: null,
    text,
    tokens: text ? estimate(text) : 0,
    selected: chosen.map((s) => s.id),
    warnings,
    selection: null,
    input: null,
  };
}

/** Latin query terms found nowhere in the activated packs' candidates or the specs. */
function missingTerms(input: AssembleInput): string[] {
  if (input.packs.length === 0 && input.specs.length === 0) return [];
  const words = new Set<string>();
  const add = (index: { words: Set<string> }) => {
    for (const w of index.words) words.add(w);
  };
  for (const p of input.packs) {
    add(termIndex(`${p.name.replaceAll('-', ' ')} ${p.description ?? ''}`));
    for (const f of p.candidates.files) add(f.index);
    for (const g of p.candidates.graph) add(termIndex(g.full));
    if (p.candidates.guide) for (const s of p.candidates.guide.sections) add(s.index);
  }
  for (const s of input.specs) add(termIndex(`${s.title} ${s.text}`));
  return terms(input.query).filter((t) => /^[a-z0-9]+$/.test(t) && !words.has(t));
}

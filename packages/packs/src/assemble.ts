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
  /** The entry's text (the caller may pass only its indexed part; `chars` then says how long it is). */
  text: string;
  /** `knowhow` for a knowhow document (default `spec`), so messages name what it is. */
  store?: 'spec' | 'knowhow';
  /** The entry's description, shown when the text is over the budget. */
  summary?: string | null;
  /** Length of the whole text in characters, when `text` is only part of it. */
  chars?: number;
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
  const excerpted: ContextSpecInput[] = [];
  let missed = 0;
  for (const s of specs) {
    const fit = fitting(s, chosen, budget, estimate);
    if (fit === null) missed++;
    else {
      chosen.push(fit);
      if (fit !== s) excerpted.push(s);
    }
  }
  const text = chosen.length > 0 ? renderSpecs(chosen) : '';
  const warnings: string[] = [];
  if (excerpted.length > 0) {
    const ids = excerpted.map((s) => s.id).join(', ');
    warnings.push(
      `${entries(excerpted)} over the budget of ${budget} tokens, shown as a summary: ${ids} (read in full: maestro load --id ${excerpted[0].id})`,
    );
  }
  if (missed > 0)
    warnings.push(`${missed} relevant entr${missed === 1 ? 'y' : 'ies'} did not fit the budget of ${budget} tokens`);
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

/** "1 knowhow document", "2 spec entries", "3 entries" (knowhow and specs). */
function entries(list: readonly ContextSpecInput[]): string {
  const kinds = new Set(list.map((s) => s.store ?? 'spec'));
  const n = list.length;
  if (kinds.size > 1) return `${n} entries`;
  return kinds.has('knowhow') ? `${n} knowhow document${n === 1 ? '' : 's'}` : `${n} spec entr${n === 1 ? 'y' : 'ies'}`;
}

const SUMMARY_CHARS = [600, 300, 120];

/**
 * What of one entry fits beside those already chosen: the entry itself, else a summary (its
 * description, or the start of its text) with a pointer to the whole, else nothing.
 */
function fitting(
  s: ContextSpecInput,
  chosen: readonly ContextSpecInput[],
  budget: number,
  estimate: TokenEstimator,
): ContextSpecInput | null {
  const whole = s.chars === undefined || s.chars <= s.text.length;
  if (whole && estimate(s.text) <= budget && estimate(renderSpecs([...chosen, s])) <= budget) return s;
  const chars = s.chars ?? s.text.length;
  const source = s.summary?.trim() || s.text;
  for (const max of SUMMARY_CHARS) {
    const head = source.length > max ? `${cutAtSpace(source, max)} …` : source;
    const text = `${head}\n[summary of ${chars} characters; the whole ${s.store === 'knowhow' ? 'document' : 'entry'}: maestro load --id ${s.id}]`;
    const summary = { ...s, text, chars: undefined };
    if (estimate(renderSpecs([...chosen, summary])) <= budget) return summary;
  }
  return null;
}

/** The first `max` characters of `text`, ending at a space when there is one. */
function cutAtSpace(text: string, max: number): string {
  const space = text.lastIndexOf(' ', max);
  return text.slice(0, space > 0 ? space : max).trimEnd();
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

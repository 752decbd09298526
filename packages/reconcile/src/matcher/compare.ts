import { lexicon } from '@maestro/lexicon';
import type { Clause, TextFeatures } from './analyze.js';
import type { NumberFact } from './extract.js';
import { type ScopeRelation, scopeOf } from './scope.js';

export interface Overlap {
  shared: number;
  a: number;
  b: number;
}

export function overlap(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): Overlap {
  let shared = 0;
  let wa = 0;
  let wb = 0;
  for (const [t, w] of a) {
    wa += w;
    const v = b.get(t);
    if (v !== undefined) shared += Math.min(w, v);
  }
  for (const w of b.values()) wb += w;
  return { shared, a: wa, b: wb };
}

export const diceOf = (o: Overlap) => (o.a + o.b === 0 ? 0 : (2 * o.shared) / (o.a + o.b));
const cover = (shared: number, total: number) => (total === 0 ? 0 : shared / total);

export interface ClauseSignal {
  kind: 'stance' | 'numeric' | 'choice' | 'contrast';
  detail: string;
}

type Display = ReadonlyMap<string, string>;

function altMismatch(c: Clause, d: Clause, cd: Display, dd: Display): string | null {
  for (const [set, mc] of c.members) {
    const md = d.members.get(set);
    if (!md) continue;
    const onlyC = [...mc].filter((x) => !md.has(x));
    const onlyD = [...md].filter((x) => !mc.has(x));
    if (onlyC.length && onlyD.length) return `${cd.get(onlyC[0]) ?? onlyC[0]} vs ${dd.get(onlyD[0]) ?? onlyD[0]}`;
  }
  return null;
}

function valueKey(n: NumberFact): string {
  return String(n.value);
}

/**
 * Where a value of one clause is also stated by the other text, in a clause at least as close to
 * it as the one compared: that value is said of the same subject there (the unit-test timeout
 * against the unit-test one, not the integration-test one), so it is no different value here.
 */
export type Elsewhere = (value: NumberFact, side: 'a' | 'b') => boolean;

/** The `Elsewhere` of clause `c` (candidate) against clause `d` (entry), given both texts' clauses. */
export function statedElsewhere(
  c: Clause,
  d: Clause,
  cClauses: readonly Clause[],
  dClauses: readonly Clause[],
): Elsewhere {
  const here = overlap(c.slot, d.slot).shared;
  return (value, side) => {
    const self = side === 'a' ? c : d;
    const compared = side === 'a' ? d : c;
    for (const k of side === 'a' ? dClauses : cClauses) {
      if (k === compared) continue;
      if (!k.numbers.some((n) => n.dim === value.dim && valueKey(n) === valueKey(value))) continue;
      if (overlap(self.slot, k.slot).shared >= here) return true;
    }
    return false;
  };
}

/**
 * Two clauses state different values of the same dimension (30 s vs 60 s, ≤ 5 vs ≥ 5), compared
 * after unit conversion (30 s = 30000 ms); a value `elsewhere` says the other text states of the
 * same subject does not count.
 */
export function numericMismatch(
  a: readonly NumberFact[],
  b: readonly NumberFact[],
  elsewhere?: Elsewhere,
): string | null {
  // Plain numbers (no unit, nothing counted) are often identifiers, formulas or references; they
  // only compare when each clause states exactly one ("Node 18" vs "Node 20").
  const plain = (l: readonly NumberFact[]) => l.filter((n) => n.dim === 'n').length;
  const plainOk = plain(a) === 1 && plain(b) === 1;
  for (const x of a) {
    if (x.dim === 'n' && !plainOk) continue;
    const sameDimB = b.filter((y) => y.dim === x.dim);
    if (sameDimB.length === 0) continue;
    const sameDimA = a.filter((y) => y.dim === x.dim);
    const va = new Set(sameDimA.map(valueKey));
    const vb = new Set(sameDimB.map(valueKey));
    const onlyA = sameDimA.find((y) => !vb.has(valueKey(y)) && !elsewhere?.(y, 'a'));
    const onlyB = sameDimB.find((y) => !va.has(valueKey(y)) && !elsewhere?.(y, 'b'));
    if (onlyA && onlyB) return `${onlyA.text} vs ${onlyB.text}`;
    for (const y of sameDimA) {
      const z = sameDimB.find((n) => valueKey(n) === valueKey(y) && n.bound !== 'eq' && y.bound !== 'eq');
      if (z && z.bound !== y.bound)
        return `${y.bound === 'max' ? 'at most' : 'at least'} ${y.text} vs ${z.bound === 'max' ? 'at most' : 'at least'} ${z.text}`;
    }
  }
  return null;
}

/** A name: a word no word list (neither the project vocabulary nor WordNet) knows: a tool, a product, a library. */
const isName = (t: string) => t.startsWith('w:') && t.length > 5 && !lexicon().isWord(t.slice(2));
/** A name that is a thing rules are about, not a reference such as a ticket id (SEC-001, M26). */
const isThing = (t: string) => isName(t) && !/\d/.test(t);
const hasNameCache = new WeakMap<Clause, boolean>();
function hasName(c: Clause): boolean {
  let v = hasNameCache.get(c);
  if (v === undefined) {
    v = keysOf(c).some(isName);
    hasNameCache.set(c, v);
  }
  return v;
}

/**
 * A different chosen thing on both sides: the object of a choice verb (use X vs use Y), or a
 * name in the same place of otherwise identical clauses (Renovate opens PRs vs Dependabot opens PRs).
 */
const keysCache = new WeakMap<Clause, string[]>();
const keysOf = (c: Clause) => {
  let k = keysCache.get(c);
  if (!k) {
    k = [...c.slot.keys()];
    keysCache.set(c, k);
  }
  return k;
};

function substitution(c: Clause, d: Clause): { c: string[]; d: string[]; names: boolean } | null {
  if (c.objects.size === 0 && d.objects.size === 0 && !hasName(c) && !hasName(d)) return null;
  const onlyC = keysOf(c).filter((t) => !d.slot.has(t));
  const onlyD = keysOf(d).filter((t) => !c.slot.has(t));
  const objC = onlyC.filter((t) => c.objects.has(t));
  const objD = onlyD.filter((t) => d.objects.has(t));
  if (objC.length > 0 && objD.length > 0 && objC.length <= 2 && objD.length <= 2)
    return { c: objC, d: objD, names: false };
  const nameC = onlyC.filter(isName);
  const nameD = onlyD.filter(isName);
  if (nameC.length !== 1 || nameD.length !== 1) return null;
  // Same place in the clause: the k-th term on both sides.
  if (keysOf(c).indexOf(nameC[0]) !== keysOf(d).indexOf(nameD[0])) return null;
  return { c: nameC, d: nameD, names: true };
}

const specificCache = new WeakMap<ReadonlyMap<string, number>, Map<string, number>>();

/** The specific (non-generic) terms of a slot map, computed once per clause. */
function specific(m: ReadonlyMap<string, number>): Map<string, number> {
  let out = specificCache.get(m);
  if (!out) {
    out = new Map([...m].filter(([, w]) => w > GENERIC_WEIGHT));
    specificCache.set(m, out);
  }
  return out;
}

/**
 * A clause whose subject is definite enough to be contained in another: one that names a thing
 * (a tool, an alternative such as floats or JSON), or two specific terms. One common word ("不直接
 * 连接后端服务" is only about `service`) is not a subject a long clause can contradict.
 */
function definite(c: Clause, container: Clause, strict: boolean): boolean {
  const terms = [...specific(c.slot).keys()];
  if (terms.some((t) => t.startsWith('alt:') || isThing(t))) return true;
  if (terms.length < 2) return false;
  // For a stance, common words are only a subject when the container is about as specific, not a
  // long clause that happens to mention them among many other things.
  return !strict || specificWeight(container.slot) <= CONTAINER_RATIO * specificWeight(c.slot);
}

const stated = (c: Clause) => c.explicit;
const sharesName = (c: Clause, d: Clause) => keysOf(c).some((t) => isThing(t) && d.slot.has(t));
const permitsForbidden = (p: Clause, f: Clause) => p.permit && p.stance === 'pos' && f.stance === 'neg' && f.explicit;
/**
 * A clause that can contradict a rule: one that states its stance, or a short one (rules are
 * often written as plain statements: "every migration ships with a rollback"). A long descriptive
 * sentence ("the root cause was that X changed Y, which ...") affirms nothing by default.
 */
function ruleLike(c: Clause): boolean {
  return c.explicit || specificWeight(c.slot) <= IMPLICIT_RULE_WEIGHT;
}

const specificWeights = new WeakMap<ReadonlyMap<string, number>, number>();

/** Total weight of the specific terms of a slot map, computed once per clause. */
function specificWeight(m: ReadonlyMap<string, number>): number {
  let w = specificWeights.get(m);
  if (w === undefined) {
    w = weightOf(specific(m));
    specificWeights.set(m, w);
  }
  return w;
}

/** Overlap of the specific (non-generic) terms only. */
function specificOverlap(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): Overlap {
  return overlap(specific(a), specific(b));
}

export const STANCE_SUBJECT = 0.6;
export const STANCE_COVER = 0.5;
export const NUMERIC_SUBJECT = 0.5;
export const NUMERIC_COVER = 0.4;
/** Overlap enough for a value difference when both clauses name the same identifier or tool. */
export const NAMED_NUMERIC_SUBJECT = 0.35;
/** Overlap enough for opposite stated stances when both clauses name the same identifier or tool. */
export const NAMED_STANCE_SUBJECT = 0.35;
export const CONTAINED = 0.8;
/** A contained side must name at least one specific thing (see `definite`). */
export const CONTAINED_WEIGHT = 1;
/** How much more specific weight a container may carry than the common-word clause it contains. */
export const CONTAINER_RATIO = 3;
/** Specific weight (about eight content words) up to which a clause without a stated stance reads as a rule. */
export const IMPLICIT_RULE_WEIGHT = 8;
/** Specific weight (two content words) a permission must share with a prohibition to contradict it. */
export const PERMIT_SHARED = 2;
/** Specific weight (three content words) a stated command must share with a stated opposite to contradict it. */
export const DIRECTIVE_SHARED = 3;
const GENERIC_WEIGHT = 0.35;
/** Rest of the clause shared when only names differ ("Renovate opens PRs" vs "Dependabot opens PRs"). */
export const NAME_SWAP_COVER = 0.75;
export const CHOICE_SUBJECT = 0.6;

/** What a reviewer checks: "permits what the entry forbids: console.log". */
function stanceDetail(c: Clause, d: Clause, cd: Display, dd: Display): string {
  const verb = (x: Clause) => (x.stance === 'neg' ? 'forbids' : x.permit ? 'permits' : 'requires');
  const slot = [...specific(c.slot).keys()].find((t) => d.slot.has(t) && !t.startsWith('dim:'));
  // A shared alternative set is shown as the member the candidate names (console.log, not js-logger).
  const shared = slot?.startsWith('alt:') ? ([...(c.members.get(slot.slice(4)) ?? [])][0] ?? slot) : slot;
  const what = shared ? `: ${cd.get(shared) ?? dd.get(shared) ?? shared.replace(/^\w+:/, '')}` : '';
  return `${verb(c)} what the entry ${verb(d)}${what}`;
}

/** Compares one clause of the candidate with one clause of the entry. */
export function compareClauses(
  c: Clause,
  d: Clause,
  cd: Display,
  dd: Display,
  o: Overlap = overlap(c.slot, d.slot),
  texts?: { c: readonly Clause[]; d: readonly Clause[] },
): ClauseSignal | null {
  // Clauses that share nothing say nothing about each other (and most pairs of a long entry do not).
  if (o.shared === 0) return null;
  const sub = substitution(c, d);
  const alt = altMismatch(c, d, cd, dd);
  let { shared, a, b } = o;
  if (sub) {
    for (const t of sub.c) a -= c.slot.get(t) ?? 0;
    for (const t of sub.d) b -= d.slot.get(t) ?? 0;
    shared += 1;
    a += 1;
    b += 1;
  }
  const subject = a + b === 0 ? 0 : (2 * shared) / (a + b);
  const minCover = Math.min(cover(shared, a), cover(shared, b));
  // One side's whole subject inside the other's ("never log bodies" / "log bodies at debug level").
  const sp = specificOverlap(c.slot, d.slot);
  const inside = (strict: boolean) =>
    (cover(sp.shared, sp.a) >= CONTAINED && sp.a >= CONTAINED_WEIGHT && definite(c, d, strict)) ||
    (cover(sp.shared, sp.b) >= CONTAINED && sp.b >= CONTAINED_WEIGHT && definite(d, c, strict));
  const contained = inside(false);
  const nameSwapOk = !sub?.names || minCover >= NAME_SWAP_COVER;
  const choiceDetail =
    alt ?? (sub && nameSwapOk ? `${cd.get(sub.c[0]) ?? sub.c[0]} vs ${dd.get(sub.d[0]) ?? sub.d[0]}` : null);
  if (c.stance && d.stance && c.stance !== d.stance && (stated(c) || stated(d)) && ruleLike(c) && ruleLike(d)) {
    // Opposite stances on different choices agree: "use pino" / "never use winston".
    if (choiceDetail && (subject >= STANCE_SUBJECT || contained)) return { kind: 'contrast', detail: choiceDetail };
    if ((subject >= STANCE_SUBJECT && minCover >= STANCE_COVER) || inside(true))
      return { kind: 'stance', detail: stanceDetail(c, d, cd, dd) };
    // Both stated, about the same named thing: "use aria-hidden on ..." vs "never use aria-hidden on ...".
    if (c.explicit && d.explicit && subject >= NAMED_STANCE_SUBJECT && sharesName(c, d)) {
      return { kind: 'stance', detail: stanceDetail(c, d, cd, dd) };
    }
    // A permission against a stated prohibition of the same thing ("may assign innerHTML" vs
    // "never assign untrusted HTML to innerHTML"): less overlap suffices, the stances are that clear.
    if ((permitsForbidden(c, d) || permitsForbidden(d, c)) && sp.shared >= PERMIT_SHARED) {
      return { kind: 'stance', detail: stanceDetail(c, d, cd, dd) };
    }
    // A command against a stated prohibition of the same act ("remove the focus outline" vs "never
    // remove `outline` without a replacement"): three shared specific words are the same act.
    if (c.explicit && d.explicit && sp.shared >= DIRECTIVE_SHARED) {
      return { kind: 'stance', detail: stanceDetail(c, d, cd, dd) };
    }
    return null;
  }
  const numeric =
    c.numbers.length > 0 && d.numbers.length > 0
      ? numericMismatch(c.numbers, d.numbers, texts && statedElsewhere(c, d, texts.c, texts.d))
      : null;
  // Two clauses about the same named thing (an identifier, a tool) that state different values.
  const namedSubject = subject >= NAMED_NUMERIC_SUBJECT && sharesName(c, d);
  if (numeric && ((subject >= NUMERIC_SUBJECT && minCover >= NUMERIC_COVER) || contained || namedSubject)) {
    return { kind: 'numeric', detail: numeric };
  }
  if (choiceDetail && subject >= CHOICE_SUBJECT) return { kind: 'choice', detail: choiceDetail };
  return null;
}

export interface PairSignals {
  concept: number;
  covC: number;
  covD: number;
  /** Weight of the candidate's terms that the entry lacks. */
  novelMass: number;
  /** Weight of the candidate's terms that the entry shares. */
  shared: number;
  /** A shared term names a thing (a tool, a library, an identifier), not just a common word. */
  sharedName: boolean;
  /**
   * Dice overlap of the texts with alternatives folded onto their set and scopes included: "use
   * Jest for unit tests" and "unit tests run on Vitest" share their subject (a test runner for unit
   * tests) though they share no word.
   */
  subject: number;
  /**
   * `shared` and `covC` with each term weighted by its rarity in the corpus (see `rarityWeight`):
   * in a large corpus some entry always shares a few common words with any candidate.
   */
  rareShared: number;
  rareCovC: number;
  /** The candidate names another member of an alternative set the entry already uses. */
  addsAlternative: boolean;
  /** What the added alternative is, against what the entry names ("js-xss vs DOMPurify"). */
  alternativeDetail: string | null;
  /**
   * Best overlap (Dice) of a candidate clause carrying most of the candidate with a clause of the
   * entry of the same stance: a candidate restating one bullet of a longer entry.
   */
  clauseMatch: number;
  /**
   * Best share of one substantial candidate clause that one entry clause of the same stance says:
   * a candidate that restates one rule of a long entry and adds others.
   */
  clauseCover: number;
  scope: ScopeRelation;
  conflict: ClauseSignal | null;
  contrast: boolean;
}

function membersOf(f: TextFeatures): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of f.clauses) {
    for (const [set, m] of c.members) out.set(set, new Set([...(out.get(set) ?? []), ...m]));
  }
  return out;
}

function addsAlternative(c: TextFeatures, d: TextFeatures): string | null {
  const dm = membersOf(d);
  for (const [set, mc] of membersOf(c)) {
    const md = dm.get(set);
    const added = md ? [...mc].find((x) => !md.has(x)) : undefined;
    if (md && added) {
      const other = [...md].find((x) => !mc.has(x)) ?? [...md][0];
      return `${c.display.get(added) ?? added} vs ${d.display.get(other) ?? other}`;
    }
  }
  return null;
}

const MAX_CLAUSES = 16;
/** Specific weight (more than two content words) a candidate clause needs to count as a restated rule. */
const RESTATED_WEIGHT = 2.5;
/** Share of the candidate's weight a clause must carry to speak for the whole candidate. */
const MAIN_CLAUSE = 0.6;
const weightOf = (m: ReadonlyMap<string, number>) => {
  let w = 0;
  for (const v of m.values()) w += v;
  return w;
};
const SIGNAL_RANK = { stance: 0, choice: 1, numeric: 2, contrast: 3 } as const;

function sharesNamedTerm(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  for (const t of a.keys()) if (b.has(t) && (isName(t) || t.startsWith('t:'))) return true;
  return false;
}

const SCOPE_WEIGHT = 0.5;

function subjectOverlap(c: TextFeatures, d: TextFeatures): number {
  const o = overlap(c.slot, d.slot);
  let shared = o.shared;
  let a = o.a;
  let b = o.b;
  for (const k of c.scopes) {
    a += SCOPE_WEIGHT;
    if (d.scopes.has(k)) shared += SCOPE_WEIGHT;
  }
  b += SCOPE_WEIGHT * d.scopes.size;
  return a + b === 0 ? 0 : (2 * shared) / (a + b);
}

function rareOverlap(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, rarity: (t: string) => number) {
  let shared = 0;
  let wa = 0;
  for (const [t, w] of a) {
    const r = rarity(t);
    wa += w * r;
    const v = b.get(t);
    if (v !== undefined) shared += Math.min(w, v) * r;
  }
  return { shared, a: wa };
}

/**
 * Compares a candidate with an entry. `dTitle` (the entry's title clauses) takes part in conflict
 * detection for a candidate that announces a replacement: a title often names the entry's choice
 * ("xUnit + FluentAssertions") that its body takes for granted.
 */
export function comparePair(
  c: TextFeatures,
  d: TextFeatures,
  dTitle?: TextFeatures,
  rarity?: (term: string) => number,
): PairSignals {
  const o = overlap(c.terms, d.terms);
  const rare = rarity ? rareOverlap(c.terms, d.terms, rarity) : o;
  let conflict: ClauseSignal | null = null;
  let contrast = false;
  let clauseMatch = 0;
  let clauseCover = 0;
  const dClauses = d.clauses.slice(0, MAX_CLAUSES);
  const texts = { c: c.clauses, d: d.clauses };
  // Only a replacement looks at the title: titles are noun phrases without a stance of their own.
  const titleClauses = c.supersede ? (dTitle?.clauses ?? []) : [];
  for (const cc of c.clauses.slice(0, MAX_CLAUSES)) {
    const main = weightOf(cc.slot) >= MAIN_CLAUSE * o.a;
    for (const dc of [...dClauses, ...titleClauses]) {
      const title = !dClauses.includes(dc);
      const ov = overlap(cc.slot, dc.slot);
      if (!title && cc.stance === dc.stance) {
        if (main) clauseMatch = Math.max(clauseMatch, diceOf(ov));
        if (ov.shared >= RESTATED_WEIGHT && specificWeight(cc.slot) >= RESTATED_WEIGHT) {
          // In a large corpus, by rare words only: some clause always shares common ones.
          const r = rarity ? rareOverlap(cc.slot, dc.slot, rarity) : ov;
          if (r.shared >= RESTATED_WEIGHT) clauseCover = Math.max(clauseCover, cover(r.shared, r.a));
        }
      }
      const s = compareClauses(cc, dc, c.display, title && dTitle ? dTitle.display : d.display, ov, texts);
      if (!s) continue;
      if (s.kind === 'contrast') contrast = true;
      else if (!conflict || SIGNAL_RANK[s.kind] < SIGNAL_RANK[conflict.kind]) conflict = s;
    }
  }
  const alternative = addsAlternative(c, d);
  return {
    concept: diceOf(o),
    covC: cover(o.shared, o.a),
    covD: cover(o.shared, o.b),
    novelMass: o.a - o.shared,
    shared: o.shared,
    subject: subjectOverlap(c, d),
    rareShared: rare.shared,
    rareCovC: cover(rare.shared, rare.a),
    sharedName: sharesNamedTerm(c.terms, d.terms),
    clauseMatch,
    clauseCover,
    addsAlternative: alternative !== null,
    alternativeDetail: alternative,
    scope: scopeOf(c, d),
    conflict,
    contrast,
  };
}

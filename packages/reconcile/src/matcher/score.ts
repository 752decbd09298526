import { indexedText } from '@maestro/core';
import { analyzeText, type TextFeatures } from './analyze.js';
import { comparePair, diceOf, overlap, type PairSignals } from './compare.js';
import { forbiddenName, SLOT_PREFIX, slotDifference, swapSlot } from './slots.js';
import { exactKeyOfNormal, matchNormalize, refSimilarity, refTokens, refTrigrams } from './text.js';
import type { CandidateAction, MatchScores, Relation } from './types.js';
import { CROSS_LANGUAGE_PREFIX, DISTINCTIVE_MASS_PREFIX, DISTINCTIVE_PREFIX, WEAK_EVIDENCE } from './verdict.js';

/** Everything the scorer needs of one side, computed once per text. */
export interface View {
  store: 'spec' | 'knowhow';
  exact: string;
  titleKey: string;
  feats: TextFeatures;
  titleFeats: TextFeatures;
  tokens: Set<string>;
  grams: Set<string>;
  title: { tokens: Set<string>; grams: Set<string> };
  /** The language the text is mostly written in: similarity through dictionary glosses runs lower across languages. */
  lang: 'en' | 'zh';
}

/** Characters `languageOf` reads: enough to tell, without scanning a whole dump. */
const LANGUAGE_SAMPLE = 4000;

/**
 * `zh` when Chinese characters make up at least a third of the letters: a Chinese rule often
 * names English identifiers and tools, an English one rarely quotes Chinese.
 */
export function languageOf(text: string): 'en' | 'zh' {
  let han = 0;
  let latin = 0;
  const n = Math.min(text.length, LANGUAGE_SAMPLE);
  for (let i = 0; i < n; i++) {
    const ch = text.charCodeAt(i);
    if ((ch >= 0x61 && ch <= 0x7a) || (ch >= 0x41 && ch <= 0x5a)) latin++;
    else if ((ch >= 0x4e00 && ch <= 0x9fff) || (ch >= 0x3400 && ch <= 0x4dbf)) han++;
  }
  // A Chinese character carries about a word: weigh it like five Latin letters.
  return han > 0 && han * 5 >= latin / 2 ? 'zh' : 'en';
}

/** `exact` (an `exactKey` already computed, e.g. by the index) saves hashing the content again. */
export function makeView(store: 'spec' | 'knowhow', title: string, content: string, exact?: string): View {
  const norm = matchNormalize(content);
  const titleNorm = matchNormalize(title);
  // Exact identity is over the whole text; scoring reads only its indexed part (see indexedText).
  const scored = indexedText(norm);
  return {
    store,
    exact: exact ?? exactKeyOfNormal(norm),
    titleKey: titleNorm,
    feats: analyzeText(indexedText(content)),
    titleFeats: analyzeText(indexedText(title)),
    tokens: refTokens(scored),
    grams: refTrigrams(scored),
    title: { tokens: refTokens(titleNorm), grams: refTrigrams(titleNorm) },
    lang: languageOf(scored),
  };
}

/** Thresholds; bump MATCHER_REVISION when any of them changes. */
export const THRESHOLDS = {
  /** Concept overlap (weighted Dice) below which an entry is not a match at all. */
  topic: 0.3,
  /** Lower overlap suffices when both rules are about the same first subject term. */
  headTopic: 0.15,
  /**
   * Share of the candidate an entry must cover before a clause-level conflict with it counts: a
   * long entry always has some short clause that one candidate clause happens to contain.
   */
  conflictCover: 0.25,
  /** Dice overlap and shared weight (five content words) that are more than a shared topic. */
  sharedConcept: 0.35,
  sharedMass: 5,
  /** Overlap with which naming another member of the entry's alternative is a different choice. */
  alternativeCover: 0.3,
  alternativeMass: 3,
  /** Weight of new terms (about two words: the other scope's name) a scope variant may carry. */
  scopeNovelMass: 2.5,
  /** Overlap a `contest` / `supersede` action needs to name its target. */
  actionSubject: 0.45,
  /** Candidate covered by the entry, and entry covered by the candidate, for a duplicate. */
  duplicateCandidateCover: 0.8,
  duplicateEntryCover: 0.3,
  /** Entry covered by the candidate for `extends` (or a duplicate when little is added). */
  extendsEntryCover: 0.7,
  /** Weight of candidate terms absent from the entry (about 1.5 content words) that makes it `extends`. */
  extendsNovelMass: 1.5,
  /** Entry covered by a candidate that announces a replacement and names another alternative. */
  replacementEntryCover: 0.5,
  /** Overall overlap that reads as a paraphrase even when neither side covers the other. */
  paraphrase: 0.62,
  /** A candidate that restates one clause (bullet) of a longer entry. */
  clauseDuplicate: 0.7,
  /** Share of one candidate clause that one entry clause says: that rule is restated. */
  clauseRestate: 0.7,
  /** Grey zone: most of the candidate inside the entry, with substantial overall overlap. */
  greyCandidateCover: 0.6,
  greyConcept: 0.5,
  /** With titles this similar, less content overlap already reads as a paraphrase. */
  sameTitle: 0.8,
  titledParaphrase: 0.45,
  /**
   * Weight of shared terms (about two content words) that makes a candidate wholly inside a long
   * entry a duplicate of it, and a candidate mostly inside it a match at all.
   */
  subsetMass: 2,
  /** For a short candidate: this share of its weight, but at least `shortMass`, instead. */
  shortShare: 0.75,
  shortMass: 1.3,
  /** Candidate covered this much by an entry (with `subsetMass` shared): said there, or about it. */
  containedCover: 0.5,
  /** Between `containedCover` and this, too close to call `related` and promote unreviewed. */
  reviewCover: 0.5,
  /**
   * Same topic against a long entry, where overall overlap (Dice) is always small: this much
   * shared weight (2 with a shared name such as a tool or identifier), covering this share of
   * the candidate.
   */
  topicMass: 2.5,
  topicNameMass: 2,
  topicCover: 0.15,
  /** Share of the entry title's content words a candidate must say to be about the entry's subject. */
  titleSubject: 0.6,
  /**
   * Concept overlap with which a retrieved entry that is not topical by the rules above is still
   * listed as a weak match (evidence `weak topical overlap`): the verdict policy decides, with a
   * fitted composite, whether it counts (an explicit action's target, a same-subject review).
   */
  weakTopic: 0.08,
  /**
   * Specific (non-generic) weight a weak match also shares (about two content words): one shared
   * word and generic ones ("every X keeps its Y beside the Z") is a sentence pattern, not a subject.
   */
  weakShared: 1.5,
  /** maestro-flow's reporting thresholds for evidence strings. */
  evidence: 0.58,
  novelty: 0.18,
} as const;

export interface PairScore {
  relation: Relation;
  scores: MatchScores;
  novelty: number;
  evidence: string[];
}

export const ZERO_SCORES: MatchScores = { lexical: 0, semantic: 0, title: 0, relation: 0, stance: 0.5, composite: 0 };

const r3 = (x: number) => Math.round(Math.min(1, Math.max(0, x)) * 1000) / 1000;

function textStance(f: TextFeatures): 'pos' | 'neg' | null {
  const s = new Set(f.clauses.map((c) => c.stance).filter((x) => x !== null));
  return s.size === 1 ? [...s][0] : null;
}

function decide(c: View, action: CandidateAction, d: View, p: PairSignals, titleEq: boolean, title: number): Relation {
  const T = THRESHOLDS;
  if (c.store !== d.store) return 'related';
  // The target a contest or supersede names: same title, close overall, or mostly said there.
  const named =
    titleEq || p.concept >= T.actionSubject || (p.rareCovC >= T.reviewCover && p.rareShared >= T.subsetMass);
  if (action === 'contest' && named) return 'potential_conflict';
  if (action === 'supersede' && named) return 'supersede_candidate';
  // The same rule for another place (another environment, layer, service, path) is related. A
  // candidate that also says much else is not "the same rule": the scope words decide nothing then.
  if (p.scope === 'disjoint' && p.novelMass <= T.scopeNovelMass) return 'related';
  if (p.conflict) return c.feats.supersede ? 'supersede_candidate' : 'potential_conflict';
  // "Switch from yarn to pnpm" against "use yarn": a replacement of the entry's choice.
  if (c.feats.supersede && p.addsAlternative && p.covD >= T.replacementEntryCover) return 'supersede_candidate';
  // Another member of an alternative the entry already chose (js-xss where it uses DOMPurify), in a
  // rule about the same thing: a different choice.
  if (p.addsAlternative && p.covC >= T.alternativeCover && p.shared >= T.alternativeMass) return 'potential_conflict';
  // A restatement that generalises a scoped entry, or that says it adds something, extends it.
  const adds = c.feats.adds && p.novelMass >= T.extendsNovelMass;
  const duplicate = p.scope === 'broader' || adds ? 'extends' : 'semantic_duplicate';
  // The candidate restates the entry and adds real content: it extends it.
  if (p.covD >= T.extendsEntryCover && p.covC < T.duplicateCandidateCover && p.novelMass >= T.extendsNovelMass) {
    return 'extends';
  }
  if (p.covD >= T.extendsEntryCover) return duplicate;
  // Everything the candidate says is already in the entry.
  if (p.covC >= T.duplicateCandidateCover && p.covD >= T.duplicateEntryCover) return duplicate;
  if (p.concept >= T.paraphrase) return duplicate;
  if (p.clauseMatch >= T.clauseDuplicate) return duplicate;
  // Most of what the candidate says is in the entry: too close to auto-promote as merely related.
  if (p.covC >= T.greyCandidateCover && p.concept >= T.greyConcept) return duplicate;
  // Named alike and saying much the same: a person should decide (safer than auto-promoting).
  if (title >= T.sameTitle && p.concept >= T.titledParaphrase) return duplicate;
  // A short candidate cannot share two content words: most of what it has is enough.
  const mass = Math.min(T.subsetMass, Math.max(T.shortMass, (p.shared + p.novelMass) * T.shortShare));
  // Everything the candidate says is somewhere in a longer entry: a restatement of part of it.
  if (p.covC >= T.duplicateCandidateCover && p.rareShared >= mass) return duplicate;
  // Much of it is, or the two share a lot outright: a paraphrase our vocabulary only half
  // recognises, or a restatement that adds.
  if (
    (p.rareCovC >= T.reviewCover && p.rareShared >= mass) ||
    (p.concept >= T.sharedConcept && p.rareShared >= T.sharedMass)
  ) {
    // Unrecognised paraphrase also looks "new", so only a text that says it adds is an extension.
    return duplicate;
  }
  // One of its clauses says what one clause of the entry says: it restates that rule (and adds).
  if (p.clauseCover >= T.clauseRestate) return p.novelMass >= T.extendsNovelMass ? 'extends' : duplicate;
  return 'related';
}

/**
 * Scores a candidate against one entry and names their relation, or returns null when the
 * entry is not a match (too little in common, and no title or recorded relation linking them).
 */
export function scorePair(
  c: View,
  action: CandidateAction,
  d: View,
  related: boolean,
  rarity?: (term: string) => number,
): PairScore | null {
  const exact = c.store === d.store && c.exact === d.exact;
  const p = comparePair(c.feats, d.feats, d.titleFeats, rarity);
  const titleEq = c.titleKey !== '' && c.titleKey === d.titleKey;
  const lexical = refSimilarity(c, d);
  const semantic = Math.max(lexical, p.concept);
  const titleConcept = diceOf(overlap(c.titleFeats.terms, d.titleFeats.terms));
  const title = titleEq ? 1 : Math.max(refSimilarity(c.title, d.title), titleConcept);
  const sameHead = c.feats.head !== null && c.feats.head === d.feats.head && p.concept >= THRESHOLDS.headTopic;
  // The entry's title names its subject ("Validate API payloads with zod"): a candidate that says
  // most of it is about the same thing, however little of the body it shares.
  const aboutTitle = titleCovered(c.feats, d.titleFeats) >= THRESHOLDS.titleSubject;
  const topical =
    exact ||
    titleEq ||
    sameHead ||
    aboutTitle ||
    (p.conflict !== null &&
      (p.concept >= THRESHOLDS.headTopic || p.covC >= THRESHOLDS.conflictCover || p.subject >= THRESHOLDS.topic)) ||
    p.concept >= THRESHOLDS.topic ||
    (p.rareCovC >= THRESHOLDS.containedCover && p.rareShared >= THRESHOLDS.subsetMass) ||
    (p.rareCovC >= THRESHOLDS.topicCover &&
      p.rareShared >= (p.sharedName ? THRESHOLDS.topicNameMass : THRESHOLDS.topicMass)) ||
    (title >= 0.6 && p.concept >= 0.15);
  if (!topical) {
    if (exact || c.store !== d.store) return null;
    // A named thing one forbids and the other uses is a shared subject, however little else is shared.
    const banned = p.scope === 'disjoint' ? null : forbiddenName(c.feats, d.feats);
    if ((p.concept < THRESHOLDS.weakTopic || specificShared(c.feats, d.feats) < THRESHOLDS.weakShared) && !banned)
      return null;
    return weakMatch(c, d, p, lexical, semantic, title, related, banned);
  }
  let relation: Relation = exact ? 'exact_duplicate' : decide(c, action, d, p, titleEq, title);
  // A restatement that swaps the chosen tool or the value ("argon2id" for "bcrypt") says
  // something else about the same subject: a conflict, with the slot as its evidence.
  const swapped =
    relation === 'semantic_duplicate' && c.store === d.store && p.scope !== 'disjoint' && !p.contrast
      ? swapSlot(c.feats, d.feats, d.titleFeats)
      : null;
  if (swapped) relation = 'potential_conflict';
  const stanceConflict = p.conflict?.kind === 'stance';
  const cs = textStance(c.feats);
  const stance = stanceConflict ? 0 : cs !== null && cs === textStance(d.feats) ? 1 : 0.5;
  const scores = scoresOf(title, semantic, lexical, related, stance);
  const novelty = r3(exact ? 0 : 1 - p.covC);
  const evidence = evidenceFor(c, d, p, relation, scores, novelty, exact, related);
  // The slot is the evidence; a clause-level conflict already found is listed first.
  if (relation === 'potential_conflict' && swapped) evidence.splice(p.conflict ? 1 : 0, 0, swapped);
  return { relation, scores, novelty, evidence };
}

/** Weight of the specific terms (not generic words such as use, keep, every) two texts share. */
function specificShared(c: TextFeatures, d: TextFeatures): number {
  let shared = 0;
  for (const [t, w] of c.terms) {
    const v = d.terms.get(t);
    if (v !== undefined && w > GENERIC_TERM && v > GENERIC_TERM) shared += Math.min(w, v);
  }
  return shared;
}
/** Weight above which a term is specific (generic words weigh 0.35, see analyze.ts). */
const GENERIC_TERM = 0.4;

function scoresOf(title: number, semantic: number, lexical: number, related: boolean, stance: number): MatchScores {
  return {
    lexical: r3(lexical),
    semantic: r3(semantic),
    title: r3(title),
    relation: related ? 1 : 0,
    stance,
    // A run's inputs widen retrieval; they weigh little so a loaded rule never outranks the entry
    // the candidate is about.
    composite: r3(0.15 * title + 0.6 * semantic + 0.2 * lexical + 0.05 * (related ? 1 : 0)),
  };
}

/**
 * A retrieved same-store entry that shares too little to be topical by the clause rules: listed
 * as `related` with the evidence that says so, for the verdict policy to weigh (see `WEAK_EVIDENCE`).
 */
function weakMatch(
  c: View,
  d: View,
  p: PairSignals,
  lexical: number,
  semantic: number,
  title: number,
  related: boolean,
  banned: string | null,
): PairScore {
  const scores = scoresOf(title, semantic, lexical, related, 0.5);
  const evidence = [WEAK_EVIDENCE];
  if (banned) evidence.push(`${SLOT_PREFIX}${banned}`);
  if (c.lang !== d.lang) evidence.push(`${CROSS_LANGUAGE_PREFIX}${c.lang} vs ${d.lang}`);
  evidence.push(`concept coverage: candidate ${p.covC.toFixed(3)}, entry ${p.covD.toFixed(3)}`);
  evidence.push(`${DISTINCTIVE_PREFIX}${p.rareCovC.toFixed(3)}`);
  evidence.push(`${DISTINCTIVE_MASS_PREFIX}${p.rareShared.toFixed(3)}`);
  return { relation: 'related', scores, novelty: r3(1 - p.covC), evidence };
}

/** Share of the title's specific weight (at least two content words) the candidate's terms carry. */
function titleCovered(c: TextFeatures, title: TextFeatures): number {
  let total = 0;
  let shared = 0;
  for (const [t, w] of title.terms) {
    if (w < 0.9 || t.startsWith('dim:')) continue;
    total += w;
    if (c.terms.has(t)) shared += w;
  }
  return total < 2 ? 0 : shared / total;
}

function evidenceFor(
  c: View,
  d: View,
  p: PairSignals,
  relation: Relation,
  s: MatchScores,
  novelty: number,
  exact: boolean,
  related: boolean,
): string[] {
  const T = THRESHOLDS;
  const out: string[] = [];
  // Decisive signals first: they are what a reviewer needs to see in the first two lines.
  if (exact) out.push('normalized content hash matches');
  if (p.conflict?.kind === 'stance') out.push(`opposite normative stance: ${p.conflict.detail}`);
  if (p.conflict?.kind === 'numeric') out.push(`different values: ${p.conflict.detail}`);
  if (p.conflict?.kind === 'choice') out.push(`different choice: ${p.conflict.detail}`);
  if (!p.conflict && relation !== 'related' && p.alternativeDetail)
    out.push(`different choice: ${p.alternativeDetail}`);
  if (relation === 'supersede_candidate' && c.feats.supersede) out.push('candidate announces a replacement');
  // Same subject, compatible by the clause rules: name any normative slot in which they still
  // differ, so the verdict policy can send it to review (see `slotDifference`).
  if (relation === 'related' && c.store === d.store && p.scope !== 'disjoint' && !p.contrast) {
    const slot = slotDifference(c.feats, d.feats, d.titleFeats);
    if (slot) out.push(`${SLOT_PREFIX}${slot}`);
  }
  if (p.scope === 'disjoint') out.push('different scope (not a conflict)');
  else if (p.scope !== 'same')
    out.push(`candidate scope is ${p.scope} than the entry's`.replace('overlap than', 'overlapping'));
  if (c.store !== d.store) out.push(`different knowledge store (${c.store} vs ${d.store})`);
  if (!exact && c.lang !== d.lang) out.push(`${CROSS_LANGUAGE_PREFIX}${c.lang} vs ${d.lang}`);
  if (related) out.push('recorded knowledge or graph relation');
  if (s.semantic >= T.evidence) out.push(`semantic similarity ${s.semantic.toFixed(3)}`);
  if (s.title >= T.evidence) out.push(`title similarity ${s.title.toFixed(3)}`);
  if (!exact && novelty > T.novelty) out.push(`novel token share ${novelty.toFixed(3)}`);
  if (!exact) out.push(`concept coverage: candidate ${p.covC.toFixed(3)}, entry ${p.covD.toFixed(3)}`);
  // Coverage by the corpus's rarer words: what sharing words means where every entry shares some.
  if (relation === 'related') {
    out.push(`${DISTINCTIVE_PREFIX}${p.rareCovC.toFixed(3)}`);
    // The same, as weight: a share says little where every word of the corpus is common.
    out.push(`${DISTINCTIVE_MASS_PREFIX}${p.rareShared.toFixed(3)}`);
  }
  return out.length ? out : ['bounded semantic neighborhood'];
}

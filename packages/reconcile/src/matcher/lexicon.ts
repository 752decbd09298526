import { stem } from './stem.js';
import { vocabulary } from './vocabulary.js';

/** Everything the lexicon knows about one surface form (a word, a phrase or a Chinese word). */
export interface LexEntry {
  /** The topic term this form stands for. */
  concept?: string;
  generic?: boolean;
  stance?: 'pos' | 'neg';
  /** A positive stance that permits rather than requires (may, 可以, 允许). */
  permit?: boolean;
  /** The concept whose polarity this verb flips (skip → run). */
  flip?: string;
  /** The next term is the chosen object (use X). */
  choice?: boolean;
  supersede?: boolean;
  /** What follows is what is *not* chosen (instead of X). */
  negTail?: boolean;
  /** Starts a new clause: a condition or exception ("unless", "除非"). */
  split?: boolean;
  scope?: string;
  scopeNoun?: boolean;
  stop?: boolean;
  imperative?: boolean;
  bound?: 'max' | 'min';
}

export interface Lexicon {
  /** Key: stemmed Latin words joined by one space. */
  latin: Map<string, LexEntry>;
  latinMax: number;
  /** First stem of a multi-word form → the longest such form, so single words skip phrase lookups. */
  latinFirst: Map<string, number>;
  han: Map<string, LexEntry>;
  hanMax: number;
  /** Concept → its alternative set (pino → js-logger). */
  altOf: Map<string, string>;
}

export const LATIN_WORD = /[a-z0-9][a-z0-9_+#-]*(?:[.:][a-z0-9_+#-]+)*/g;
const HAN = /\p{Script=Han}/u;
const LATIN = /[a-z0-9]/;

export function latinKey(form: string): string | null {
  const words = form.toLowerCase().match(LATIN_WORD);
  if (!words) return null;
  return words.map((w) => stem(w.replace(/[-.]+$/, ''))).join(' ');
}

function build(): Lexicon {
  const lex: Lexicon = {
    latin: new Map(),
    latinMax: 1,
    latinFirst: new Map(),
    han: new Map(),
    hanMax: 1,
    altOf: new Map(),
  };
  const add = (form: string, patch: LexEntry) => {
    const f = form.trim().toLowerCase();
    if (!f) return;
    const han = HAN.test(f);
    if (han && LATIN.test(f)) return; // mixed forms never survive tokenisation as one unit
    const map = han ? lex.han : lex.latin;
    const key = han ? f : latinKey(f);
    if (!key) return;
    const prev = map.get(key) ?? {};
    map.set(key, { ...patch, ...prev, ...mergeFlags(prev, patch) });
    if (han) lex.hanMax = Math.max(lex.hanMax, key.length);
    else {
      const parts = key.split(' ');
      lex.latinMax = Math.max(lex.latinMax, parts.length);
      if (parts.length > 1) lex.latinFirst.set(parts[0], Math.max(parts.length, lex.latinFirst.get(parts[0]) ?? 0));
    }
  };
  addConcepts(add);
  addCues(add);
  addScopes(add);
  for (const line of vocabulary().scope.alternatives) {
    const [set, members] = line.split(':').map((s) => s.trim());
    for (const member of members.split(',')) addAlternative(lex, add, set, member.trim());
  }
  return lex;
}

type Add = (form: string, patch: LexEntry) => void;

function addConcepts(add: Add) {
  for (const line of vocabulary().concepts) {
    const generic = line.startsWith('~');
    const forms = (generic ? line.slice(1) : line).split('|');
    const concept = latinKey(forms[0]) ?? forms[0];
    for (const form of forms) add(form, generic ? { concept, generic } : { concept });
  }
}

function addCues(add: Add) {
  const v = vocabulary().cues;
  for (const w of [...v.stopwordsEn, ...v.stopwordsZh]) add(w, { stop: true });
  for (const w of [...v.stanceNegEn, ...v.stanceNegZh]) add(w, { stance: 'neg' });
  for (const w of [...v.stancePosEn, ...v.stancePosZh]) add(w, { stance: 'pos' });
  for (const w of v.permit) add(w, { stance: 'pos', permit: true });
  for (const [w, concept] of v.flipVerbs) add(w, { flip: latinKey(concept) ?? concept, imperative: true });
  for (const w of [...v.choiceEn, ...v.choiceZh]) add(w, { choice: true });
  for (const w of [...v.supersedeEn, ...v.supersedeZh]) add(w, { supersede: true });
  const negTails = [
    'instead of',
    'rather than',
    'in place of',
    'replace',
    'replaces',
    'replacing',
    'supersede',
    'supersedes',
  ];
  for (const w of [...negTails, '而不是', '而非', '代替', '取代', '替代', '替换']) {
    add(w, { negTail: true });
  }
  for (const w of ['unless', 'except', 'except when', 'except for', 'otherwise', '除非', '否则', '除了'])
    add(w, { split: true });
  for (const w of Object.keys(vocabulary().numberWordsEn)) add(w, { stop: true });
  for (const w of v.imperativeEn) add(w, { imperative: true });
  for (const w of v.imperativeZh) add(w, { imperative: true });
  for (const w of vocabulary().scope.boundMax) add(w, { bound: 'max' });
  for (const w of vocabulary().scope.boundMin) add(w, { bound: 'min' });
}

function addScopes(add: Add) {
  for (const [kind, lines] of [
    ['env', vocabulary().scope.env],
    ['layer', vocabulary().scope.layer],
  ] as const) {
    for (const line of lines) {
      const forms = line.split('|');
      const scope = `${kind}:${latinKey(forms[0]) ?? forms[0]}`;
      for (const form of forms) add(form, { scope });
    }
  }
  for (const w of [...vocabulary().scope.nounsEn, ...vocabulary().scope.nounsZh]) add(w, { scopeNoun: true });
}

/** Role flags accumulate; the first concept a form was given wins. */
function mergeFlags(prev: LexEntry, patch: LexEntry): LexEntry {
  const out: LexEntry = {};
  for (const k of [
    'stance',
    'permit',
    'flip',
    'choice',
    'supersede',
    'negTail',
    'split',
    'scope',
    'scopeNoun',
    'imperative',
  ] as const) {
    const v = prev[k] ?? patch[k];
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  if (prev.bound ?? patch.bound) out.bound = prev.bound ?? patch.bound;
  // A stop word that also has a real role is not a stop word.
  out.stop = Boolean((prev.stop || patch.stop) && !out.stance && !out.bound && !out.flip && !out.scope);
  if (prev.concept ?? patch.concept) {
    out.concept = prev.concept ?? patch.concept;
    out.generic = prev.concept ? prev.generic : patch.generic;
  }
  return out;
}

function addAlternative(lex: Lexicon, add: Add, set: string, member: string) {
  const han = HAN.test(member);
  const key = han ? member : latinKey(member);
  if (!key) return;
  const existing = (han ? lex.han : lex.latin).get(key);
  if (existing?.concept) {
    lex.altOf.set(existing.concept, set);
    return;
  }
  const concept = `t:${key}`;
  add(member, { concept });
  lex.altOf.set(concept, set);
}

let cached: Lexicon | null = null;

/** The lexicon tables, built once per process. */
export function lexicon(): Lexicon {
  cached ??= build();
  return cached;
}

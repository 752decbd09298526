import { appendAll } from '@maestro/core';
import { extractNumbers, extractPaths, type NumberFact } from './extract.js';
import { latinKey, lexicon } from './lexicon.js';
import { prepare } from './prepare.js';
import { segment, type Unit } from './segment.js';

export type Stance = 'pos' | 'neg';

/** One directive-sized piece of a text: its topic terms, chosen objects, numbers and stance. */
export interface Clause {
  terms: Map<string, number>;
  /** Terms with members of an alternative set folded onto the set (`alt:js-logger`). */
  slot: Map<string, number>;
  /** Alternative set → the members this clause names. */
  members: Map<string, Set<string>>;
  /** Terms in the object position of a choice verb (use X). */
  objects: Set<string>;
  numbers: NumberFact[];
  stance: Stance | null;
  /**
   * The stance is stated (a modal, a negation, an imperative or a choice verb), not only the
   * default affirmation of a descriptive sentence ("X was changed, which caused Y").
   */
  explicit: boolean;
  /** A permission (may, 可以, 允许) rather than a requirement. */
  permit: boolean;
}

export interface TextFeatures {
  terms: Map<string, number>;
  slot: Map<string, number>;
  clauses: Clause[];
  /** `env:production`, `layer:frontend`, `named:<term>`, `path:src/api`. */
  scopes: Set<string>;
  /** The text announces a replacement (instead of, no longer, 不再, 改用). */
  supersede: boolean;
  /** The text says it adds something (also, in addition, 此外, 另外, 还要): a restatement that extends. */
  adds: boolean;
  /** Term → how it was written, for evidence strings. */
  display: Map<string, string>;
  /** The first specific term: usually what the rule is about ("migrations", "tests"). */
  head: string | null;
  /** The analysed text as written (for `namesOf`, computed only when a slot check needs it). */
  text: string;
}

const namesCache = new WeakMap<TextFeatures, Set<string>>();

/**
 * Words the text writes as names (lower-cased): code-quoted, camelCase or capitalised mid-sentence,
 * with digits or joiners, or any Latin word in a Chinese text. A word no dictionary tags may still be
 * a plain word ("clinics"); one written like this names a tool, a library or a component.
 */
export function namesOf(f: TextFeatures): Set<string> {
  let names = namesCache.get(f);
  if (!names) {
    names = nameWords(f.text);
    namesCache.set(f, names);
  }
  return names;
}

const NAME_TOKEN = /`[^`\n]+`|[A-Za-z][A-Za-z0-9]*(?:[-_.+#/][A-Za-z0-9]+)*[+#]*/g;
const HAN_ANY = /\p{Script=Han}/u;
const SENTENCE_START = /(?:^|[.!?:;。！？：；\n>*-]\s*|\d[.)]\s*)$/;

/** The words of `text` written as names (see `namesOf`). */
export function nameWords(text: string): Set<string> {
  const out = new Set<string>();
  const chinese =
    HAN_ANY.test(text) && (text.match(/\p{Script=Han}/gu)?.length ?? 0) * 5 >= (text.match(/[a-z]/gi)?.length ?? 0) / 2;
  for (const m of text.matchAll(NAME_TOKEN)) {
    const raw = m[0];
    const at = m.index ?? 0;
    if (raw.startsWith('`')) {
      for (const w of raw
        .slice(1, -1)
        .toLowerCase()
        .match(/[a-z][a-z0-9]*(?:[-_.+#/][a-z0-9]+)*/g) ?? []) {
        out.add(w);
        for (const part of w.split(/[-_.+#/]+/)) if (part.length >= 3) out.add(part);
      }
      continue;
    }
    const joined = /[-_.+#/]|\d/.test(raw.slice(1));
    const inner = /[A-Z]/.test(raw.slice(1));
    const capital = /^[A-Z]/.test(raw) && !SENTENCE_START.test(text.slice(Math.max(0, at - 4), at));
    if (chinese || joined || inner || capital) {
      const w = raw.toLowerCase();
      out.add(w);
      // The parts of a joined name are written as names too (`mockito-kotlin` → mockito).
      for (const part of w.split(/[-_.+#/]+/)) if (part.length >= 3) out.add(part);
    }
  }
  return out;
}

const W_GENERIC = 0.35;
const W_CONCEPT = 1;
const W_ALT = 1.2;
const W_WORD = 1;
const W_BIGRAM = 0.5;
const W_HANCHAR = 0.4;
const LATIN_SURFACE = /^[a-z0-9]/;
/** Further glosses of one dictionary word (禁止: forbid, ban) weigh less than the first. */
const W_GLOSS_MORE = 0.5;
const W_DIM = 0.5;
/**
 * Dimensions that measure (time, size, share, repetitions): they say little about the subject. The
 * others name what is counted (approvals, replicas, connections, reviewers) and weigh as a word.
 */
const MEASURES = new Set(['time', 'bytes', 'percent', 'lines', 'chars', 'times', 'px', 'items', 'requests']);

const SENTENCE = /[;!?。；！？\n]+|\.(?=\s|$)|\s[-–—]\s|——/;
const CONJ = new Set(['and', 'but', 'or', 'then', '并且', '且', '但', '并', '同时', '而且', '但是', '然后']);
const TAIL_END = new Set(['with', 'by', 'to', 'for', '为', '成']);
const REPLACE_VERBS = new Set(['replace', 'replaces', 'replacing', '替换']);
const DETERMINERS = new Set([
  'the',
  'a',
  'an',
  'all',
  'every',
  'each',
  'any',
  'your',
  'our',
  'its',
  'this',
  'these',
  'those',
]);
/** Words that introduce a named scope: "in the admin app", "for our billing service", "在用户服务中". */
const SCOPE_LEAD = new Set(['the', 'this', 'our', 'in', 'for', 'of', 'within', 'inside', 'across', 'on', '在', '对']);

function leadsScope(units: Unit[], at: number): boolean {
  const prev = units[at - 1];
  return prev?.kind === 'lex' && SCOPE_LEAD.has(prev.surface);
}

/** An English clause that opens with a word followed by a determiner is a command: "Mock the database". */
function opensCommand(units: Unit[], at: number): boolean {
  const next = units[at + 1];
  return next?.kind === 'lex' && next.entry.stop === true && DETERMINERS.has(next.surface);
}

const ADDITIVE =
  /\b(?:also|additionally|in addition|as well|furthermore|moreover|on top of that|plus)\b|另外|此外|并且|而且|同时还|还要|还需|还必须|还应|还得|额外/i;

export function analyzeText(text: string): TextFeatures {
  const features: TextFeatures = {
    terms: new Map(),
    slot: new Map(),
    clauses: [],
    scopes: new Set(),
    supersede: false,
    adds: ADDITIVE.test(text),
    display: new Map(),
    head: null,
    text,
  };
  const numbers: Omit<NumberFact, 'bound'>[] = [];
  for (const sentence of prepare(text).split(SENTENCE)) {
    if (!sentence?.trim()) continue;
    const withNumbers = extractNumbers(extractPaths(sentence, features.scopes), numbers);
    const fragments = withNumbers.split(/[,，]/).map(segment);
    for (const units of mergeFragments(fragments)) buildClauses(units, numbers, features);
  }
  for (const clause of features.clauses) {
    for (const [t, w] of clause.terms) features.terms.set(t, Math.max(w, features.terms.get(t) ?? 0));
    for (const [t, w] of clause.slot) features.slot.set(t, Math.max(w, features.slot.get(t) ?? 0));
  }
  return features;
}

const HAN_START = /^\p{Script=Han}/u;

/** A Chinese verb of command or choice anywhere in the clause: topic-comment order puts it mid-sentence. */
function hanVerb(u: Unit): boolean {
  return (
    u.kind === 'lex' && !u.entry.stop && Boolean(u.entry.imperative || u.entry.choice) && HAN_START.test(u.surface)
  );
}

function directive(units: Unit[]): boolean {
  const first = units.find((u) => !(u.kind === 'lex' && u.entry.stop));
  if (first?.kind === 'lex' && (first.entry.imperative || first.entry.negTail)) return true;
  return units.some((u) => (u.kind === 'lex' && (u.entry.stance !== undefined || u.entry.negTail)) || hanVerb(u));
}

/**
 * Comma fragments that carry no directive of their own ("In production," / "readable and
 * tested") belong to a neighbour: lead-ins to the next fragment, tails to the previous one.
 */
function opensNegated(units: Unit[]): boolean {
  const first = units.find((u) => !(u.kind === 'lex' && u.entry.stop && !u.entry.stance));
  return first?.kind === 'lex' && first.entry.stance === 'neg';
}

/**
 * Merged clauses whose command opens a comma fragment after a lead-in: the position of that command
 * (see `mergeFragments`). Keyed by the merged array, which is new for each clause.
 */
const LEAD_COMMANDS = new WeakMap<Unit[], number>();

function mergeFragments(fragments: Unit[][]): Unit[][] {
  const out: Unit[][] = [];
  let pending: Unit[] = [];
  for (const units of fragments) {
    if (units.length === 0) continue;
    if (directive(units)) {
      // "Passwords are stored hashed, never in plain text": a fragment that opens with a negation
      // restricts the statement before it; the statement stands as its own (affirmative) clause.
      if (pending.some((u) => u.kind !== 'lex' || !u.entry.stop) && opensNegated(units)) {
        out.push(pending, units);
      } else {
        // "When the build fails, run the cleanup": the lead-in is a condition; the command that
        // follows it still opens its clause.
        const first = units.findIndex((u) => !(u.kind === 'lex' && u.entry.stop));
        const opener = units[first];
        const merged = [...pending, ...units];
        if (pending.length && opener?.kind === 'lex' && opener.entry.imperative) {
          LEAD_COMMANDS.set(merged, pending.length + first);
        }
        out.push(merged);
      }
      pending = [];
    } else appendAll(pending, units);
  }
  if (pending.length) {
    if (out.length) appendAll(out[out.length - 1], pending);
    else out.push(pending);
  }
  return out;
}

interface Builder {
  clause: Clause;
  stances: { pol: Stance; at: number }[];
  bounds: { dir: 'max' | 'min'; at: number }[];
  nums: { fact: Omit<NumberFact, 'bound'>; at: number }[];
  flips: number;
  /** Opened by "replace X": a later "with Y" names the chosen thing (in "rather than X with Y", Y is part of X). */
  replaceVerb: boolean;
  /** The clause says "prefer": a later "over" introduces the dispreferred thing. */
  prefers: boolean;
  imperative: boolean;
  hanVerb: boolean;
  forced: Stance | null;
  started: boolean;
  choicePending: number;
  /** The last topic term(s), which a following scope noun turns into a named scope. */
  lastTerm: { terms: string[]; scopeable: boolean; han?: boolean } | null;
}

function newBuilder(forced: Stance | null = null): Builder {
  return {
    clause: {
      terms: new Map(),
      slot: new Map(),
      members: new Map(),
      objects: new Set(),
      numbers: [],
      stance: null,
      explicit: false,
      permit: false,
    },
    stances: [],
    bounds: [],
    nums: [],
    flips: 0,
    replaceVerb: false,
    prefers: false,
    imperative: false,
    hanVerb: false,
    forced,
    started: false,
    choicePending: 0,
    lastTerm: null,
  };
}

function addTerm(b: Builder, f: TextFeatures, term: string, weight: number, surface: string, generic = false) {
  const c = b.clause;
  if (f.head === null && weight >= W_CONCEPT && !term.startsWith('dim:')) f.head = term;
  c.terms.set(term, Math.max(weight, c.terms.get(term) ?? 0));
  if (!f.display.has(term)) f.display.set(term, surface);
  const alt = lexicon().altOf.get(term);
  const slotKey = alt ? `alt:${alt}` : term;
  c.slot.set(slotKey, Math.max(weight, c.slot.get(slotKey) ?? 0));
  if (alt) {
    if (!c.members.has(alt)) c.members.set(alt, new Set());
    c.members.get(alt)?.add(term);
  }
  if (b.choicePending > 0 && !generic) {
    c.objects.add(term);
  }
}

function buildClauses(units: Unit[], numbers: Omit<NumberFact, 'bound'>[], f: TextFeatures): void {
  let b = newBuilder();
  let prevSurface = '';
  const leadCommand = LEAD_COMMANDS.get(units);
  units.forEach((u, at) => {
    if (u.kind === 'lex') {
      b = clauseBoundary(b, f, u, prevSurface);
      lexUnit(b, f, u, at, opensCommand(units, at), leadsScope(units, at));
      if (at === leadCommand) b.imperative = true;
    } else if (u.kind === 'word') {
      const initial = !b.started;
      markStart(b, opensCommand(units, at));
      addTerm(b, f, u.term, /ly$/.test(u.surface) ? W_GENERIC : W_WORD, u.surface);
      const scopeable = (leadsScope(units, at) || !initial) && !b.clause.objects.has(u.term);
      b.lastTerm = { terms: [u.term], scopeable };
      b.choicePending = 0;
    } else if (u.kind === 'han') {
      markStart(b, false);
      for (const t of u.terms) addTerm(b, f, t, t.length === 3 ? W_HANCHAR : W_BIGRAM, u.surface);
      b.lastTerm = { terms: u.terms, scopeable: !u.terms.some((t) => b.clause.objects.has(t)), han: true };
      b.choicePending = 0;
    } else if (u.kind === 'gloss') {
      markStart(b, opensCommand(units, at));
      u.terms.forEach((t, k) => {
        addTerm(b, f, t, k === 0 ? W_CONCEPT : W_GLOSS_MORE, u.surface);
      });
      // After an English word the word unit already set what may name a scope.
      if (!LATIN_SURFACE.test(u.surface)) b.lastTerm = { terms: [...u.terms], scopeable: false };
      b.choicePending = 0;
    } else if (u.kind === 'num') {
      numberUnit(b, f, numbers[u.index], at);
    }
    prevSurface = u.kind === 'lex' || u.kind === 'word' || u.kind === 'han' || u.kind === 'gloss' ? u.surface : '';
  });
  finish(b, f);
}

/** The builder to continue with at a cue: the current one, or a new clause when the cue starts one. */
function clauseBoundary(b: Builder, f: TextFeatures, u: Extract<Unit, { kind: 'lex' }>, prevSurface: string): Builder {
  const e = u.entry;
  if (e.supersede) f.supersede = true;
  let next = b;
  const restart = (forced: Stance | null) => {
    finish(next, f);
    next = newBuilder(forced);
  };
  if (e.negTail) {
    restart('neg');
    next.replaceVerb = REPLACE_VERBS.has(u.surface);
  } else if (u.surface === 'over' && b.prefers && b.clause.terms.size > 0) {
    // "prefer X over Y": Y is what is not preferred.
    restart('neg');
  } else if (
    b.forced === 'neg' &&
    TAIL_END.has(u.surface) &&
    (b.replaceVerb || u.surface !== 'with') &&
    b.clause.terms.size > 0
  ) {
    // "replace X with Y": Y is the chosen one again.
    restart(null);
  } else if (e.split) restart(null);
  // "X and never Y": a conjunction followed by the opposite stance starts a new clause; a clause
  // without an explicit stance affirms. A flip verb after a conjunction starts its own clause too
  // ("log a warning and skip the send"), and so does one after other content in a clause with no
  // stance word: "have the callback skip cleanup" skips cleanup, not the callback.
  const current = next.stances.some((s) => s.pol === 'neg') ? 'neg' : 'pos';
  const firstFlip = e.flip !== undefined && next.flips === 0;
  const opposite = (e.stance !== undefined && e.stance !== current) || firstFlip;
  const lateFlip = firstFlip && next.stances.length === 0;
  if (next.clause.terms.size > 0 && ((opposite && CONJ.has(prevSurface)) || lateFlip)) restart(null);
  return next;
}

function numberUnit(b: Builder, f: TextFeatures, fact: Omit<NumberFact, 'bound'>, at: number) {
  b.nums.push({ fact, at });
  if (fact.dim === 'n' || fact.dim === 'version') return;
  // A measured quantity is part of the subject ("30 seconds" is about time).
  addTerm(b, f, `dim:${fact.dim}`, MEASURES.has(fact.dim) ? W_DIM : W_WORD, fact.text);
  // "two approvals": the counted thing is also the topic word the other text may use alone.
  const counted = MEASURES.has(fact.dim) ? undefined : unitConcept(fact.text);
  if (counted) addTerm(b, f, counted, W_CONCEPT, fact.text);
}

/** Concepts that qualify a noun rather than name it: 外部服务 is any external service, not one called "external". */
const MODIFIERS = new Set(
  ['external', 'local', 'remote', 'global', 'public', 'private', 'new', 'old', 'async', 'sync', 'core', 'share'].map(
    (w) => latinKey(w) ?? w,
  ),
);

/** Chinese nouns that an ordinary word before them turns into a name: 通知服务, 支付模块, 管理后台应用. */
const HAN_NAMED = new Set(['服务', '微服务', '模块', '应用', '集群']);

/**
 * Whether the words before a scope noun name a scope. In Chinese only service-like nouns do
 * (测试项目 is a kind of project, 主包 a word fragment), and one character is never a name.
 */
function namesScope(last: NonNullable<Builder['lastTerm']>, noun: string): boolean {
  if (!last.han) return true;
  if (last.terms.every((t) => t.startsWith('h:') && t.length === 3)) return false;
  return HAN_NAMED.has(noun);
}

/** The concept of the unit word a number was written with ("2 approvals" → approve), if any. */
function unitConcept(text: string): string | undefined {
  const word = text.split(/\s+/).pop() ?? '';
  const key = latinKey(word);
  const e = key ? lexicon().latin.get(key) : undefined;
  return e?.concept && !e.stance && !e.generic ? e.concept : undefined;
}

function markStart(b: Builder, imperative: boolean) {
  if (!b.started) b.imperative = imperative;
  b.started = true;
}

function lexUnit(
  b: Builder,
  f: TextFeatures,
  u: Extract<Unit, { kind: 'lex' }>,
  at: number,
  command: boolean,
  afterLead: boolean,
) {
  const e = u.entry;
  if (e.scope) {
    f.scopes.add(e.scope);
    return;
  }
  if (e.stance) b.stances.push({ pol: e.stance, at });
  if (e.permit) b.clause.permit = true;
  if (u.surface === 'prefer' || u.surface === 'prefers') b.prefers = true;
  if (hanVerb(u)) b.hanVerb = true;
  if (e.bound) b.bounds.push({ dir: e.bound, at });
  if (e.scopeNoun && b.lastTerm?.scopeable && namesScope(b.lastTerm, u.surface)) {
    f.scopes.add(`named:${b.lastTerm.terms.join('+')}`);
    for (const t of b.lastTerm.terms) b.clause.terms.delete(t);
    for (const t of b.lastTerm.terms) b.clause.slot.delete(t);
  }
  if (!e.stop && !e.stance && !e.bound) markStart(b, Boolean(e.imperative) || command);
  if (e.scopeNoun && !e.concept && !e.stop) {
    // A scope noun on its own ("the worker service") is also an ordinary word.
    const term = `w:${u.surface}`;
    addTerm(b, f, term, W_WORD, u.surface);
    b.lastTerm = { terms: [term], scopeable: true };
    return;
  }
  if (e.flip) {
    b.flips++;
    addTerm(b, f, e.flip, W_CONCEPT, u.surface);
  } else if (e.concept) {
    const weight = e.generic ? W_GENERIC : e.concept.startsWith('t:') ? W_ALT : W_CONCEPT;
    addTerm(b, f, e.concept, weight, u.surface, e.generic);
    if (!e.generic) b.choicePending = 0;
  }
  // An unknown word names a scope ("billing service"); a known English concept only after "the /
  // in / for" ("the admin app"), otherwise it is the subject ("published packages", "pin package versions").
  const named =
    e.concept && !e.generic && !e.imperative && !e.choice && !e.concept.startsWith('t:') && !MODIFIERS.has(e.concept);
  // Chinese names its services with ordinary words right before the noun (通知服务, 支付模块).
  const han = HAN_START.test(u.surface);
  b.lastTerm = named && (afterLead || han) && e.concept ? { terms: [e.concept], scopeable: true, han } : null;
  if (e.choice) b.choicePending = 3;
  else if (!e.stop && b.choicePending > 0) b.choicePending--;
}

function finish(b: Builder, f: TextFeatures) {
  const c = b.clause;
  // A negation right before a bound word belongs to the bound: "must not exceed 60" is "≤ 60".
  for (const s of b.stances) {
    if (s.pol !== 'neg') continue;
    const bound = b.bounds.find((x) => x.at > s.at && x.at <= s.at + 3);
    if (!bound) continue;
    s.pol = 'pos';
    bound.dir = bound.dir === 'max' ? 'min' : 'max';
  }
  for (const n of b.nums) {
    const before = [...b.bounds].reverse().find((x) => x.at < n.at && x.at >= n.at - 4);
    const after = b.bounds.find((x) => x.at > n.at && x.at <= n.at + 3);
    c.numbers.push({ ...n.fact, bound: (before ?? after)?.dir ?? 'eq' });
  }
  // A rule stated without negation affirms what it says ("every migration ships with a rollback").
  let stance: Stance = b.stances.some((s) => s.pol === 'neg') ? 'neg' : 'pos';
  if (b.flips % 2 === 1) stance = stance === 'pos' ? 'neg' : 'pos';
  c.stance = b.forced ?? stance;
  // A Chinese verb mid-sentence (发送, 记录) also appears in descriptions: only modals, negations,
  // flips and a clause-opening imperative state a stance.
  c.explicit = b.forced !== null || b.stances.length > 0 || b.flips > 0 || b.imperative;
  if (c.terms.size > 0 || c.numbers.length > 0) f.clauses.push(c);
}

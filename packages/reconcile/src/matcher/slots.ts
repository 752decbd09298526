import { lexicon } from '@maestro/lexicon';
import { type Clause, namesOf, type TextFeatures } from './analyze.js';
import { numericMismatch, statedElsewhere } from './compare.js';
import { lexicon as vocabulary } from './lexicon.js';
import { orderSlot } from './order.js';
import { roleSlot } from './role.js';

/**
 * The normative slot in which two texts about the same subject differ, said so a reviewer can
 * check it: "forbids what the entry requires: …", "5 s vs 30 s", "argon2id vs bcrypt". This is
 * the whole-text check behind the safety rule (a `related` verdict needs positive evidence of
 * compatibility); the clause-level comparison (`compareClauses`) finds the sharper cases first.
 */
/** How a slot difference starts in a match's evidence. */
export const SLOT_PREFIX = 'same subject, differs: ';

export function slotDifference(c: TextFeatures, d: TextFeatures, dTitle?: TextFeatures): string | null {
  return (
    forbiddenName(c, d) ??
    stanceSlot(c, d) ??
    antonymSlot(c, d) ??
    valueSlot(c, d) ??
    orderSlot(c, d) ??
    roleSlot(c, d) ??
    nameSlot(c, d, dTitle)
  );
}

/**
 * The slots in which a restatement says something else about the same subject (a value, an order,
 * a chosen name in place of another): a duplicate that differs there is a possible conflict.
 */
export function swapSlot(c: TextFeatures, d: TextFeatures, dTitle?: TextFeatures): string | null {
  return valueSlot(c, d) ?? orderSlot(c, d) ?? roleSlot(c, d) ?? nameSlot(c, d, dTitle);
}

const bansCache = new WeakMap<TextFeatures, string[]>();

/** The dictionary-unknown terms of a text's stated prohibitions, computed once per text. */
function bansOf(f: TextFeatures): string[] {
  let bans = bansCache.get(f);
  if (!bans) {
    bans = [];
    for (const nc of f.clauses) {
      if (nc.stance !== 'neg' || !nc.explicit) continue;
      for (const t of nc.terms.keys()) if (namedIn(f, t) && !bans.includes(t)) bans.push(t);
    }
    bansCache.set(f, bans);
  }
  return bans;
}

/**
 * A term that names a thing in this text: a word no dictionary knows, a member of a known set of
 * alternatives (Jest, Bloc), or a dictionary word the text capitalises mid-sentence as a name
 * ("do not introduce Bloc or Provider"). Acronyms (API, SDK) and the parts of joined names
 * (`driver-api`) are not names of their own here: they are too common to ban.
 */
function namedIn(f: TextFeatures, t: string): boolean {
  if (isName(t) || vocabulary().altOf.has(t)) return true;
  const w = f.display.get(t);
  return w !== undefined && capitalised(f).has(w.toLowerCase());
}

const capitalisedCache = new WeakMap<TextFeatures, Set<string>>();
const CAPITALISED = /(?<=[\p{L}\p{N},;:)\]]\s+)[A-Z][a-z]{3,}\b/gu;

/** Words a text capitalises after another word of its sentence (not after a full stop). */
function capitalised(f: TextFeatures): Set<string> {
  let out = capitalisedCache.get(f);
  if (!out) {
    out = new Set([...f.text.matchAll(CAPITALISED)].map((m) => m[0].toLowerCase()));
    capitalisedCache.set(f, out);
  }
  return out;
}

/** Parts of a name long enough to be one themselves (`mockito-kotlin` → mockito, kotlin). */
const nameParts = (t: string) => t.slice(t.indexOf(':') + 1).split(/[-_.:/+]+/);
const bare = (t: string) => t.slice(t.indexOf(':') + 1);
/** The same thing, or one named inside the other (`flutter_bloc` uses Bloc). */
function sameThing(a: string, b: string): boolean {
  if (a === b) return true;
  const x = bare(a);
  const y = bare(b);
  return (y.length >= 4 && nameParts(a).includes(y)) || (x.length >= 4 && nameParts(b).includes(x));
}

/**
 * A named thing (a tool, a library, an identifier: a word no dictionary knows) that one text
 * forbids in a stated prohibition and the other uses or requires, whatever else they say: "do not
 * use Spock" against "新的后端测试用 Spock 编写". Names are written alike in both languages, so
 * this holds across them. The only slot a weak match is checked for (see `weakMatch`).
 */
export function forbiddenName(c: TextFeatures, d: TextFeatures): string | null {
  const dBans = bansOf(d);
  const cBans = bansOf(c);
  if (dBans.length === 0 && cBans.length === 0) return null;
  // A name by the dictionaries (no tagged sense) and by how either text writes it.
  const named = (f: TextFeatures, t: string) => {
    if (t.startsWith('t:')) return true;
    const w = (f.display.get(t) ?? bare(t)).toLowerCase();
    return namesOf(c).has(w) || namesOf(d).has(w);
  };
  const hit = (neg: TextFeatures, bans: readonly string[], pos: TextFeatures) => {
    const banned = bans.filter((t) => named(neg, t));
    if (banned.length === 0) return null;
    for (const pc of pos.clauses) {
      if (pc.stance !== 'pos') continue;
      for (const t of pc.terms.keys()) {
        if (namedIn(pos, t) && banned.some((b) => sameThing(t, b)) && named(pos, t))
          return pos.display.get(t) ?? bare(t);
      }
    }
    return null;
  };
  const used = dBans.length ? hit(d, dBans, c) : null;
  if (used) return `uses what the entry forbids: ${used}`;
  const banned = cBans.length ? hit(c, cBans, d) : null;
  return banned ? `forbids what the entry uses: ${banned}` : null;
}

const SPECIFIC = 0.9;
/** Two content words in common: one shared word ("tests", "service") is a topic, not a subject. */
const SUBJECT_TERMS = 2;
/** A shared specific term of two clauses that have at least two in common, or null. */
const sharesSpecific = (a: Clause, b: Clause) => {
  let first: string | null = null;
  let n = 0;
  for (const [t, w] of a.slot) {
    if (w < SPECIFIC || (b.slot.get(t) ?? 0) < SPECIFIC || t.startsWith('dim:')) continue;
    first ??= t;
    n++;
  }
  return n >= SUBJECT_TERMS ? first : null;
};

function stanceSlot(c: TextFeatures, d: TextFeatures): string | null {
  for (const cc of c.clauses) {
    if (!cc.stance || !cc.explicit) continue;
    for (const dc of d.clauses) {
      if (!dc.stance || dc.stance === cc.stance || !dc.explicit) continue;
      const shared = sharesSpecific(cc, dc);
      if (!shared) continue;
      const what = c.display.get(shared) ?? d.display.get(shared) ?? shared;
      if (cc.stance === 'neg') return `forbids what the entry requires: ${what}`;
      return cc.permit ? `permits what the entry forbids: ${what}` : `requires what the entry forbids: ${what}`;
    }
  }
  return null;
}

/** An antonym in place of a word in two clauses that otherwise say the same (enable / disable the cache). */
function antonymSlot(c: TextFeatures, d: TextFeatures): string | null {
  const lex = lexicon();
  for (const cc of c.clauses) {
    for (const dc of d.clauses) {
      if (!sharesSpecific(cc, dc)) continue;
      for (const t of cc.terms.keys()) {
        if (dc.terms.has(t)) continue;
        for (const a of lex.antonyms(t)) {
          if (!dc.terms.has(a) || cc.terms.has(a) || restShared(cc, dc, t, a) < SWAP_REST) continue;
          return `${c.display.get(t) ?? t} vs ${d.display.get(a) ?? a}`;
        }
      }
    }
  }
  return null;
}

/**
 * Each clause names its own thing, one the other text never mentions (an identifier:
 * `trl:pos:{id}` against `veh:pos:{id}`, one consumer against another): the same setting of two
 * different things, not two values for one.
 */
function otherThings(cc: Clause, dc: Clause, c: TextFeatures, d: TextFeatures): boolean {
  let mine = false;
  let theirs = false;
  // A shared tool (both in Redis) is the setting's context; the things named on one side only differ.
  for (const t of cc.terms.keys()) if (isName(t) && !d.terms.has(t)) mine = true;
  for (const t of dc.terms.keys()) if (isName(t) && !c.terms.has(t)) theirs = true;
  return mine && theirs;
}

/** Different values in two clauses about the same specific thing (30 s vs 5 s for one timeout). */
function valueSlot(c: TextFeatures, d: TextFeatures): string | null {
  for (const cc of c.clauses) {
    if (cc.numbers.length === 0) continue;
    for (const dc of d.clauses) {
      if (dc.numbers.length === 0 || !sharesSpecific(cc, dc) || otherThings(cc, dc, c, d)) continue;
      const v = numericMismatch(cc.numbers, dc.numbers, statedElsewhere(cc, dc, c.clauses, d.clauses));
      if (v) return `different values: ${v}`;
    }
  }
  return null;
}

/**
 * A name (a word no dictionary knows: a tool, a library) only on each side, the rest shared.
 * Identifiers such as ticket numbers (INC-4512, SEC-001, M26) are references, never choices.
 */
const REFERENCE = /^[a-z]{0,8}[-_#]?\d+$/;
const isName = (t: string) =>
  t.startsWith('t:') ||
  (t.startsWith('w:') && t.length > 4 && !REFERENCE.test(t.slice(2)) && !lexicon().isWord(t.slice(2)));
/** Share of two clauses' other terms that they have in common for a name swap to be one. */
const SWAP_REST = 0.6;

/**
 * One name in place of another in two clauses that otherwise say the same ("hash passwords with
 * bcrypt" / "… with argon2id"); a title often names the entry's choice its body takes for granted.
 */
function nameSlot(c: TextFeatures, d: TextFeatures, dTitle?: TextFeatures): string | null {
  const dTerms = new Set([...d.terms.keys(), ...(dTitle?.terms.keys() ?? [])]);
  const dClauses = [...d.clauses, ...(dTitle?.clauses ?? [])];
  for (const cc of c.clauses) {
    const onlyC = [...cc.terms.keys()].filter((t) => isName(t) && !dTerms.has(t));
    if (onlyC.length !== 1) continue;
    for (const dc of dClauses) {
      const onlyD = [...dc.terms.keys()].filter((t) => isName(t) && !c.terms.has(t));
      if (onlyD.length !== 1 || restShared(cc, dc, onlyC[0], onlyD[0]) < SWAP_REST) continue;
      const shown = d.display.get(onlyD[0]) ?? dTitle?.display.get(onlyD[0]) ?? onlyD[0];
      return `different choice: ${c.display.get(onlyC[0]) ?? onlyC[0]} vs ${shown}`;
    }
  }
  return null;
}

/** Dice overlap of two clauses' specific terms, leaving out the two swapped names. */
function restShared(a: Clause, b: Clause, na: string, nb: string): number {
  let wa = 0;
  let wb = 0;
  let shared = 0;
  for (const [t, w] of a.slot) {
    if (t === na || w < SPECIFIC) continue;
    wa += w;
    const v = b.slot.get(t);
    if (v !== undefined && v >= SPECIFIC) shared += Math.min(w, v);
  }
  for (const [t, w] of b.slot) if (t !== nb && w >= SPECIFIC) wb += w;
  return wa + wb === 0 ? 0 : (2 * shared) / (wa + wb);
}

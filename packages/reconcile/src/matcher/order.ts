import { analyzeText, type TextFeatures } from './analyze.js';
import { vocabulary } from './vocabulary.js';

/**
 * The order slot: what a text says happens first and what second ("take a thread dump before
 * restarting the pod", "先关闭发送开关，再重放"). Two texts about the same subject
 * that put the same two things in opposite orders differ in a normative slot. The sequence cues
 * are data (`data/vocabulary.json`, `order`); the things ordered are the texts' own terms.
 */
interface OrderFact {
  first: Map<string, string>;
  second: Map<string, string>;
}

interface Cue {
  form: string;
  /** What the text before the cue is: `first` (X before Y, X then Y) or `second` (X after Y). */
  left: 'first' | 'second';
  /** A sentence-opening cue ("Before Y, X"), or a Chinese postposition (Y 之前 X). */
  kind: 'infix' | 'lead' | 'post';
  han: boolean;
}

let cues: Cue[] | null = null;
function orderCues(): Cue[] {
  if (cues) return cues;
  const o = vocabulary().order;
  const out: Cue[] = [];
  const add = (forms: readonly string[] | undefined, left: Cue['left'], kind: Cue['kind'], han: boolean) => {
    for (const form of forms ?? []) out.push({ form, left, kind, han });
  };
  add(o?.firstEn, 'first', 'infix', false);
  add(o?.secondEn, 'second', 'infix', false);
  add(o?.leadSecondEn, 'second', 'lead', false);
  add(o?.leadFirstEn, 'first', 'lead', false);
  add(o?.firstZh, 'first', 'infix', true);
  add(o?.postSecondZh, 'second', 'post', true);
  add(o?.postFirstZh, 'first', 'post', true);
  // Longest first: "only after" before "after", "之后再" before "之后".
  cues = out.sort((a, b) => b.form.length - a.form.length);
  return cues;
}

/** Specific weight (a content word) a term needs to be one of the things ordered. */
const ORDERED_WEIGHT = 0.9;
const SENTENCE = /[;!?。；！？\n]+|\.(?=\s|$)/;
/** "再" alone is an order cue only after a "先" ("先 A，再 B"); otherwise it means "again". */
const ZAI = '再';
const XIAN = '先';
/** In "X 在 Y 之前", Y is what the postposition names. */
const ZAI_LOCATIVE = '在';

function termsOf(text: string): Map<string, string> {
  const f = analyzeText(text);
  const out = new Map<string, string>();
  for (const [t, w] of f.terms) {
    if (w < ORDERED_WEIGHT || t.startsWith('dim:')) continue;
    out.set(t, f.display.get(t) ?? t.slice(t.indexOf(':') + 1));
  }
  return out;
}

const fact = (first: string, second: string): OrderFact | null => {
  if (!first.trim() || !second.trim()) return null;
  const f = termsOf(first);
  const s = termsOf(second);
  return f.size > 0 && s.size > 0 ? { first: f, second: s } : null;
};

function findCue(sentence: string): { cue: Cue; at: number } | null {
  const lower = sentence.toLowerCase();
  let best: { cue: Cue; at: number } | null = null;
  for (const cue of orderCues()) {
    let at = -1;
    if (cue.han) {
      at = lower.indexOf(cue.form);
      if (at >= 0 && cue.form === ZAI && !lower.slice(0, at).includes(XIAN)) at = -1;
    } else {
      const m = new RegExp(`(^|[^a-z])${cue.form.replace(/ /g, '\\s+')}(?![a-z])`).exec(lower);
      if (m) at = m.index + m[1].length;
    }
    if (at < 0) continue;
    const lead = !cue.han && lower.slice(0, at).trim() === '';
    if (cue.kind === 'lead' ? !lead : lead && !cue.han) continue;
    if (!best || at < best.at) best = { cue, at };
  }
  return best;
}

function sentenceFact(sentence: string): OrderFact | null {
  const hit = findCue(sentence);
  if (!hit) return null;
  const { cue, at } = hit;
  const left = sentence.slice(0, at);
  const right = sentence.slice(at + cue.form.length);
  if (cue.kind === 'lead') {
    // "Before Y, X" / "After Y, X": Y runs to the first comma.
    const comma = right.search(/[,，]/);
    if (comma < 0) return null;
    const named = right.slice(0, comma);
    const rest = right.slice(comma + 1);
    return cue.left === 'second' ? fact(rest, named) : fact(named, rest);
  }
  if (cue.kind === 'post') {
    // "Y 之前 X" / "X 在 Y 之前…": the postposition names Y; the rest is the other side.
    const zai = left.lastIndexOf(ZAI_LOCATIVE);
    const named = zai >= 0 ? left.slice(zai + 1) : left;
    const rest = zai >= 0 ? `${left.slice(0, zai)} ${right}` : right;
    return cue.left === 'second' ? fact(rest, named) : fact(named, rest);
  }
  // An infix cue orders the two phrases around it, not the whole sentence.
  const before = left.replace(/[\s,，:：]+$/, '');
  // "先 A，B，再 C": what 先 opens is the first side, across commas.
  const xian = cue.han ? before.lastIndexOf(XIAN) : -1;
  const cut = Math.max(
    before.lastIndexOf(','),
    before.lastIndexOf('，'),
    before.lastIndexOf(':'),
    before.lastIndexOf('：'),
  );
  const near = before.slice(xian >= 0 ? xian + 1 : cut + 1);
  const after = right.split(/[,，:：]/)[0];
  return cue.left === 'first' ? fact(near, after) : fact(after, near);
}

const factsCache = new WeakMap<TextFeatures, OrderFact[]>();

/**
 * What a text puts in sequence, sentence by sentence, computed once per text. Numbered steps are
 * not read as an order: across a recipe and its translation or extension, some pair of terms always
 * lands in different steps (measured: more false conflicts than real ones found).
 */
export function orderFacts(f: TextFeatures): OrderFact[] {
  let out = factsCache.get(f);
  if (!out) {
    out = [];
    for (const sentence of f.text.split(SENTENCE)) {
      const x = sentence.trim() ? sentenceFact(sentence) : null;
      if (x) out.push(x);
    }
    factsCache.set(f, out);
  }
  return out;
}

const pick = (a: Map<string, string>, b: Map<string, string>, notA: Map<string, string>, notB: Map<string, string>) => {
  for (const [t, shown] of a) if (b.has(t) && !notA.has(t) && !notB.has(t)) return { t, shown };
  return null;
};

/**
 * Two things the candidate puts in one order and the entry in the other: "different order: restart
 * before thread dump vs thread dump before restart", or null.
 */
export function orderSlot(c: TextFeatures, d: TextFeatures): string | null {
  const cf = orderFacts(c);
  if (cf.length === 0) return null;
  const df = orderFacts(d);
  for (const x of cf) {
    for (const y of df) {
      // Said first by the candidate, second by the entry; and the other way round.
      const early = pick(x.first, y.second, x.second, y.first);
      if (!early) continue;
      const late = pick(x.second, y.first, x.first, y.second);
      if (!late || late.t === early.t) continue;
      return `different order: ${early.shown} before ${late.shown} vs ${late.shown} before ${early.shown}`;
    }
  }
  return null;
}

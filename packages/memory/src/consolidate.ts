import { normalizeText } from '@maestro/core';
import type { MemoryKind, MemoryRecord } from './schemas.js';

/** Two records of one kind whose word sets overlap this much (Jaccard) say the same thing: merged. */
export const DUPLICATE_SIMILARITY = 0.8;
/** Above this, one record with a negation and one without contradict each other: the newer wins. */
export const CONTRADICTION_SIMILARITY = 0.6;
/** Kinds whose value changes over time: a close but different newer record replaces the older. */
export const CHANGING_KINDS: readonly MemoryKind[] = ['decision', 'preference', 'task_state'];
/** Confidence halves after this many days without a recall; each recall lengthens it (see `halfLifeDays`). */
export const BASE_HALF_LIFE_DAYS = 30;
/** Records whose confidence decays below this are forgotten (deleted). */
export const FORGET_FLOOR = 0.1;
/** Decay smaller than this is not worth a change (and a write). */
const DECAY_STEP = 0.005;

const NEGATIONS = new Set(['not', 'no', 'never', 'cannot', 'without', '不', '没', '别', '勿', '非']);
/** `don't` → `dont` after apostrophes are dropped. */
const CONTRACTED_NOT = /^(?:do|does|did|is|are|was|were|wo|ca|should|would|could|have|has|had)nt$/;
const CJK_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu;

/**
 * Consolidation's words: every NFKC lower-case word (single letters and digits too, so "plan a"
 * and "plan b" differ), CJK runs as bigrams, and whether the text negates.
 */
export function consolidationWords(text: string): { words: string[]; negated: boolean } {
  const norm = normalizeText(text).replaceAll("'", '');
  const words: string[] = [];
  let negated = false;
  for (const run of norm.match(CJK_RUN) ?? []) {
    const chars = [...run];
    for (const c of chars) if (NEGATIONS.has(c)) negated = true;
    for (let i = 0; i + 1 < chars.length; i++) words.push(chars[i] + chars[i + 1]);
    if (chars.length === 1) words.push(chars[0]);
  }
  for (const w of norm.replace(CJK_RUN, ' ').match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (NEGATIONS.has(w) || CONTRACTED_NOT.test(w)) negated = true;
    else words.push(w);
  }
  return { words, negated };
}

/** Days for confidence to halve: longer for records recalled often (1 + ln(1 + recalls)). */
export function halfLifeDays(recallCount: number): number {
  return BASE_HALF_LIFE_DAYS * (1 + Math.log(1 + Math.max(0, recallCount)));
}

/** Confidence after decay from the later of `decayed_at` and the last recall until `now`. Pure. */
export function decayedConfidence(r: MemoryRecord, now: Date): number {
  const from = Math.max(Date.parse(r.decayed_at), r.last_recalled_at ? Date.parse(r.last_recalled_at) : 0);
  const days = Math.max(0, (now.getTime() - from) / 86_400_000);
  return r.confidence * 0.5 ** (days / halfLifeDays(r.recall_count));
}

export type ConsolidationChange =
  | { change: 'merge'; kept: string; removed: string; similarity: number; text: string }
  | {
      change: 'supersede';
      kept: string;
      removed: string;
      similarity: number;
      reason: 'negation' | 'changed value';
      text: string;
      removed_text: string;
    }
  | { change: 'decay'; id: string; from: number; to: number }
  | { change: 'forget'; id: string; confidence: number; text: string };

export interface ConsolidationPlan {
  changes: ConsolidationChange[];
  /** The store's records after the plan (what `--dry-run` would write). */
  records: MemoryRecord[];
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const hist = (at: string, action: 'merged' | 'superseded', other: MemoryRecord, note: string) => ({
  at,
  action,
  text: other.text,
  from_id: other.id,
  confidence: other.confidence,
  note,
});

/** Folds `dup` (a later duplicate) into `kept`: stats summed, the older id and wording kept. */
function merge(kept: MemoryRecord, dup: MemoryRecord, at: string, sim: number): MemoryRecord {
  const last = [kept.last_recalled_at, dup.last_recalled_at]
    .filter((x): x is string => x !== null)
    .sort()
    .at(-1);
  return {
    ...kept,
    updated_at: at,
    recall_count: kept.recall_count + dup.recall_count,
    recalled_sessions: [...new Set([...kept.recalled_sessions, ...dup.recalled_sessions])].slice(-50),
    last_recalled_at: last ?? null,
    confidence: Math.max(kept.confidence, dup.confidence),
    promotions: [...kept.promotions, ...dup.promotions],
    history: [...kept.history, hist(at, 'merged', dup, `duplicate (similarity ${round(sim)})`)],
  };
}

type Words = ReturnType<typeof consolidationWords> & { set: Set<string> };
interface Slot {
  r: MemoryRecord;
  w: Words;
  norm: string;
}

/** Jaccard of two sets, the smaller first. Texts without content words relate only by equal text (0 here). */
function jaccard(small: ReadonlySet<string>, large: ReadonlySet<string>): number {
  if (large.size === 0) return 0;
  let common = 0;
  for (const t of small) if (large.has(t)) common++;
  return common / (small.size + large.size - common);
}

/**
 * Prefix filtering (as in all-pairs similarity joins): with words in one global order, rarest
 * first, two sets with Jaccard ≥ t always share a word among the first n − ⌈t·n⌉ + 1 of each. So
 * each record is compared only with records sharing such a word, never with the whole store.
 */
function prefixOf(words: readonly string[], df: ReadonlyMap<string, number>): string[] {
  const distinct = [...new Set(words)].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : 1));
  const n = distinct.length;
  return distinct.slice(0, n - Math.ceil(CONTRADICTION_SIMILARITY * n) + 1);
}

/** How `r` changes slot `k`, or null when they are unrelated. Mutates `k`. */
function absorb(k: Slot, r: MemoryRecord, w: Words, norm: string, at: string): ConsolidationChange | null {
  if (k.r.kind !== r.kind) return null;
  // Size filter: sets this different in size cannot reach the lowest threshold.
  const same = norm === k.norm;
  const a = k.w.set;
  const b = w.set;
  if (!same && Math.min(a.size, b.size) < CONTRADICTION_SIMILARITY * Math.max(a.size, b.size)) return null;
  const sim = same ? 1 : a.size <= b.size ? jaccard(a, b) : jaccard(b, a);
  if (sim >= DUPLICATE_SIMILARITY && k.w.negated === w.negated) {
    k.r = merge(k.r, r, at, sim);
    return { change: 'merge', kept: k.r.id, removed: r.id, similarity: round(sim), text: r.text };
  }
  const negation = sim >= CONTRADICTION_SIMILARITY && k.w.negated !== w.negated;
  const changed = sim >= CONTRADICTION_SIMILARITY && CHANGING_KINDS.includes(r.kind);
  if (!negation && !changed) return null;
  const older = k.r;
  const note = negation ? 'contradicted by this newer record' : 'replaced by this newer value';
  k.r = {
    ...r,
    updated_at: at,
    history: [
      ...r.history,
      ...older.history.filter((h) => h.action !== 'created'),
      hist(at, 'superseded', older, note),
    ],
  };
  k.w = w;
  k.norm = norm;
  return {
    change: 'supersede',
    kept: r.id,
    removed: older.id,
    similarity: round(sim),
    reason: negation ? 'negation' : 'changed value',
    text: r.text,
    removed_text: older.text,
  };
}

/**
 * The consolidation plan (pure): duplicates merged into the older record; a contradiction (or,
 * for decisions, preferences and task state, a changed value) resolved for the newer record with
 * the older's text kept in its history; every survivor decayed; records below the floor forgotten.
 * Records are taken oldest first and each is judged against the earliest related survivor.
 */
export function planConsolidation(
  records: readonly MemoryRecord[],
  now: Date,
  options: { exhaustive?: boolean } = {},
): ConsolidationPlan {
  const at = now.toISOString();
  const changes: ConsolidationChange[] = [];
  const ordered = [...records].sort((a, b) =>
    a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1,
  );
  const words: Words[] = ordered.map((r) => {
    const w = consolidationWords(r.text);
    return { ...w, set: new Set(w.words) };
  });
  const df = new Map<string, number>();
  for (const w of words) for (const t of w.set) df.set(t, (df.get(t) ?? 0) + 1);
  const slots: Slot[] = [];
  const postings = new Map<string, number[]>();
  const index = (i: number, kind: string, w: Words, norm: string) => {
    for (const key of [`=${kind}\u0000${norm}`, ...prefixOf(w.words, df).map((t) => `${kind}\u0000${t}`)]) {
      const list = postings.get(key);
      if (!list) postings.set(key, [i]);
      else if (list.at(-1) !== i) list.push(i);
    }
  };
  ordered.forEach((r, n) => {
    const w = words[n];
    const norm = normalizeText(r.text)
      .replace(/[\p{P}\s]+/gu, ' ')
      .trim();
    const keys = [`=${r.kind}\u0000${norm}`, ...prefixOf(w.words, df).map((t) => `${r.kind}\u0000${t}`)];
    // `exhaustive` compares with every survivor: the oracle the prefix filter is tested against.
    const candidates = options.exhaustive
      ? slots.map((_, i) => i)
      : [...new Set(keys.flatMap((k) => postings.get(k) ?? []))].sort((a, b) => a - b);
    for (const i of candidates) {
      const change = absorb(slots[i], r, w, norm, at);
      if (!change) continue;
      changes.push(change);
      if (change.change === 'supersede') index(i, r.kind, w, norm);
      return;
    }
    slots.push({ r, w, norm });
    index(slots.length - 1, r.kind, w, norm);
  });
  return { changes, records: decayAll(slots, records, now, changes) };
}

/** Decays every survivor, forgets those below the floor (appending to `changes`), in the store's order. */
function decayAll(slots: readonly Slot[], records: readonly MemoryRecord[], now: Date, changes: ConsolidationChange[]) {
  const at = now.toISOString();
  const out: MemoryRecord[] = [];
  for (const { r } of slots) {
    const to = decayedConfidence(r, now);
    if (to < FORGET_FLOOR) {
      changes.push({ change: 'forget', id: r.id, confidence: round(to), text: r.text });
      continue;
    }
    if (r.confidence - to >= DECAY_STEP) {
      changes.push({ change: 'decay', id: r.id, from: round(r.confidence), to: round(to) });
      out.push({ ...r, confidence: round(to), decayed_at: at });
    } else out.push(r);
  }
  const order = new Map(records.map((r, i) => [r.id, i]));
  return out.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
}

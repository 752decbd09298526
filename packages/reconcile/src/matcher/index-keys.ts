/**
 * The retrieval keys of a text (`indexTerms`, `docKeys`), computed without building units: every
 * corpus entry goes through here once per derive, so this is the matcher's hottest loop. Keys
 * are numbered once per process (an id table); a document's keys are deduplicated by stamping
 * their ids, and each distinct word keeps the ids of its keys. The results are exactly those of
 * reading `segment`'s units in order (see `unitKeys`).
 */
import { indexedText } from '@maestro/core';
import { type LexEntry, lexicon } from './lexicon.js';
import { prepareTokens } from './prepare.js';
import { segment, type Unit } from './segment.js';
import { HASH_START, hashRange, hashStep, numberAt, phrases, trimWords, type WordRec, wordAt } from './word-table.js';

/** Key ids before the table starts afresh (checked between documents only). */
const ID_CAP = 1 << 20;

let epoch = 0;
const ids = new Map<string, number>();
const names: string[] = [];
/** Per id: UNPAIRED when the key takes no part in sketch pairs (`alt:`, `dim:`), PAIR_LIKE when it starts with `k:`. */
let flags = new Uint8Array(1024);
const UNPAIRED = 1;
const PAIR_LIKE = 2;
/** Per id: the FNV-1a state after `<key> ` (the first half of a pair). */
let prefix = new Uint32Array(1024);
/** Per id: the stamp of the last document that had the key. */
let stamp = new Int32Array(1024);
let doc = 0;
const lexKeys = new Map<LexEntry, readonly number[]>();

function resetIds(): void {
  epoch++;
  ids.clear();
  names.length = 0;
  lexKeys.clear();
  stamp.fill(0);
  doc = 0;
}

function idOf(key: string): number {
  let id = ids.get(key);
  if (id !== undefined) return id;
  id = names.length;
  names.push(key);
  ids.set(key, id);
  if (id >= stamp.length) {
    const size = stamp.length * 2;
    flags = grow(flags, new Uint8Array(size));
    prefix = grow(prefix, new Uint32Array(size));
    stamp = grow(stamp, new Int32Array(size));
  }
  flags[id] = (notPaired(key) ? UNPAIRED : 0) | (key.startsWith('k:') ? PAIR_LIKE : 0);
  prefix[id] = fnvOn(fnvOn(0x811c9dc5, key), ' ');
  return id;
}

function grow<T extends Uint8Array | Uint32Array | Int32Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** A term and, when it belongs to one, its alternative set (what `indexTerms` adds for a term). */
function termKeys(term: string, out: number[]): void {
  out.push(idOf(term));
  const set = lexicon().altOf.get(term);
  if (set) out.push(idOf(`alt:${set}`));
}

/** The keys a unit adds, in the order `indexTerms` adds them. */
function unitKeys(u: Unit, out: number[]): void {
  if (u.kind === 'word') termKeys(u.term, out);
  else if (u.kind === 'han' || u.kind === 'gloss') for (const t of u.terms) termKeys(t, out);
  else if (u.kind === 'lex') entryKeys(u.entry, out);
}

function entryKeys(entry: LexEntry, out: number[]): void {
  if (entry.flip) termKeys(entry.flip, out);
  else if (entry.concept) termKeys(entry.concept, out);
}

function keysOfEntry(entry: LexEntry): readonly number[] {
  let keys = lexKeys.get(entry);
  if (!keys) {
    const out: number[] = [];
    entryKeys(entry, out);
    keys = out;
    lexKeys.set(entry, keys);
  }
  return keys;
}

function keysOfWord(rec: WordRec): readonly number[] {
  if (rec.keys && rec.keyEpoch === epoch) return rec.keys;
  const out: number[] = [];
  for (const u of rec.info.units) unitKeys(u, out);
  rec.keys = out;
  rec.keyEpoch = epoch;
  return out;
}

/** A document's distinct key ids, in first-seen order. */
class KeyList {
  readonly list: number[] = [];
  constructor(readonly mark: number) {}
  addAll(keys: readonly number[]): void {
    for (let k = 0; k < keys.length; k++) this.add(keys[k]);
  }
  add(id: number): void {
    if (stamp[id] === this.mark) return;
    stamp[id] = this.mark;
    this.list.push(id);
  }
}

function startDocument(): KeyList {
  if (names.length > ID_CAP || doc >= 0x7fffffff) resetIds();
  trimWords();
  return new KeyList(++doc);
}

/** The ids of a text's retrieval keys (see `indexTerms` in corpus-index.ts). */
function termIds(text: string): KeyList {
  const keys = startDocument();
  // Only the indexed part of a huge document: retrieval needs its topic, not every word of a dump.
  const prepared = prepareTokens(indexedText(text));
  if (!latinKeys(prepared, keys)) {
    const scratch: number[] = [];
    for (const u of segment(prepared)) {
      scratch.length = 0;
      unitKeys(u, scratch);
      keys.addAll(scratch);
    }
  }
  return keys;
}

/** Words of the current text (reused between texts). */
const words: WordRec[] = [];

/**
 * The keys of an ASCII text, read as `segment` reads it: one run of Latin tokens (its other
 * tokens start with `§` or a Han character), each cut of a trailing `-` or `.`, then the lexicon's
 * longest phrases. False, with nothing added, for a text with any other character.
 */
function latinKeys(text: string, keys: KeyList): boolean {
  const n = text.length;
  let count = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return false;
    if (!latinStart(c)) {
      i++;
      continue;
    }
    // TOKEN's Latin alternative: `[a-z0-9][a-z0-9_+#-]*(?:[.:][a-z0-9_+#-]+)*`.
    let h = hashStep(HASH_START, c);
    let digits = c <= 57;
    let j = i + 1;
    for (;;) {
      let d = j < n ? text.charCodeAt(j) : 0;
      while (wordChar(d)) {
        h = hashStep(h, d);
        digits &&= d >= 48 && d <= 57;
        d = ++j < n ? text.charCodeAt(j) : 0;
      }
      if ((d === 46 || d === 58) && j + 1 < n && wordChar(text.charCodeAt(j + 1))) {
        h = hashStep(h, d);
        digits = false;
        j++;
      } else break;
    }
    let end = j;
    while (end - 1 > i && isCut(text.charCodeAt(end - 1))) end--;
    if (end !== j) {
      h = hashRange(text, i, end);
      digits = /^\d+$/.test(text.slice(i, end));
    }
    words[count++] = digits ? numberAt(text, i, end, h) : wordAt(text, i, end, h);
    i = j;
  }
  latinRun(count, keys);
  return true;
}

/** `-` or `.`: cut off the end of a Latin token. */
function isCut(c: number): boolean {
  return c === 45 || c === 46;
}

/** `segmentLatin` over the first `n` of `words`, adding keys instead of units. */
function latinRun(n: number, keys: KeyList): void {
  const root = phrases().root;
  let i = 0;
  while (i < n) {
    const rec = words[i];
    const max = Math.min(rec.info.phrase, n - i);
    // The longest lexicon phrase of at most `max` words starting here.
    let len = 0;
    let entry: LexEntry | undefined;
    let node = max >= 2 ? root.get(rec.stemId) : undefined;
    for (let k = 1; k < max && node; k++) {
      node = node.next?.get(words[i + k].stemId);
      if (node?.entry) {
        len = k + 1;
        entry = node.entry;
      }
    }
    if (entry) {
      keys.addAll(keysOfEntry(entry));
      i += len;
      continue;
    }
    keys.addAll(keysOfWord(rec));
    i++;
  }
  // Let the words of a long text go.
  if (n > 4096) words.length = 0;
}

/** `[a-z0-9]`. */
function latinStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** `[a-z0-9_+#-]`. */
function wordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 43 || c === 35 || c === 45;
}

/**
 * The retrieval keys of a text: concept terms, unknown words, CJK bigrams and alternative sets.
 * A lighter pass than `analyzeText` (no clauses, stance or numbers): it only has to find neighbours.
 */
export function indexTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const id of termIds(text).list) out.add(names[id]);
  return out;
}

/** How many pair keys of each document are indexed: a bottom-k sketch. */
const SKETCH_SIZE = 4;

/**
 * A text's terms then its sketch pair keys that are not terms (see `sketchKeys`): the keys an
 * active document is indexed under.
 */
export function textKeys(text: string): string[] {
  const keys = termIds(text);
  const list = keys.list;
  const out: string[] = new Array(list.length);
  for (let k = 0; k < list.length; k++) out[k] = names[list[k]];
  // The SKETCH_SIZE smallest distinct pair hashes, ascending; a term that looks like a pair key
  // (`k:` then digits) keeps the pair key it equals out.
  const least: number[] = [];
  let prev = -1;
  let pairLike = false;
  for (let k = 0; k < list.length; k++) {
    const t = list[k];
    const f = flags[t];
    if (f & PAIR_LIKE) pairLike = true;
    if (f & UNPAIRED) continue;
    if (prev < 0) {
      prev = t;
      continue;
    }
    const h = fnvOn(prefix[prev], names[t]);
    prev = t;
    if (least.length === SKETCH_SIZE && h >= least[SKETCH_SIZE - 1]) continue;
    let at = least.length;
    while (at > 0 && least[at - 1] > h) at--;
    if (at > 0 && least[at - 1] === h) continue;
    // Insert at `at`, dropping the largest beyond SKETCH_SIZE.
    for (let m = Math.min(least.length, SKETCH_SIZE - 1); m > at; m--) least[m] = least[m - 1];
    least[at] = h;
  }
  for (const h of least) {
    const key = `k:${h}`;
    if (!pairLike || !has(keys, key)) out.push(key);
  }
  return out;
}

function has(keys: KeyList, key: string): boolean {
  const id = ids.get(key);
  return id !== undefined && stamp[id] === keys.mark;
}

/** `alt:` and `dim:` keys take no part in pairs. */
export function notPaired(t: string): boolean {
  return t.charCodeAt(3) === 58 && (t.startsWith('alt:') || t.startsWith('dim:'));
}

/** 32-bit FNV-1a over `s`, from `state`. */
export function fnvOn(state: number, s: string): number {
  let h = state;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

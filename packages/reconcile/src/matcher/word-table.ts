/**
 * The words the retrieval-key pass has met, found from a range of a text without cutting it out
 * (a corpus repeats a small vocabulary: a string per word and a `Map` lookup on it was the
 * costliest step of indexing), and the lexicon's phrases as a trie over stem numbers.
 */
import { type LexEntry, lexicon } from './lexicon.js';
import { infoOf, type WordInfo } from './segment.js';

/** What the key pass keeps per distinct word. */
export interface WordRec {
  word: string;
  hash: number;
  info: WordInfo;
  /** The stem's number in the phrase trie (-1: no phrase has it). */
  stemId: number;
  /** The ids of the keys of `info.units` (filled by the key pass), with the id table epoch they belong to. */
  keys: readonly number[] | null;
  keyEpoch: number;
}

/** Words kept before the table starts afresh. */
const WORD_CAP = 1 << 18;

let slots = new Int32Array(1 << 12);
let recs: WordRec[] = [];

/** Forgets every word when the table is full (call between texts only). */
export function trimWords(): void {
  if (recs.length < WORD_CAP) return;
  recs = [];
  slots = new Int32Array(1 << 12);
}

/** FNV-1a step over a word's characters, from `HASH_START` (the hash `wordAt` takes). */
export function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}
export const HASH_START = 0x811c9dc5 | 0;

/** The hash of `text[start, end)` that `wordAt` takes. */
export function hashRange(text: string, start: number, end: number): number {
  let h = HASH_START;
  for (let k = start; k < end; k++) h = hashStep(h, text.charCodeAt(k));
  return h;
}

/**
 * What a number that the lexicon does not know reads as: no units, no phrase (a corpus numbers
 * its titles: such words are many, each met once or twice, and need no room in the table).
 */
export const PLAIN_NUMBER: WordRec = {
  word: '',
  hash: 0,
  info: { stem: '', phrase: 0, units: [] },
  stemId: -1,
  keys: [],
  keyEpoch: -1,
};

/**
 * The word `text[start, end)`, all digits, whose characters hash to `h`: `PLAIN_NUMBER` unless the
 * lexicon has a word or phrase part of digits with that hash. (A number is its own stem, and with
 * no lexicon entry it has no units: see `infoOf`.)
 */
export function numberAt(text: string, start: number, end: number, h: number): WordRec {
  return phrases().numbers.has(h) ? wordAt(text, start, end, h) : PLAIN_NUMBER;
}

/** The word `text[start, end)` whose characters hash to `h` (see `hashRange`). */
export function wordAt(text: string, start: number, end: number, h: number): WordRec {
  const mask = slots.length - 1;
  const len = end - start;
  let at = (h ^ (h >>> 15)) & mask;
  for (;;) {
    const r = slots[at];
    if (r === 0) break;
    const rec = recs[r - 1];
    if (rec.hash === h && rec.word.length === len && same(rec.word, text, start)) return rec;
    at = (at + 1) & mask;
  }
  const word = text.slice(start, end);
  const info = infoOf(word);
  const rec: WordRec = { word, hash: h, info, stemId: phrases().stems.get(info.stem) ?? -1, keys: null, keyEpoch: -1 };
  recs.push(rec);
  slots[at] = recs.length;
  if (recs.length * 2 > slots.length) rehash();
  return rec;
}

function same(word: string, text: string, start: number): boolean {
  for (let k = 0; k < word.length; k++) if (word.charCodeAt(k) !== text.charCodeAt(start + k)) return false;
  return true;
}

function rehash(): void {
  slots = new Int32Array(slots.length * 2);
  const mask = slots.length - 1;
  for (let r = 0; r < recs.length; r++) {
    const h = recs[r].hash;
    let at = (h ^ (h >>> 15)) & mask;
    while (slots[at] !== 0) at = (at + 1) & mask;
    slots[at] = r + 1;
  }
}

/** A trie node: the lexicon entry of the phrase of the stems so far (if one), and the next stems. */
export interface PhraseNode {
  entry: LexEntry | undefined;
  next: Map<number, PhraseNode> | null;
}

interface Phrases {
  /** Stem → its number, for every stem of a multi-word lexicon form. */
  stems: Map<string, number>;
  /** First stem's number → its node. */
  root: Map<number, PhraseNode>;
  /** The hashes (see `hashRange`) of the lexicon's words and phrase parts that are all digits. */
  numbers: Set<number>;
}

let trie: Phrases | null = null;

/**
 * The lexicon's multi-word forms (its keys with a space) as a trie: the longest phrase at a word
 * is the deepest node with an entry on the path of the stems that follow it.
 */
export function phrases(): Phrases {
  if (trie) return trie;
  const stems = new Map<string, number>();
  const root = new Map<number, PhraseNode>();
  const numbers = new Set<number>();
  for (const [key, entry] of lexicon().latin) {
    for (const part of key.split(' ')) if (/^\d+$/.test(part)) numbers.add(hashRange(part, 0, part.length));
    if (!key.includes(' ')) continue;
    let level = root;
    let node: PhraseNode | undefined;
    for (const part of key.split(' ')) {
      if (node) level = node.next ??= new Map();
      let id = stems.get(part);
      if (id === undefined) {
        id = stems.size;
        stems.set(part, id);
      }
      node = level.get(id);
      if (!node) {
        node = { entry: undefined, next: null };
        level.set(id, node);
      }
    }
    (node as PhraseNode).entry = entry;
  }
  trie = { stems, root, numbers };
  return trie;
}

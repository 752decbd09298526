import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MaestroError } from '@maestro/core';

/**
 * Chinese word segmentation by jieba (jieba-rs through `@node-rs/jieba`, a prebuilt native
 * binary): the most probable cut of a run over jieba's word frequencies, on CC-CEDICT's
 * vocabulary (`scripts/build-segmenter.mjs` → `data/zh-dict.txt`), so jieba gives the words and
 * CC-CEDICT their English glosses. Dictionary words only (no HMM guessing of new words):
 * characters no word covers come out one by one.
 *
 * Nothing is loaded at import. jieba is given only the dictionary words a text contains (found by
 * binary search over the compiled file's bytes, nothing parsed), with the dictionary's total
 * frequency kept exact by one placeholder word, so each cut is the cut by the whole dictionary
 * and does not depend on what was segmented before; a query pays for a few words, not for the
 * 120k. Past `FULL_AFTER` characters (a corpus, not a query) the rest is loaded at once (each word
 * once: the map of what was looked up is bounded by the text segmented until then).
 */
interface Cutter {
  cut(text: string, hmm?: boolean | null): string[];
  loadDict(dict: Uint8Array): void;
}

interface Meta {
  schema: string;
  total: number;
  longest: number;
}

/** A word no text holds: its frequency is the total of the words not loaded yet (plus 1). */
const UNSEEN = '\uE000';
const FULL_AFTER = 4_000;
const NONE = 0;
const PREFIX = 1;
const WORD = 2;

const data = (file: string) => new URL(`../data/${file}`, import.meta.url);

class Segmenter {
  /** Every string looked up so far: no word starts so, a word starts so, or it is a word (loaded). */
  private readonly prefixes = new Map<string, typeof NONE | typeof PREFIX | typeof WORD>();
  private loadedSum = 0;
  private looked = 0;
  private full = false;

  constructor(
    private readonly jieba: Cutter,
    private readonly dict: Buffer,
    private readonly meta: Meta,
  ) {}

  cut(text: string): string[] {
    if (!this.full) this.prepare(text);
    return this.jieba.cut(text, false);
  }

  /** Loads the dictionary words of `text` that jieba has not been given yet. */
  private prepare(text: string): void {
    this.looked += text.length;
    if (this.looked > FULL_AFTER) {
      // Every word (those loaded already are replaced by themselves): the placeholder keeps 1.
      this.jieba.loadDict(this.dict);
      this.jieba.loadDict(Buffer.from(`${UNSEEN} 1\n`));
      this.full = true;
      this.prefixes.clear();
      return;
    }
    const chars = Array.from(text);
    const lines: string[] = [];
    for (let i = 0; i < chars.length; i++) {
      let word = '';
      for (let k = i; k < chars.length && k - i < this.meta.longest; k++) {
        word += chars[k];
        let known = this.prefixes.get(word);
        if (known === undefined) {
          const line = lineAt(this.dict, lowerBound(this.dict, Buffer.from(word)));
          known = !line.startsWith(word) ? NONE : line.charCodeAt(word.length) === 32 ? WORD : PREFIX;
          this.prefixes.set(word, known);
          if (known === WORD) {
            this.loadedSum += Number(line.slice(word.length + 1));
            lines.push(line);
          }
        }
        if (known === NONE) break; // no dictionary word starts so
      }
    }
    if (lines.length === 0) return;
    lines.push(`${UNSEEN} ${this.meta.total - this.loadedSum}`);
    this.jieba.loadDict(Buffer.from(`${lines.join('\n')}\n`));
  }
}

/** Byte offset of the first line whose word is ≥ `key` (lines sorted by the word's UTF-8 bytes). */
function lowerBound(buf: Buffer, key: Buffer): number {
  // Invariant: `lo` and `hi` are line starts (or the end); lines before `lo` are < key, the line
  // at `hi` (if any) is ≥ key. The start of the line holding `mid` is in [lo, mid].
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : buf.lastIndexOf(10, mid - 1) + 1;
    if (compareWord(buf, start, key) < 0) {
      const end = buf.indexOf(10, start);
      lo = end < 0 ? buf.length : end + 1;
    } else hi = start;
  }
  return lo;
}

/** Compares the word of the line at `start` (bytes up to the space) with `key`. */
function compareWord(buf: Buffer, start: number, key: Buffer): number {
  for (let i = 0; ; i++) {
    const a = buf[start + i];
    const ended = a === 32 || a === 10 || a === undefined;
    if (i === key.length) return ended ? 0 : 1;
    if (ended) return -1;
    if (a !== key[i]) return a - key[i];
  }
}

function lineAt(buf: Buffer, at: number): string {
  if (at >= buf.length) return '';
  const end = buf.indexOf(10, at);
  return buf.toString('utf8', at, end < 0 ? buf.length : end);
}

let segmenter: Segmenter | null = null;

function load(): Segmenter {
  let dict: Buffer;
  let meta: Meta;
  try {
    dict = readFileSync(data('zh-dict.txt'));
    meta = JSON.parse(readFileSync(data('zh-dict.json'), 'utf8')) as Meta;
  } catch (cause) {
    throw new MaestroError(
      'LEXICON_MISSING',
      `cannot read the compiled Chinese dictionary ${data('zh-dict.txt').pathname}`,
      {
        hint: 'run `pnpm build` (it compiles jieba and CC-CEDICT into packages/lexicon/data/zh-dict.txt)',
        cause,
      },
    );
  }
  if (meta.schema !== 'maestro-zh-dict/1') {
    throw new MaestroError(
      'LEXICON_MISSING',
      `${data('zh-dict.json').pathname} has schema ${meta.schema}, expected maestro-zh-dict/1`,
      {
        hint: 'run `pnpm build` to compile it again',
      },
    );
  }
  let jieba: { Jieba: new () => Cutter };
  try {
    jieba = createRequire(import.meta.url)('@node-rs/jieba');
  } catch (cause) {
    throw new MaestroError(
      'LEXICON_MISSING',
      `cannot load the Chinese segmenter @node-rs/jieba for ${process.platform}-${process.arch}`,
      {
        hint: 'run `pnpm install` (the segmenter ships a prebuilt binary per platform as an optional dependency; optional dependencies must not be omitted)',
        cause,
      },
    );
  }
  return new Segmenter(new jieba.Jieba(), dict, meta);
}

/** True once the segmenter is loaded (tests: importing the package loads nothing). */
export function segmenterLoaded(): boolean {
  return segmenter !== null;
}

/**
 * A run of Chinese characters cut into words (jieba over CC-CEDICT's vocabulary); the pieces
 * join back to the run. Give Han runs: other text comes back as jieba cuts it (Latin words,
 * numbers and punctuation apart).
 */
export function segmentChinese(run: string): string[] {
  if (run === '') return [];
  segmenter ??= load();
  return segmenter.cut(run);
}

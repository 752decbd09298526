import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { MaestroError } from '@maestro/core';

/**
 * Chinese word segmentation by jieba (jieba-rs through `@node-rs/jieba`, a prebuilt native
 * binary): the most probable cut of a run over jieba's word frequencies, with every word
 * CC-CEDICT glosses added to the dictionary at build time (`scripts/build-segmenter.mjs` →
 * `data/zh-dict.txt`), so jieba gives the words and CC-CEDICT their English glosses. Dictionary
 * words only (no HMM guessing of new words): characters no word covers come out one by one.
 *
 * Neither the binary nor the dictionary is loaded at import: the first segmentation loads both
 * (a few tens of milliseconds), so a command that never meets Chinese text never pays for them.
 */
interface Cutter {
  cut(text: string, hmm?: boolean | null): string[];
}

let cutter: Cutter | null = null;

function load(): Cutter {
  const url = new URL('../data/zh-dict.txt', import.meta.url);
  let dict: Buffer;
  try {
    dict = readFileSync(url);
  } catch (cause) {
    throw new MaestroError('LEXICON_MISSING', `cannot read the compiled Chinese dictionary ${url.pathname}`, {
      hint: 'run `pnpm build` (it compiles jieba and CC-CEDICT into packages/lexicon/data/zh-dict.txt)',
      cause,
    });
  }
  let jieba: { Jieba: { withDict(dict: Uint8Array): Cutter } };
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
  return jieba.Jieba.withDict(dict);
}

/** True once the segmenter is loaded (tests: importing the package loads nothing). */
export function segmenterLoaded(): boolean {
  return cutter !== null;
}

/**
 * A run of Chinese characters cut into words (jieba over its dictionary and CC-CEDICT's words);
 * the pieces join back to the run. Text that is not Chinese is the caller's: give Han runs only
 * (anything else comes back as jieba cuts it: words, numbers and punctuation apart).
 */
export function segmentChinese(run: string): string[] {
  if (run === '') return [];
  cutter ??= load();
  return cutter.cut(run, false);
}

import { lexicon } from './lexicon.js';

/**
 * Segments a run of Chinese characters into dictionary words: the segmentation with the fewest
 * pieces (ties: the longer first piece), by dynamic programming over the CC-CEDICT word list.
 * Characters no word covers come out one per piece. `known` adds words the caller knows
 * (a project vocabulary); they count like dictionary words.
 */
export function segmentHan(run: string, known?: (word: string) => boolean): string[] {
  const lex = lexicon();
  const isWord = (w: string) => lex.glosses(w).length > 0 || (known?.(w) ?? false);
  return segmentBy(run, isWord, Math.max(lex.hanMax, 4));
}

/** The same dynamic programming over any word test, words of 2..`max` characters. */
export function segmentBy(run: string, isWord: (word: string) => boolean, max: number): string[] {
  const n = run.length;
  // cost[i]: fewest pieces for run[i..]; next[i]: end of the first piece.
  const cost = new Array<number>(n + 1).fill(0);
  const next = new Array<number>(n + 1).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    cost[i] = cost[i + 1] + 1;
    next[i] = i + 1;
    for (let len = Math.min(max, n - i); len >= 2; len--) {
      if (!isWord(run.slice(i, i + len))) continue;
      if (cost[i + len] + 1 < cost[i]) {
        cost[i] = cost[i + len] + 1;
        next[i] = i + len;
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i < n; i = next[i]) out.push(run.slice(i, next[i]));
  return out;
}

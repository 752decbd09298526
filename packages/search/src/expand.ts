import {
  chineseWords,
  deinflect,
  englishGlosses,
  inflections,
  isEnglishWord,
  relatedWords,
  segmentChinese,
} from '@maestro/lexicon';
import { EXPANSION } from './config.js';
import type { SearchIndex } from './model.js';
import type { ParsedQuery } from './query.js';
import { termRankOf } from './score.js';
import { queryTerms } from './tokenize.js';

/**
 * Query-side expansion: for each query term, the index terms that say the same thing in other
 * words — inflections, WordNet derivations and synonyms, compounds, and CC-CEDICT glosses across
 * Chinese and English. Only terms the index holds are kept. Pure (the word tables are read-only).
 */
export interface Alternative {
  /** Index terms that must all be in the entry (a Chinese word's pairs, a two-word gloss). */
  terms: string[];
  ranks: number[];
  weight: number;
  cover: number;
}

type Kind = 'inflection' | 'compound' | 'split' | 'derived' | 'synonym' | 'gloss';

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Index terms of a short English text (a gloss), in the index's own folding; a word the index
 * lacks is looked for as its inflections and derivations (log → logging); null if one is absent.
 */
function termsOf(index: SearchIndex, text: string): { terms: string[]; ranks: number[] } | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  const ranks: number[] = [];
  for (let k = 0; k < terms.length; k++) {
    let r = termRankOf(index, terms[k]);
    if (r < 0 && CJK.test(terms[k])) return null;
    for (const f of r < 0 ? [...inflections(terms[k]), ...relatedWords(terms[k]).derived] : []) {
      r = termRankOf(index, f);
      if (r >= 0) {
        terms[k] = f;
        break;
      }
    }
    if (r < 0) return null;
    ranks.push(r);
  }
  return { terms, ranks };
}

/** Per query term (same order as `q.terms`), its alternatives, best kinds first. */
export function expandQuery(index: SearchIndex, q: ParsedQuery): Alternative[][] {
  const out: Alternative[][] = q.terms.map(() => []);
  const seen: Set<string>[] = q.terms.map((t) => new Set([t]));
  const own = new Set(q.terms);
  const slot = new Map(q.terms.map((t, i) => [t, i]));
  const add = (i: number | undefined, kind: Kind, found: { terms: string[]; ranks: number[] } | null, share = 1) => {
    if (i === undefined || found === null) return;
    const key = found.terms.join(' ');
    // A query term is never its own alternative, nor another query term's (it is scored as itself).
    if (seen[i].has(key) || (found.terms.length === 1 && own.has(key))) return;
    if (out[i].length >= EXPANSION.maxPerTerm) return;
    seen[i].add(key);
    const c = EXPANSION[kind];
    out[i].push({ terms: found.terms, ranks: found.ranks, weight: c.weight * share, cover: c.cover });
  };
  const single = (t: string) => {
    const r = termRankOf(index, t);
    return r < 0 ? null : { terms: [t], ranks: [r] };
  };
  const words = q.words;
  // English terms: inflections, derivations, synonyms, a split compound, Chinese words.
  for (const t of new Set(words)) {
    const i = slot.get(t);
    if (i === undefined) continue;
    const bases = [t, ...deinflect(t)];
    for (const b of bases) {
      if (b !== t) add(i, 'inflection', single(b));
      for (const f of inflections(b)) add(i, 'inflection', single(f));
    }
    for (const b of bases) for (const d of relatedWords(b).derived) add(i, 'derived', single(d));
    // A closed compound English does not have (timezone, not database) as the two words it joins.
    if (t.length >= 6 && !isEnglishWord(t)) {
      for (let cut = 3; cut <= t.length - 3; cut++) {
        const [x, y] = [t.slice(0, cut), t.slice(cut)];
        const a = single(x);
        const b = single(y);
        if (a && b && isEnglishWord(x) && isEnglishWord(y)) {
          add(i, 'split', { terms: [...a.terms, ...b.terms], ranks: [...a.ranks, ...b.ranks] });
          break;
        }
      }
    }
    for (const s of relatedWords(t).synonyms) add(i, 'synonym', single(s));
    for (const b of bases) for (const zh of chineseWords(b)) add(i, 'gloss', termsOf(index, zh));
  }
  // Adjacent English words: their compound, and the Chinese word of the two-word phrase.
  for (let w = 0; w + 1 < words.length; w++) {
    const [a, b] = [slot.get(words[w]), slot.get(words[w + 1])];
    const compound = single(words[w] + words[w + 1]);
    add(a, 'compound', compound);
    add(b, 'compound', compound);
    for (const zh of chineseWords(`${words[w]} ${words[w + 1]}`)) {
      const found = termsOf(index, zh);
      add(a, 'gloss', found, 0.5);
      add(b, 'gloss', found, 0.5);
    }
  }
  // Chinese runs: dictionary words, their English glosses, shared over the word's character pairs.
  for (const run of q.han) {
    for (const word of segmentChinese(run)) {
      if (word.length < 2) continue;
      const pairs = queryTerms(word)
        .map((p) => slot.get(p))
        .filter((p) => p !== undefined);
      if (pairs.length === 0) continue;
      for (const gloss of englishGlosses(word)) {
        const found = termsOf(index, gloss);
        for (const p of pairs) add(p, 'gloss', found, 1 / pairs.length);
      }
    }
  }
  return out;
}

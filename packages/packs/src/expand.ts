import { normalizeText } from '@maestro/core';
import {
  chineseWords,
  deinflect,
  englishGlosses,
  inflections,
  relatedWords,
  segmentChinese,
  singular,
} from '@maestro/lexicon';
import { ALT, isStopWord, stem, terms } from './tokens.js';

/**
 * The same meaning in other words, for activation and selection: WordNet 3.1 inflections,
 * derivations and synonyms, compounds of adjacent words, and CC-CEDICT glosses between Chinese and
 * English (`@maestro/lexicon`). A target that has a query term itself is matched on it as before;
 * one that lacks it gets the weight of its best alternative instead of nothing.
 */
export const EXPANSION_WEIGHTS = {
  /** log → logging, logged (the light stemmer leaves `logg`, not `log`). */
  inflection: 0.8,
  /** Two adjacent query words written as one (time zone → timezone), for each of the two. */
  compound: 0.8,
  /** WordNet derivations that keep the stem (log → logger). */
  derived: 0.6,
  /** CC-CEDICT, Chinese ↔ English (日志 ↔ log). */
  gloss: 0.6,
  /** The other words of the most frequent WordNet sense (forbid → prohibit). */
  synonym: 0.4,
} as const;

const LATIN_WORD = /^[a-z]{3,}$/;
/** Words the literal match already connects (one a prefix of the other, both 4+ characters). */
const samePrefix = (a: string, b: string) =>
  a === b || (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a)));
const CJK_RUN = /[\p{Script=Han}]{2,}/gu;

/**
 * The character pairs of a Chinese run that belong to its content words: its CC-CEDICT words
 * (fewest pieces) minus function words (those whose first gloss is an English stop word: 怎么
 * how, 应该 ought, 我们 we), so pairs that straddle two words (志应 in 日志应该) or sit inside a
 * function word do not dilute the query. A run the dictionary does not cut keeps every pair.
 */
function noisePairs(run: string): Set<string> {
  const words = segmentChinese(run);
  const noise = new Set<string>();
  if (!words.some((w) => w.length >= 2)) return noise;
  const keep = new Set<string>();
  const content = (w: string) => {
    const first = englishGlosses(w)[0];
    return first === undefined || !first.split(' ').every(isStopWord);
  };
  for (const w of words) if (w.length >= 2 && content(w)) for (const p of terms(w)) keep.add(p);
  for (const p of terms(run)) if (!keep.has(p)) noise.add(p);
  return noise;
}

/** The query's terms (`terms`) followed by their alternatives, encoded for `matchScore`. */
export function expandedTerms(query: string): string[] {
  const noise = new Set<string>();
  for (const run of normalizeText(query).match(CJK_RUN) ?? []) for (const p of noisePairs(run)) noise.add(p);
  const all = terms(query);
  const kept = all.filter((t) => !noise.has(t));
  const literal = kept.length > 0 ? kept : all;
  const own = new Set(literal);
  const out = [...literal];
  const seen = new Set<string>();
  const add = (of: string, weight: number, targets: readonly string[]) => {
    if (!own.has(of) || targets.length === 0) return;
    if (targets.length === 1 && (own.has(targets[0]) || samePrefix(of, targets[0]))) return;
    const entry = `${ALT}${of}${ALT}${weight}${ALT}${targets.join(' ')}`;
    if (!seen.has(entry)) {
      seen.add(entry);
      out.push(entry);
    }
  };
  const text = normalizeText(query);
  const words = (text.match(/[a-z]+/g) ?? []).filter((w) => own.has(stem(w)));
  for (const w of new Set(words)) {
    const of = stem(w);
    const lemma = singular(w);
    const bases = [...new Set([lemma, ...deinflect(lemma)])];
    for (const b of bases) {
      add(of, EXPANSION_WEIGHTS.inflection, [stem(b)]);
      for (const f of inflections(b)) add(of, EXPANSION_WEIGHTS.inflection, [stem(f)]);
      for (const d of relatedWords(b).derived) add(of, EXPANSION_WEIGHTS.derived, [stem(d)]);
      for (const zh of chineseWords(b)) add(of, EXPANSION_WEIGHTS.gloss, terms(zh));
    }
    for (const s of relatedWords(lemma).synonyms) if (LATIN_WORD.test(s)) add(of, EXPANSION_WEIGHTS.synonym, [stem(s)]);
  }
  for (let i = 0; i + 1 < words.length; i++) {
    const compound = stem(words[i] + words[i + 1]);
    add(stem(words[i]), EXPANSION_WEIGHTS.compound, [compound]);
    add(stem(words[i + 1]), EXPANSION_WEIGHTS.compound, [compound]);
    for (const zh of chineseWords(`${words[i]} ${words[i + 1]}`)) {
      add(stem(words[i]), EXPANSION_WEIGHTS.gloss, terms(zh));
      add(stem(words[i + 1]), EXPANSION_WEIGHTS.gloss, terms(zh));
    }
  }
  for (const run of text.match(CJK_RUN) ?? []) {
    for (const word of segmentChinese(run)) {
      if (word.length < 2) continue;
      const pairs = terms(word);
      for (const gloss of englishGlosses(word)) {
        const english = terms(gloss);
        if (english.length === 0) continue;
        for (const p of pairs) add(p, EXPANSION_WEIGHTS.gloss, english);
        // A gloss the target has only inflected or derived (log → logging): one step further.
        if (english.length === 1 && LATIN_WORD.test(gloss)) {
          for (const f of [...inflections(gloss), ...relatedWords(gloss).derived])
            for (const p of pairs) add(p, EXPANSION_WEIGHTS.gloss * EXPANSION_WEIGHTS.inflection, [stem(f)]);
        }
      }
    }
  }
  return out;
}

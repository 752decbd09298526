import { readFileSync } from 'node:fs';
import { MaestroError } from '@maestro/core';

/**
 * The compiled lookup (`data/lexicon.json`, built from WordNet 3.1 and CC-CEDICT by
 * `scripts/build-lexicon.mjs`). Every key is a stem of `stem()`, so callers stem first.
 */
export interface Lexicon {
  /** The resources and versions the lookup was compiled from. */
  readonly sources: Readonly<Record<string, string>>;
  /** A common English word (a WordNet sense with a tagged frequency): not a name. */
  isWord(stem: string): boolean;
  /** The representative word of the stem's most frequent sense (utilize → use), or the stem itself. */
  concept(stem: string): string;
  /** Antonyms of that sense (permit ↔ forbid), as concepts. */
  antonyms(stem: string): readonly string[];
  /** English concepts of a simplified Chinese word's glosses (禁止 → forbid, ban); empty when unknown. */
  glosses(word: string): readonly string[];
  /** Longest Chinese word the lookup knows, in characters. */
  readonly hanMax: number;
}

interface Compiled {
  schema: string;
  sources: Record<string, string>;
  known: string;
  synonyms: Record<string, string>;
  antonyms: Record<string, string[]>;
  zh: Record<string, string>;
  hanMax: number;
}

const DATA = new URL('../data/lexicon.json', import.meta.url);
let cached: Lexicon | null = null;

/** The lookup, read once per process on first use (never at import: `maestro --help` stays fast). */
export function lexicon(): Lexicon {
  cached ??= load();
  return cached;
}

function load(): Lexicon {
  let raw: Compiled;
  try {
    raw = JSON.parse(readFileSync(DATA, 'utf8')) as Compiled;
  } catch (cause) {
    throw new MaestroError('LEXICON_MISSING', `cannot read the compiled lexicon ${DATA.pathname}`, {
      hint: 'run `pnpm build` (it compiles WordNet and CC-CEDICT into packages/lexicon/data/lexicon.json)',
      cause,
    });
  }
  if (raw.schema !== 'maestro-lexicon/1') {
    throw new MaestroError('LEXICON_MISSING', `${DATA.pathname} has schema ${raw.schema}, expected maestro-lexicon/1`, {
      hint: 'run `pnpm build` to compile it again',
    });
  }
  const known = new Set(raw.known.split(' '));
  // Plain objects from JSON.parse, looked up as they are: building maps of ~70k words costs more
  // than every lookup of a command together.
  const glossMemo = new Map<string, readonly string[]>();
  const none: readonly string[] = [];
  const has = (o: object, k: string) => Object.hasOwn(o, k);
  const glosses = (w: string) => {
    let g = glossMemo.get(w);
    if (!g) {
      g = has(raw.zh, w) ? raw.zh[w].split('|') : none;
      glossMemo.set(w, g);
    }
    return g;
  };
  return {
    sources: raw.sources,
    isWord: (s) => known.has(s),
    concept: (s) => (has(raw.synonyms, s) ? raw.synonyms[s] : s),
    antonyms: (s) => (has(raw.antonyms, s) ? raw.antonyms[s] : none),
    glosses,
    hanMax: raw.hanMax,
  };
}

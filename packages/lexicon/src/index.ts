export type { Lexicon } from './lexicon.js';
export { lexicon } from './lexicon.js';
export { segmentChinese, segmenterLoaded } from './segment-han.js';
export { stem } from './stem.js';
export type { Related } from './words.js';
export {
  chineseWords,
  deinflect,
  englishGlosses,
  inflections,
  isEnglishWord,
  pluralLemma,
  relatedWords,
  singular,
} from './words.js';

export type { Lexicon } from './lexicon.js';
export { lexicon } from './lexicon.js';
export { segmentBy, segmentHan } from './segment-han.js';
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
  segmentChinese,
  singular,
} from './words.js';

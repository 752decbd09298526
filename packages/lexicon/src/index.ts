export type { Lexicon } from './lexicon.js';
export { lexicon } from './lexicon.js';
export { segmentHan } from './segment-han.js';
export { stem } from './stem.js';

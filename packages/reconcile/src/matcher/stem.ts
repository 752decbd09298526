export { stem } from '@maestro/lexicon';

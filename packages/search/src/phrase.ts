import { topicKeywords } from './bookkeeping.js';
import { SELECTION } from './config.js';
import { CandidateHeap } from './heap.js';
import type { SearchIndex } from './model.js';
import type { ParsedQuery } from './query.js';
import { type Candidate, candidateAt, type Passed, type Scored } from './score.js';
import { containsSequence, sequenceTokens } from './tokenize.js';

interface PhraseCheck {
  tokens: readonly string[];
  /**
   * A necessary condition, tested first because it is native and cheap: the tokens in order,
   * case-insensitively, separated only by non-letters. Only texts it accepts are tokenised.
   */
  loose: RegExp;
}

function phraseCheck(tokens: readonly string[]): PhraseCheck {
  const esc = tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return { tokens, loose: new RegExp(esc.join('[^\\p{L}\\p{N}]*'), 'iu') };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Could `text` contain the phrase? ASCII text is already NFKC; other text is also tried normalised. */
function mayHavePhrase(text: string, ph: PhraseCheck): boolean {
  return ph.loose.test(text) || (NON_ASCII.test(text) && ph.loose.test(text.normalize('NFKC')));
}

function fieldHasPhrase(text: string, ph: PhraseCheck): boolean {
  return !!text && mayHavePhrase(text, ph) && containsSequence(sequenceTokens(text), ph.tokens);
}

function phraseMatches(index: SearchIndex, d: number, ph: PhraseCheck): boolean {
  const doc = index.doc(d);
  const labels = [doc.title, doc.description ?? '', doc.category ?? '', ...topicKeywords(doc.keywords)];
  // One loose test over the short fields together; the exact test then runs per field.
  if (mayHavePhrase(labels.join('\n'), ph) && labels.some((f) => fieldHasPhrase(f, ph))) return true;
  return fieldHasPhrase(index.body(d), ph);
}

/**
 * Keeps the candidates that contain every quoted phrase, checking them best-first. The page is
 * exact: the first `pool` matches in score order are the same as if every candidate had been
 * checked. Checking stops once the pool is full and `SELECTION.phraseCheckBudget` more candidates
 * have been looked at; `total` is then a lower bound (`totalExact: false`). Phrases over very
 * common words would otherwise cost a text scan of most of the corpus on every query.
 */
export function verifyPhrases(index: SearchIndex, q: ParsedQuery, passed: Passed, pool: number): Scored {
  const checks = q.phrases.map((ph) => phraseCheck(ph.tokens));
  const queue = new CandidateHeap(passed.docs, passed.scores, passed.count, true);
  for (let i = 0; i < passed.count; i++) queue.push(i);
  const matched: Candidate[] = [];
  let checked = 0;
  let poolFullAt = -1;
  while (queue.size > 0) {
    if (poolFullAt >= 0 && checked - poolFullAt >= SELECTION.phraseCheckBudget) {
      return {
        candidates: matched.slice(0, pool),
        total: matched.length,
        totalExact: false,
        alternatives: passed.alternatives,
      };
    }
    const i = queue.pop();
    checked++;
    if (!checks.every((ph) => phraseMatches(index, passed.docs[i], ph))) continue;
    matched.push(candidateAt(passed, i));
    if (matched.length === pool) poolFullAt = checked;
  }
  return {
    candidates: matched.slice(0, pool),
    total: matched.length,
    totalExact: true,
    alternatives: passed.alternatives,
  };
}

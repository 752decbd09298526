import { EXPANSION } from './config.js';
import type { SearchIndex } from './model.js';
import type { ParsedQuery } from './query.js';
import type { Passed } from './score.js';

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A folded word as the start of its surface forms: query → quer(y|ies), box → box(es). */
const surface = (w: string) => escapeRe(w.endsWith('y') ? w.slice(0, -1) : w);

/**
 * Adjacency: among the candidate pool (the best matches, before paging), an entry whose title,
 * description or body has two consecutive query words next to each other ("time zone",
 * "time-zone", "timezone") scores × (1 + `EXPANSION.adjacency`). A query of one word, or words
 * that never meet, changes nothing.
 */
export function adjacencyBonus(index: SearchIndex, q: ParsedQuery, passed: Passed, pool: readonly number[]): void {
  const pairs: { re: RegExp; bits: number }[] = [];
  const seen = new Set<string>();
  const bitOf = (t: string) => {
    const i = q.terms.indexOf(t);
    return i >= 0 && i < 31 ? 1 << i : 0;
  };
  for (let w = 0; w + 1 < q.words.length; w++) {
    const [a, b] = [q.words[w], q.words[w + 1]];
    if (a === b || seen.has(`${a} ${b}`)) continue;
    seen.add(`${a} ${b}`);
    // Query words are ASCII letters: a plain (non-Unicode) pattern with \b, which V8 runs fast.
    const re = new RegExp(`\\b${surface(a)}[a-z]{0,4}[^a-z0-9]{0,3}${surface(b)}`, 'i');
    pairs.push({ re, bits: bitOf(a) | bitOf(b) });
  }
  if (pairs.length === 0 || passed.count === 0) return;
  for (const i of pool) {
    const d = passed.docs[i];
    // Only an entry that has both words (or their compound, through an alternative) can have them side by side.
    const has = passed.mask[d] | passed.altMask[d];
    const near = pairs.filter((p) => (has & p.bits) === p.bits);
    if (near.length === 0) continue;
    const doc = index.doc(d);
    const fields = [doc.title, doc.description ?? '', index.body(d)];
    if (near.some((p) => fields.some((f) => p.re.test(f)))) passed.scores[i] *= 1 + EXPANSION.adjacency;
  }
}

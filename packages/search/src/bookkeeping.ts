/**
 * Keywords that promotion used to write on every promoted entry (`session-knowledge` plus the
 * candidate's kind): provenance, not topic. Existing entries keep them as written, but ranking
 * ignores them, so a prompt that mentions "session" or "knowledge" does not pull in every
 * promoted rule. The kind is ignored only next to `session-knowledge` (elsewhere `decision` may be
 * a real keyword). Facet filters (`--tag`) still see every keyword: asking for one is explicit.
 */
export const BOOKKEEPING_KEYWORD = 'session-knowledge';
const KINDS = new Set(['decision', 'constraint', 'manual']);

/** The keywords that describe the entry's topic (what ranking, phrases and diversity read). */
export function topicKeywords(keywords: readonly string[]): readonly string[] {
  const marked = keywords.some((k) => k.trim().toLowerCase() === BOOKKEEPING_KEYWORD);
  if (!marked) return keywords;
  return keywords.filter((k) => {
    const n = k.trim().toLowerCase();
    return n !== BOOKKEEPING_KEYWORD && !KINDS.has(n);
  });
}

/**
 * A small deterministic generator for randomised tests (the C library's linear congruential
 * recurrence, kept to 31 bits): each call returns the next non-negative integer, so a failing
 * case can be replayed from its seed.
 */
export function seededInts(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s;
  };
}

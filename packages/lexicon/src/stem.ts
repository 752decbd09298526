/**
 * A small, conservative English stemmer: enough to fold plurals, -ing/-ed forms and common
 * derivations (validate/validation, normalize/normalization) onto one key. It is applied to the
 * lexicon and to texts alike, so it only has to be consistent, not linguistically right.
 */
const IRREGULAR: Record<string, string> = {
  written: 'write',
  wrote: 'write',
  writing: 'write',
  ran: 'run',
  running: 'run',
  kept: 'keep',
  built: 'build',
  made: 'make',
  children: 'child',
  indices: 'index',
  indexes: 'index',
  data: 'data',
  sent: 'send',
  stored: 'store',
  storing: 'store',
  chosen: 'choose',
  chose: 'choose',
  taken: 'take',
  took: 'take',
  gave: 'give',
  given: 'give',
  does: 'do',
  done: 'do',
  did: 'do',
  caches: 'cache',
  cached: 'cache',
  caching: 'cache',
  logging: 'log',
  logged: 'log',
  logs: 'log',
  uses: 'use',
  used: 'use',
  using: 'use',
  timing: 'time',
  timed: 'time',
  times: 'time',
  string: 'string',
  strings: 'string',
  status: 'status',
  always: 'always',
  // The environment, not a form of "stage": "staged knowledge" is not about staging.
  staging: 'staging',
  never: 'never',
};

const VOWELS = /[aeiouy]/;

function undouble(s: string): string {
  const n = s.length;
  if (n >= 3 && s[n - 1] === s[n - 2] && !/[aeiouylsz]/.test(s[n - 1])) return s.slice(0, -1);
  return s;
}

const memo = new Map<string, string>();

/** Memoised: corpora repeat a small vocabulary. */
export function stem(word: string): string {
  let out = memo.get(word);
  if (out === undefined) {
    out = stemWord(word);
    if (memo.size > 200_000) memo.clear();
    memo.set(word, out);
  }
  return out;
}

function stemWord(word: string): string {
  const w = word;
  // Own keys only: `constructor` or `toString` must not find Object.prototype's members.
  const irregular = Object.hasOwn(IRREGULAR, w) ? IRREGULAR[w] : undefined;
  if (irregular !== undefined) return irregular === w ? w : stemWord(irregular);
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  let s = w;
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (/(x|ch|sh|zz)es$/.test(s)) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(ss|us|is)$/.test(s)) s = s.slice(0, -1);
  if (s.endsWith('ing') && s.length > 5 && VOWELS.test(s.slice(0, -3))) s = undouble(s.slice(0, -3));
  else if (s.endsWith('ed') && s.length > 4 && VOWELS.test(s.slice(0, -2))) s = undouble(s.slice(0, -2));
  if (s.endsWith('ly') && s.length > 5) s = s.slice(0, -2);
  if (s.endsWith('ization') || s.endsWith('isation')) s = `${s.slice(0, -5)}e`;
  else if (s.endsWith('ation') && s.length > 7) s = s.slice(0, -3);
  if ((s.endsWith('ize') || s.endsWith('ise')) && s.length > 5) s = s.slice(0, -3);
  if (s.endsWith('e') && s.length > 3) s = s.slice(0, -1);
  return s;
}

/**
 * How much of one entry's text is indexed. Search, `maestro context` and the matcher read an
 * entry's full text but index (and score) only its first INDEXED_TEXT_MAX characters, so one
 * huge document (a 54 MB dump pasted into a knowhow file) costs what a large one costs, never
 * the whole project's memory and time. `spec health` lists the entries that are capped.
 */
export const INDEXED_TEXT_MAX = 262_144;

/** A word run longer than this is no searchable term (a hex dump, a base64 blob) and is skipped. */
export const TERM_MAX = 256;

/**
 * The indexed part of `text`: the whole text when it fits, else its first `max` characters cut at
 * the last whitespace of the final stretch (so no word is halved) and never inside a surrogate pair.
 */
export function indexedText(text: string, max = INDEXED_TEXT_MAX): string {
  if (text.length <= max) return text;
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  const floor = Math.max(0, end - TERM_MAX);
  for (let i = end; i > floor; i--) {
    if (/\s/.test(text[i - 1])) return text.slice(0, i);
  }
  return text.slice(0, end);
}

/** True when only part of `text` is indexed. */
export function isCapped(text: string, max = INDEXED_TEXT_MAX): boolean {
  return text.length > max;
}

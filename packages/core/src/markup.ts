/**
 * The one wrapper neutraliser: every wrapper that puts untrusted text inside an element (pack
 * wrappers, the `context` block, catalogs, guides) escapes it here, so that no text can open or
 * close an element for a model — or for a lenient reader that folds Unicode first. Decisions are
 * made on the text as such a reader sees it (NFKC-folded, invisible characters dropped), never on
 * a list of look-alike spellings: `<／knowledge_pack>` and `＜／system＞` fold to real tags, so they
 * are escaped like the ASCII form.
 */

/** Invisible characters that could hide inside a tag (`<\u200b/x>`): format and combining marks. */
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}]/gu;

/** Text as a lenient reader sees it: NFKC-folded, invisible characters removed. */
export function foldForReader(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '');
}

/**
 * The characters whose NFKC form is exactly `<` and `&` (ASCII, fullwidth, small). A test scans
 * every code point, so a Unicode update that adds one fails it instead of opening a gap.
 */
export const LESS_THAN_FORMS: readonly string[] = ['<', '\uFF1C', '\uFE64'];
export const AMPERSAND_FORMS: readonly string[] = ['&', '\uFF06', '\uFE60'];

/** Element names a model could take for a fence or a role, even written `< system` or `< /x`. */
export const FENCE_NAMES =
  'knowledge_pack|knowledge_pack_guide|knowledge_resources|available_knowledge_packs|project_knowledge|recalled-knowledge|recalled-memories';
export const ROLE_NAMES = 'system|assistant|developer|instructions?';
/** Fences, roles, and the catalog's per-pack element. */
const SENSITIVE = `${FENCE_NAMES}|${ROLE_NAMES}|pack|user|tool`;
/** After a `<`: a name, `/`, `!` or `?` at once, or spaces and then `/` or a fence/role name. */
const TAG_START = new RegExp(`^(?:[/!?\\p{L}_]|\\s+(?:/|(?:${SENSITIVE})(?![\\p{L}\\p{N}_])))`, 'iu');
/** After a `&`: a character reference that decodes to `<` (`&lt`, `&#60`, `&#x3c`, with or without `;`). */
const LT_REFERENCE = /^(?:lt|#0*60|#x0*3c)(?![\p{L}\p{N}])/iu;

const LOOKAHEAD = 32;

function foldChar(ch: string): string {
  return ch.charCodeAt(0) < 0x80 ? ch : foldForReader(ch);
}

/**
 * What a reader sees right after index `from`: folded characters, invisible ones dropped, a run
 * of leading whitespace kept as one space, enough to decide (zeros of `&#000060` do not count).
 * Each call reads only the blank run and the few characters after it, and the blank run after one
 * `<` cannot contain the next, so a whole text is scanned in linear time.
 */
function lookahead(text: string, from: number): string {
  let lead = '';
  let out = '';
  let counted = 0;
  for (let i = from; i < text.length && counted < LOOKAHEAD; ) {
    const cp = text.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    const f = foldChar(ch);
    if (out === '' && f.trim() === '') {
      if (f !== '') lead = ' ';
      continue;
    }
    out += f;
    if (f !== '0') counted += f.length;
  }
  return lead + out;
}

function replaceForms(text: string, forms: readonly string[], decide: (after: string) => string | null): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    if (!forms.includes(text[i])) continue;
    const replacement = decide(lookahead(text, i + 1));
    if (replacement === null) continue;
    out += text.slice(last, i) + replacement;
    last = i + 1;
  }
  return last === 0 ? text : out + text.slice(last);
}

const HAS_FORM = /[<\uFF1C\uFE64&\uFF06\uFE60]/;

/**
 * Makes content unable to open or close any element, as the text or as its NFKC fold. Every `<`
 * form that starts something tag-like becomes `&lt;`: followed (as folded) by a name, `/`, `!`
 * or `?` (invisible characters in between do not help), or by spaces and then `/` or a fence or
 * role name (`< /knowledge_pack >`, `＜ ｓｙｓｔｅｍ＞`). An `&` form that starts a reference
 * decoding to `<` becomes `&amp;`, so decoding the output once gives back the content, never a
 * tag. `a < b` and `x<3` stay as written, so code samples survive.
 */
export function neutraliseTags(text: string): string {
  if (!HAS_FORM.test(text)) return text;
  const amp = replaceForms(text, AMPERSAND_FORMS, (after) => (LT_REFERENCE.test(after) ? '&amp;' : null));
  return replaceForms(amp, LESS_THAN_FORMS, (after) => (TAG_START.test(after) ? '&lt;' : null));
}

/**
 * Text-node escaping (catalog fields): `&`, `<`, `>` always, plus a fullwidth or small `<` that
 * starts something tag-like once folded.
 */
export function escapeMarkup(value: string): string {
  const ascii = value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return replaceForms(ascii, LESS_THAN_FORMS, (after) => (TAG_START.test(after) ? '&lt;' : null));
}

/** How many closing tags of `element` a lenient reader finds in `text` (after folding). */
export function countClosingTags(text: string, element: string): number {
  const re = new RegExp(`<\\s*/\\s*${element}\\s*>`, 'giu');
  return foldForReader(text).match(re)?.length ?? 0;
}

/** Text preparation shared by the analyser and the retrieval index. */
import { latinKey, lexicon } from './lexicon.js';

const CODE_SPAN = /`([^`\n]+)`/g;

/**
 * Inline code is an identifier, not prose: cue words inside it (`pragma: no cover`, `--no-verify`,
 * `must_use`) carry no stance, bound or replacement, so they are dropped from the span.
 */
function quietCode(text: string): string {
  return text.replace(CODE_SPAN, (_, body: string) => {
    const words = body.split(/(\s+)/);
    return ` ${words.map((w) => (isCue(w) ? ' ' : w)).join('')} `;
  });
}

function isCue(word: string): boolean {
  const key = latinKey(word);
  if (!key || key.includes(' ')) return false;
  const e = lexicon().latin.get(key);
  return Boolean(e && (e.stance || e.negTail || e.split || e.bound || e.supersede || e.flip));
}

/** Standards written with a space before their number ("ISO 8601", "RFC 7807") as one word. */
const STANDARD = /\b(iso|rfc|pep|cwe|cve|utf|sha|ecma|wcag|ieee)[ -]?(\d+)\b/gi;

/** ASCII is already in NFKC form: such a text skips the normalisation call. */
const ASCII = /^[\x00-\x7f]*$/;
const QUOTE = /["'“”‘’`「」『』]/g;

/**
 * A text as the analysers read it: cue words in inline code dropped, standards joined to their
 * number, NFKC, lower case, contractions spelled out, quote characters turned into spaces.
 */
export function prepare(text: string): string {
  return spelled(text, ASCII.test(text)).replace(QUOTE, ' ');
}

/**
 * `prepare` for tokenising only: an ASCII text keeps its quote characters, which separate tokens
 * exactly as the spaces `prepare` puts in their place do (no token contains one).
 */
export function prepareTokens(text: string): string {
  const ascii = ASCII.test(text);
  const out = spelled(text, ascii);
  return ascii ? out : out.replace(QUOTE, ' ');
}

function spelled(text: string, ascii: boolean): string {
  // The passes below that need a backtick or an apostrophe are skipped for a text without one.
  const joined = (text.includes('`') ? quietCode(text) : text).replace(STANDARD, '$1-$2');
  const lower = (ascii ? joined : joined.normalize('NFKC')).toLowerCase();
  return lower.includes("'") || lower.includes('’')
    ? lower
        .replace(/\bcan['’]t\b/g, 'cannot')
        .replace(/\bwon['’]t\b/g, 'will not')
        .replace(/\bshan['’]t\b/g, 'shall not')
        .replace(/n['’]t\b/g, ' not')
    : lower;
}

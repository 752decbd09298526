/**
 * Scanner for one `<spec-entry ...>` opening tag. It keeps every byte: the tag is split into
 * attribute pieces whose `raw` texts (leading whitespace included) concatenate back to the
 * original, so untouched tags serialise byte for byte and edits replace single pieces.
 *
 * Tolerated because real files contain them: raw `>` inside quoted values, backslash-escaped
 * quotes (`\"`) inside values, single-quoted and unquoted values, newlines inside the tag,
 * attribute names with `_`, `:`, `.` or camelCase.
 */

export interface SpecAttribute {
  /** Attribute name as written; '' for a junk piece kept only for losslessness. */
  name: string;
  /** Decoded value (entities and `\"` resolved); '' for a valueless attribute. */
  value: string;
  /** The exact source text of this piece, including the whitespace before it. */
  raw: string;
}

export interface TagProblem {
  offset: number;
  message: string;
  hint: string;
}

export interface ScannedTag {
  /** Offset just after the closing `>`. */
  end: number;
  attributes: SpecAttribute[];
  /** Whitespace (and a `/` of `/>`) before the closing `>`, plus the `>`. */
  tail: string;
  problems: TagProblem[];
}

const NAME_CHAR = /[A-Za-z0-9_:.-]/;
const OPEN = '<spec-entry';
const BLANK_LINE = /\n[ \t]*\r?\n/;

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
}

/** End of a quoted value starting after the quote at `from`, or -1. */
function findQuoteEnd(text: string, from: number, quote: string, backslash: boolean): number {
  let i = from;
  for (;;) {
    const q = text.indexOf(quote, i);
    if (q === -1) return -1;
    // A value never spans a blank line: an unterminated quote must not swallow later entries.
    if (BLANK_LINE.test(text.slice(i, q))) return -1;
    if (backslash && text[q - 1] === '\\') {
      let n = 0;
      for (let k = q - 1; k >= from && text[k] === '\\'; k--) n++;
      if (n % 2 === 1) {
        i = q + 1;
        continue;
      }
    }
    return q;
  }
}

/**
 * Scans the tag starting at `start` (which points at `<spec-entry`). Returns null when it is not
 * a well-formed opening tag: no `>` before a blank line, another `<`, or the end of the text.
 */
export function scanOpenTag(text: string, start: number, decode: (v: string) => string): ScannedTag | null {
  return scanWith(text, start, decode, true) ?? scanWith(text, start, decode, false);
}

function scanWith(text: string, start: number, decode: (v: string) => string, backslash: boolean): ScannedTag | null {
  const attributes: SpecAttribute[] = [];
  const problems: TagProblem[] = [];
  let i = start + OPEN.length;
  for (;;) {
    const pieceStart = i;
    while (i < text.length && isSpace(text[i])) {
      if (text[i] === '\n' && BLANK_LINE.test(text.slice(i, i + 3))) return null;
      i++;
    }
    if (i >= text.length) return null;
    const c = text[i];
    if (c === '>' || (c === '/' && text[i + 1] === '>')) {
      const end = c === '>' ? i + 1 : i + 2;
      return { end, attributes, tail: text.slice(pieceStart, end), problems };
    }
    if (c === '<') return null;
    if (!NAME_CHAR.test(c)) {
      problems.push({ offset: i, message: `unexpected character "${c}" in <spec-entry> tag`, hint: 'remove it' });
      attributes.push({ name: '', value: '', raw: text.slice(pieceStart, i + 1) });
      i++;
      continue;
    }
    const nameStart = i;
    while (i < text.length && NAME_CHAR.test(text[i])) i++;
    const name = text.slice(nameStart, i);
    let j = i;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    if (text[j] !== '=') {
      attributes.push({ name, value: '', raw: text.slice(pieceStart, i) });
      continue;
    }
    j++;
    while (j < text.length && (text[j] === ' ' || text[j] === '\t')) j++;
    const q = text[j];
    if (q === '"' || q === "'") {
      const close = findQuoteEnd(text, j + 1, q, backslash);
      if (close === -1) return null;
      let value = text.slice(j + 1, close);
      if (backslash && value.includes('\\')) value = value.replace(q === '"' ? /\\"/g : /\\'/g, q);
      attributes.push({ name, value: decode(value), raw: text.slice(pieceStart, close + 1) });
      i = close + 1;
      continue;
    }
    let k = j;
    while (k < text.length && !isSpace(text[k]) && text[k] !== '>') k++;
    if (k === j) {
      problems.push({ offset: j, message: `attribute "${name}" has no value`, hint: `write ${name}="..."` });
    } else {
      problems.push({ offset: j, message: `attribute "${name}" value is not quoted`, hint: `write ${name}="..."` });
    }
    attributes.push({ name, value: decode(text.slice(j, k)), raw: text.slice(pieceStart, k) });
    i = k;
  }
}

/** Rebuilds the source text of a tag from its pieces. */
export function renderTagPieces(attributes: readonly SpecAttribute[], tail: string): string {
  let out = OPEN;
  for (const a of attributes) out += a.raw;
  return out + tail;
}

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

const OPEN = '<spec-entry';
const BLANK_LINE = /\n[ \t]*\r?\n/;

/** Attribute name characters `[A-Za-z0-9_:.-]`, by char code (the scanner reads codes, not strings). */
const NAME_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:.-') NAME_CHAR[c.charCodeAt(0)] = 1;

function isNameChar(code: number): boolean {
  return code < 128 && NAME_CHAR[code] === 1;
}

/** ' ', \t, \n, \r, \f. */
function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 12;
}

/** True when the '\n' at `i` starts a blank line (`\n[ \t]*\r?\n` within the next three characters). */
function blankLineAt(text: string, i: number): boolean {
  const c1 = text.charCodeAt(i + 1);
  return c1 === 10 || ((c1 === 32 || c1 === 9 || c1 === 13) && text.charCodeAt(i + 2) === 10);
}

/** End of a quoted value starting after the quote at `from`, or -1. */
function findQuoteEnd(text: string, from: number, quote: string, backslash: boolean): number {
  let i = from;
  for (;;) {
    const q = text.indexOf(quote, i);
    if (q === -1) return -1;
    // A value never spans a blank line: an unterminated quote must not swallow later entries.
    const nl = text.indexOf('\n', i);
    if (nl !== -1 && nl < q && BLANK_LINE.test(text.slice(nl, q))) return -1;
    if (backslash && text.charCodeAt(q - 1) === 92) {
      let n = 0;
      for (let k = q - 1; k >= from && text.charCodeAt(k) === 92; k--) n++;
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
  const length = text.length;
  let i = start + OPEN.length;
  for (;;) {
    const pieceStart = i;
    let c = text.charCodeAt(i);
    while (i < length && isSpace(c)) {
      if (c === 10 && blankLineAt(text, i)) return null;
      c = text.charCodeAt(++i);
    }
    if (i >= length) return null;
    if (c === 62 /* > */ || (c === 47 /* / */ && text.charCodeAt(i + 1) === 62)) {
      const end = c === 62 ? i + 1 : i + 2;
      return { end, attributes, tail: text.slice(pieceStart, end), problems };
    }
    if (c === 60 /* < */) return null;
    if (!isNameChar(c)) {
      problems.push({ offset: i, message: `unexpected character "${text[i]}" in <spec-entry> tag`, hint: 'remove it' });
      attributes.push({ name: '', value: '', raw: text.slice(pieceStart, i + 1) });
      i++;
      continue;
    }
    const nameStart = i;
    while (i < length && isNameChar(text.charCodeAt(i))) i++;
    const name = text.slice(nameStart, i);
    let j = skipBlanks(text, i);
    if (text.charCodeAt(j) !== 61 /* = */) {
      attributes.push({ name, value: '', raw: text.slice(pieceStart, i) });
      continue;
    }
    j = skipBlanks(text, j + 1);
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
    while (k < length && !isSpace(text.charCodeAt(k)) && text.charCodeAt(k) !== 62) k++;
    if (k === j) {
      problems.push({ offset: j, message: `attribute "${name}" has no value`, hint: `write ${name}="..."` });
    } else {
      problems.push({ offset: j, message: `attribute "${name}" value is not quoted`, hint: `write ${name}="..."` });
    }
    attributes.push({ name, value: decode(text.slice(j, k)), raw: text.slice(pieceStart, k) });
    i = k;
  }
}

/** Index of the first character at or after `from` that is not a space or tab. */
function skipBlanks(text: string, from: number): number {
  let j = from;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (c !== 32 && c !== 9) break;
    j++;
  }
  return j;
}

/** Rebuilds the source text of a tag from its pieces. */
export function renderTagPieces(attributes: readonly SpecAttribute[], tail: string): string {
  let out = OPEN;
  for (const a of attributes) out += a.raw;
  return out + tail;
}

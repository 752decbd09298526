/**
 * Entity handling for `<spec-entry>` attribute values and bodies. Reading decodes what the
 * maestro-flow writer (and XML generally) produces; writing escapes `& " < >` and line breaks so
 * a value can never end the tag or the attribute early.
 */

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes `&amp; &lt; &gt; &quot; &apos; &#NN; &#xHH;`; anything else is left as written. */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name] ?? whole;
  });
}

/** Escapes an attribute value: `& " < >` plus CR/LF/TAB, so the opening tag stays on one line. */
export function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '&#13;')
    .replace(/\n/g, '&#10;')
    .replace(/\t/g, '&#9;');
}

/**
 * Escapes entry content so that it cannot open or close an entry: every `<spec-entry` and
 * `</spec-entry` becomes `&lt;spec-entry` / `&lt;/spec-entry` (maestro-flow's promotion rule).
 */
export function escapeSpecContent(content: string): string {
  return content.replace(/<(\/?)spec-entry/gi, '&lt;$1spec-entry');
}

/** Inverse of `escapeSpecContent`, applied when reading an entry's content. */
export function unescapeSpecContent(content: string): string {
  return content.replace(/&lt;(\/?)spec-entry/gi, '<$1spec-entry');
}

/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * `Html`. Knowledge text is data: nothing a user, an agent or a corpus file wrote reaches the page
 * unescaped, so `<script>` or `</textarea>` in an entry renders as text.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

function part(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(part).join('');
  return escapeHtml(String(value));
}

export function h(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += part(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A query-string-safe path segment. */
export const seg = (s: string) => encodeURIComponent(s);

/**
 * ` lang="zh"` for text with Han characters: the page is English, and without it a browser may
 * draw Chinese with a Japanese font's glyph variants. Empty for other text.
 */
export function langOf(text: string): Html {
  return new Html(/\p{Script=Han}/u.test(text) ? ' lang="zh"' : '');
}

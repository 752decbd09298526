/**
 * Pure text transforms for knowhow documents: render a new document in maestro-flow's field
 * order, and set or remove top-level frontmatter fields while keeping every other byte.
 */

/** A frontmatter value: a string, a list of strings, or null to remove the key. */
export type KnowhowFieldValue = string | readonly string[] | null;

const PLAIN = /^[A-Za-z0-9_\u00a0-\uffff][^:#,{}[\]"'\n\r\t]*$/;

/** A YAML scalar: plain when safe, else JSON-quoted (maestro-flow's rule, plus leading/trailing space). */
export function yamlScalar(value: string): string {
  return PLAIN.test(value) && value.trim() === value ? value : JSON.stringify(value);
}

/** `key: value` lines for one field. Lists render as a block list, or `[]` when empty. */
export function renderField(key: string, value: string | readonly string[], eol = '\n', inline = false): string {
  if (typeof value === 'string') return `${key}: ${yamlScalar(value)}`;
  if (value.length === 0) return `${key}: []`;
  if (inline) return `${key}: [${value.map((v) => JSON.stringify(v)).join(', ')}]`;
  return [`${key}:`, ...value.map((v) => `  - ${yamlScalar(v)}`)].join(eol);
}

export interface KnowhowFileInput {
  title: string;
  type: string;
  body: string;
  /** ISO timestamp. */
  created: string;
  description?: string | null;
  category?: string | null;
  explicitId?: string | null;
  keywords?: readonly string[];
  tags?: readonly string[];
  /** Further fields, written after the standard ones in the given order. */
  extra?: Readonly<Record<string, string | readonly string[]>>;
}

/**
 * A new knowhow document: frontmatter in maestro-flow's order (title, description, type,
 * category, explicitId, created, keywords, tags, extra fields), `---`, a blank line, then the
 * body with LF line endings and exactly one trailing newline.
 */
export function renderKnowhowFile(input: KnowhowFileInput): string {
  const lines = ['---', renderField('title', input.title)];
  if (input.description) lines.push(renderField('description', input.description));
  lines.push(renderField('type', input.type));
  if (input.category) lines.push(renderField('category', input.category));
  if (input.explicitId) lines.push(renderField('explicitId', input.explicitId));
  lines.push(renderField('created', input.created));
  lines.push(renderField('keywords', input.keywords ?? []));
  lines.push(renderField('tags', input.tags ?? []));
  for (const [k, v] of Object.entries(input.extra ?? {})) lines.push(renderField(k, v));
  lines.push('---', '');
  const body = input.body.replace(/\r\n?/g, '\n').replace(/\s+$/, '');
  return `${lines.join('\n')}\n${body}\n`;
}

interface KeySpan {
  key: string;
  start: number;
  end: number;
}

const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?=[ \t]|\r?$)/;

/** Top-level key spans of a YAML block: a key line plus its indented / `- ` continuation lines. */
function keySpans(yaml: string, base: number): KeySpan[] {
  const spans: KeySpan[] = [];
  let pos = 0;
  let current: KeySpan | null = null;
  let lastContentEnd = 0;
  while (pos < yaml.length) {
    const nl = yaml.indexOf('\n', pos);
    const end = nl === -1 ? yaml.length : nl + 1;
    const line = yaml.slice(pos, end);
    const m = KEY_LINE.exec(line);
    if (m) {
      if (current) current.end = base + lastContentEnd;
      current = { key: m[1], start: base + pos, end: base + end };
      spans.push(current);
      lastContentEnd = end;
    } else if (current && /^([ \t]+\S|-)/.test(line)) {
      lastContentEnd = end;
    } else if (current && line.trim() !== '' && !line.trimStart().startsWith('#')) {
      lastContentEnd = end;
    }
    pos = end;
  }
  if (current) current.end = base + lastContentEnd;
  return spans;
}

/**
 * Sets (or, with null, removes) top-level frontmatter fields. Existing keys are rewritten in
 * place, new keys are appended before the closing `---`, and a document without frontmatter
 * gets one. Every other byte, including the body and unknown keys, is kept.
 * Lists are written inline as JSON arrays when `inlineLists` is set (maestro-flow's lifecycle
 * fields `supersedes`), else as block lists.
 */
export function setKnowhowFields(
  text: string,
  changes: Readonly<Record<string, KnowhowFieldValue>>,
  options: { inlineLists?: boolean } = {},
): string {
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const eol = /\r\n/.test(text.slice(0, 2000)) ? '\r\n' : '\n';
  const fm = locateFrontmatter(text, bom);
  if (!fm) {
    const fields = Object.entries(changes).filter((e): e is [string, string | readonly string[]] => e[1] !== null);
    if (fields.length === 0) return text;
    const block = ['---', ...fields.map(([k, v]) => renderField(k, v, eol, options.inlineLists)), '---', ''].join(eol);
    return text.slice(0, bom) + block + text.slice(bom);
  }
  const spans = keySpans(text.slice(fm.yamlStart, fm.yamlEnd), fm.yamlStart);
  const edits: { start: number; end: number; text: string }[] = [];
  let appended = '';
  for (const [key, value] of Object.entries(changes)) {
    const span = spans.find((s) => s.key === key);
    const rendered = value === null ? '' : `${renderField(key, value, eol, options.inlineLists)}${eol}`;
    if (span) edits.push({ start: span.start, end: span.end, text: rendered });
    else if (value !== null) appended += rendered;
  }
  if (appended) {
    const needsBreak = fm.yamlEnd > fm.yamlStart && !/\n$/.test(text.slice(fm.yamlStart, fm.yamlEnd));
    edits.push({ start: fm.yamlEnd, end: fm.yamlEnd, text: (needsBreak ? eol : '') + appended });
  }
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function locateFrontmatter(text: string, from: number): { yamlStart: number; yamlEnd: number } | null {
  if (!text.startsWith('---', from)) return null;
  const nl = text.startsWith('\r\n', from + 3) ? 2 : text[from + 3] === '\n' ? 1 : 0;
  if (!nl) return null;
  const yamlStart = from + 3 + nl;
  const re = /^---[ \t]*\r?$/gm;
  re.lastIndex = yamlStart;
  const m = re.exec(text);
  return m ? { yamlStart, yamlEnd: m.index } : null;
}

/**
 * A fast reader for the frontmatter that maestro and maestro-flow write: one `key: value` per
 * line, values plain, single- or double-quoted scalars, `[a, "b"]` flow lists on one line, or
 * `- item` block lists. It returns exactly what `yaml` (failsafe schema, `toJS`) returns for such
 * text (every scalar a string, keys in written order) and `undefined` for anything else (comments,
 * blank lines, multi-line scalars, anchors, tags, nested maps, duplicate keys, unusual characters,
 * escapes it does not know, ...), where the caller parses with `yaml`. Parsing each knowhow
 * document with `yaml` was the largest single cost of loading a corpus.
 */

export type SimpleYaml = Record<string, string | string[]>;

/**
 * Characters the fast path leaves to `yaml`: tabs and other controls, C1 controls, line/paragraph
 * separators, surrogates (astral characters), BOM and non-characters, and CR not before LF.
 */
const UNSAFE = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]|\r(?!\n)/;

/** A top-level key this reader accepts: no quotes, no spaces, not numeric-looking. */
const KEY = /^([A-Za-z_][A-Za-z0-9_.-]*):(?: (.*))?$/;
const ITEM = /^( *)-(?: (.*))?$/;

/** Characters that may not start a plain scalar (YAML indicators; `-?:` are left to `yaml` too). */
const INDICATORS = new Set([...'-?:,[]{}#&*!|>\'"%@`']);

export function simpleYamlMapping(yaml: string): SimpleYaml | undefined {
  if (UNSAFE.test(yaml)) return undefined;
  const out: SimpleYaml = {};
  let pendingKey: string | null = null;
  let list: string[] | null = null;
  let listIndent = -1;
  let pos = 0;
  while (pos < yaml.length) {
    const nl = yaml.indexOf('\n', pos);
    const end = nl === -1 ? yaml.length : nl;
    const line = yaml.slice(pos, yaml.charCodeAt(end - 1) === 13 ? end - 1 : end);
    pos = end + 1;
    const first = line.charCodeAt(0);
    if (first === 32 || first === 45 /* - */) {
      // A block list item of the key above (which had no value of its own).
      const m = ITEM.exec(line);
      if (!m || pendingKey === null || (listIndent !== -1 && m[1].length !== listIndent)) return undefined;
      const item = blockScalar(m[2] ?? '');
      if (item === undefined) return undefined;
      listIndent = m[1].length;
      if (list === null) {
        list = [];
        out[pendingKey] = list;
      }
      list.push(item);
      continue;
    }
    if (pendingKey !== null && list === null) out[pendingKey] = '';
    pendingKey = null;
    list = null;
    listIndent = -1;
    const m = KEY.exec(line);
    if (!m) return undefined;
    const key = m[1];
    // Duplicates, names an object already answers (`constructor`, `__proto__`) and keys over
    // YAML's 1024-character limit for implicit keys go to `yaml`.
    if (key in out || key.length > 1024) return undefined;
    const rest = trimSpaces(m[2] ?? '');
    if (rest === '') {
      pendingKey = key;
      continue;
    }
    const value = rest.charCodeAt(0) === 91 /* [ */ ? flowList(rest) : blockScalar(rest);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  if (pendingKey !== null && list === null) out[pendingKey] = '';
  // A document without keys is null to `yaml`; the caller decides what that means.
  return pos === 0 ? undefined : out;
}

function trimSpaces(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) === 32) a++;
  while (b > a && s.charCodeAt(b - 1) === 32) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** A scalar in block context (a mapping value or a `- ` item), given without surrounding spaces. */
function blockScalar(raw: string): string | undefined {
  const v = trimSpaces(raw);
  if (v === '') return '';
  const c = v[0];
  if (c === '"') return v.length >= 2 && v.endsWith('"') ? doubleQuoted(v.slice(1, -1)) : undefined;
  if (c === "'") return v.length >= 2 && v.endsWith("'") ? singleQuoted(v.slice(1, -1)) : undefined;
  if (INDICATORS.has(c) || v.includes(': ') || v.includes(' #') || v.endsWith(':')) return undefined;
  return v;
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** The inside of a one-line double-quoted scalar; JSON's escapes only (no surrogate `\u`). */
function doubleQuoted(inner: string): string | undefined {
  if (!inner.includes('\\')) return inner.includes('"') ? undefined : inner;
  let out = '';
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '"') return undefined;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = inner[++i];
    if (e === 'u') {
      const hex = inner.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      const code = Number.parseInt(hex, 16);
      if (code >= 0xd800 && code <= 0xdfff) return undefined;
      out += String.fromCharCode(code);
      i += 4;
      continue;
    }
    const decoded = e === undefined ? undefined : ESCAPES[e];
    if (decoded === undefined || !Object.hasOwn(ESCAPES, e)) return undefined;
    out += decoded;
  }
  return out;
}

/** The inside of a one-line single-quoted scalar: `''` is a quote, a lone `'` is not simple. */
function singleQuoted(inner: string): string | undefined {
  if (!inner.includes("'")) return inner;
  const parts = inner.split("''");
  return parts.some((p) => p.includes("'")) ? undefined : parts.join("'");
}

/** `[a, "b c", 'd']` on one line: plain items without flow or quote characters, or quoted items. */
function flowList(v: string): string[] | undefined {
  if (!v.endsWith(']')) return undefined;
  const inner = v.slice(1, -1);
  const out: string[] = [];
  if (trimSpaces(inner) === '') return out;
  for (const part of inner.split(',')) {
    const item = trimSpaces(part);
    if (item === '') return undefined;
    const c = item[0];
    let value: string | undefined;
    if (c === '"' || c === "'") {
      if (item.length < 2 || !item.endsWith(c) || item.includes('\\')) return undefined;
      value = c === '"' ? doubleQuoted(item.slice(1, -1)) : singleQuoted(item.slice(1, -1));
    } else {
      value = INDICATORS.has(c) || /[[\]{}:#"']/.test(item) ? undefined : item;
    }
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

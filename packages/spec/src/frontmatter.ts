import { createRequire } from 'node:module';
import type { Issue } from '@maestro/core';
import { simpleYamlMapping } from './yaml-fast.js';

/**
 * `yaml` is loaded on first use: most frontmatter takes the fast path (`simpleYamlMapping`), so a
 * command that only reads the corpus usually never pays for loading the library.
 */
let yamlModule: typeof import('yaml') | null = null;
function yamlLib(): typeof import('yaml') {
  if (yamlModule === null) yamlModule = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/**
 * YAML frontmatter at the very start of a file (after an optional BOM): `---` line, YAML,
 * `---` line. Parsed with the failsafe schema, so every scalar stays a string (`2026-04-18`,
 * `1.10`, `true`); unknown keys and their order are kept because the raw text is kept.
 */
export interface Frontmatter {
  /** Parsed mapping; null when the YAML is invalid or not a mapping. */
  data: Record<string, unknown> | null;
  /** Offset of the first `---`. */
  start: number;
  /** Offset of the first YAML character (the line after the opening `---`). */
  yamlStart: number;
  /** Offset of the closing `---` line. */
  yamlEnd: number;
  /** Offset just after the closing `---` line and its line break. */
  end: number;
}

/** Finds and parses frontmatter. Returns null when the text has none. */
export function readFrontmatter(
  text: string,
  file: string,
  lineOf: (offset: number) => { line: number; column: number },
  issues: Issue[],
): Frontmatter | null {
  const start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', start)) return null;
  const afterDashes = start + 3;
  const nl = text.startsWith('\r\n', afterDashes) ? 2 : text[afterDashes] === '\n' ? 1 : 0;
  if (nl === 0) return null;
  const yamlStart = afterDashes + nl;
  const close = findClosingFence(text, yamlStart);
  if (close === -1) {
    issues.push({
      severity: 'warning',
      code: 'FRONTMATTER_UNCLOSED',
      message: 'frontmatter starts with --- but has no closing --- line; read as body text',
      hint: 'add a line with --- after the frontmatter',
      file,
      ...lineOf(start),
    });
    return null;
  }
  let end = close + 3;
  while (text[end] === ' ' || text[end] === '\t') end++;
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text[end] === '\n') end += 1;
  const data = parseYamlMapping(text.slice(yamlStart, close), file, lineOf(yamlStart).line, issues);
  return { data, start, yamlStart, yamlEnd: close, end };
}

/** Offset of a line that is exactly `---` (trailing spaces allowed) at or after `from`, or -1. */
function findClosingFence(text: string, from: number): number {
  let lineStart = from;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    if (isFence(text, lineStart, lineEnd)) return lineStart;
    if (nl === -1) return -1;
    lineStart = nl + 1;
  }
  return -1;
}

/** `---[ \t]*` then an optional CR, filling the line `[start, end)`. */
function isFence(text: string, start: number, end: number): boolean {
  if (!text.startsWith('---', start)) return false;
  let i = start + 3;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i === end || (i === end - 1 && text.charCodeAt(i) === 13);
}

/** Parses YAML with strings-only scalars; problems become issues located in the file. */
export function parseYamlMapping(
  yaml: string,
  file: string,
  firstLine: number,
  issues: Issue[],
): Record<string, unknown> | null {
  if (yaml.trim() === '') return {};
  const simple = simpleYamlMapping(yaml);
  if (simple !== undefined) return simple;
  const doc = yamlLib().parseDocument(yaml, { schema: 'failsafe', uniqueKeys: false });
  if (doc.errors.length > 0) {
    for (const err of doc.errors.slice(0, 3)) {
      const pos = err.linePos?.[0];
      issues.push({
        severity: 'error',
        code: 'FRONTMATTER_INVALID',
        message: `invalid YAML frontmatter: ${err.message.split('\n')[0]}`,
        hint: 'fix the YAML between the --- lines; the file was read without it',
        file,
        line: firstLine + (pos ? pos.line - 1 : 0),
        column: pos?.col,
      });
    }
    return null;
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (err) {
    // `toJS` throws for what parses but cannot be built (an alias without its anchor): a parse
    // problem like any other, never a crash of the whole corpus load.
    issues.push({
      severity: 'error',
      code: 'FRONTMATTER_INVALID',
      message: `invalid YAML frontmatter: ${(err as Error).message.split('\n')[0]}`,
      hint: 'fix the YAML between the --- lines; the file was read without it',
      file,
      line: firstLine,
    });
    return null;
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    issues.push({
      severity: 'error',
      code: 'FRONTMATTER_NOT_MAPPING',
      message: 'frontmatter is not a key: value mapping',
      hint: 'write the frontmatter as key: value lines',
      file,
      line: firstLine,
    });
    return null;
  }
  return value as Record<string, unknown>;
}

/** A frontmatter value as a string, or null (lists and maps are not strings). */
export function fmString(data: Record<string, unknown> | null, key: string): string | null {
  const v = data?.[key];
  return typeof v === 'string' ? v : null;
}

/** A frontmatter value as a string list: block/flow lists, or a comma-separated string. */
export function fmList(data: Record<string, unknown> | null, key: string): string[] {
  const v = data?.[key];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  if (typeof v === 'string' && v.trim() !== '')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

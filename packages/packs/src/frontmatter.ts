import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { PackIssue } from './model.js';

/** Discovery never reads more than this much of a `KNOWLEDGE.md` (policy: frontmatter region cap). */
export const FRONTMATTER_CAP_BYTES = 64 * 1024;

const KNOWLEDGE_DOC = { name: 'KNOWLEDGE.md', fields: 'name/description/type/status', code: 'PACK' };

export interface FrontmatterSplit {
  /** The YAML text between the fences. */
  yaml: string;
  /** 1-based file line of the first YAML line. */
  startLine: number;
  /** Everything after the closing fence (empty when only the head was read). */
  body: string;
  /** 1-based file line where the body starts. */
  bodyLine: number;
}

/** Thrown by `readHead` for anything but a regular file (FIFO, socket, device, directory). */
export class NotRegularFileError extends Error {
  readonly code = 'PACK_NOT_REGULAR_FILE';
}

/**
 * Reads at most `cap` bytes from the start of a file: the frontmatter region of a
 * `KNOWLEDGE.md`, or the prefix of an oversized file. Returns the text and the file size.
 * Opens non-blocking and checks the opened descriptor, so a FIFO or device planted in a pack
 * (or swapped in after a stat) is refused instead of hanging the process or reading forever.
 */
export function readHead(path: string, cap: number): { text: string; size: number; truncated: boolean } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new NotRegularFileError(`${path} is not a regular file; not read`);
    const size = stat.size;
    const want = Math.min(size, cap);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    // A cut in the middle of a UTF-8 sequence decodes as U+FFFD at the very end only.
    return { text: buf.subarray(0, got).toString('utf8'), size, truncated: size > got };
  } finally {
    closeSync(fd);
  }
}

/** `readHead`, or null for a file that is missing, unreadable or not a regular file. */
export function tryReadHead(path: string, cap: number): { text: string; size: number; truncated: boolean } | null {
  try {
    return readHead(path, cap);
  } catch {
    return null;
  }
}

/**
 * Splits `---` fenced frontmatter from the body. BOM and CRLF are accepted. `doc` names the file
 * kind in messages (`KNOWLEDGE.md`, or `SKILL.md` for the skills package) and prefixes the codes.
 */
export function splitFrontmatter(
  text: string,
  file: string,
  truncated = false,
  doc: { name: string; fields: string; code: string } = KNOWLEDGE_DOC,
): FrontmatterSplit | PackIssue {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = src.split(/\r\n|\r|\n/);
  if ((lines[0] ?? '').trimEnd() !== '---') {
    return issue(file, 1, `${doc.code}_NO_FRONTMATTER`, `${doc.name} must start with YAML frontmatter (---)`, {
      hint: `put a line \`---\` first, then ${doc.fields}, then a closing \`---\``,
    });
  }
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trimEnd() === '---') {
      return {
        yaml: lines.slice(1, i).join('\n'),
        startLine: 2,
        body: lines.slice(i + 1).join('\n'),
        bodyLine: i + 2,
      };
    }
  }
  return truncated
    ? issue(
        file,
        1,
        `${doc.code}_FRONTMATTER_TOO_LARGE`,
        `frontmatter is not closed within the first ${FRONTMATTER_CAP_BYTES / 1024} KB`,
        {
          hint: 'keep the frontmatter short; long material belongs in the body or in documents/',
        },
      )
    : issue(file, 1, `${doc.code}_FRONTMATTER_UNCLOSED`, `${doc.name} frontmatter not properly closed with ---`, {
        hint: 'add a line `---` after the last frontmatter field',
      });
}

/**
 * Parses frontmatter YAML with the failsafe schema, so `updated: 2026-04-18` and `version: 1.10`
 * stay the strings the author wrote. Two common authoring slips are recovered with a warning
 * rather than dropped: an unquoted `: ` inside a value, and tabs used as indentation.
 */
export function parseFrontmatterYaml(
  yaml: string,
  startLine: number,
  file: string,
): { data: Record<string, unknown> | null; issues: PackIssue[] } {
  const issues: PackIssue[] = [];
  let lines = yaml.split('\n');
  for (let attempt = 0; attempt < 20; attempt++) {
    const doc = parseDocument(lines.join('\n'), { schema: 'failsafe', prettyErrors: true, uniqueKeys: true });
    const err = doc.errors[0];
    if (!err) {
      const data = doc.toJS() as unknown;
      if (data === null || data === undefined) return { data: {}, issues };
      if (typeof data !== 'object' || Array.isArray(data)) {
        issues.push(issue(file, startLine, 'PACK_FRONTMATTER_NOT_MAPPING', 'frontmatter must be a YAML mapping'));
        return { data: null, issues };
      }
      return { data: data as Record<string, unknown>, issues };
    }
    const at = err.linePos?.[0]?.line ?? 1;
    const fixed = recover(lines, err.code, at);
    if (!fixed) {
      const message = `Invalid YAML in frontmatter: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`;
      issues.push({
        ...issue(file, startLine + at - 1, 'PACK_INVALID_YAML', message, {
          hint: 'fix the YAML; quote values that contain `: ` or `#`',
        }),
        column: err.linePos?.[0]?.col,
      });
      return { data: null, issues };
    }
    lines = fixed.lines;
    issues.push({
      ...issue(file, startLine + at - 1, fixed.code, fixed.message, { hint: fixed.hint }),
      field: fixed.field,
    });
  }
  issues.push(issue(file, startLine, 'PACK_INVALID_YAML', 'Invalid YAML in frontmatter: too many problems to recover'));
  return { data: null, issues };
}

const KEY_VALUE = /^(\s*)([A-Za-z0-9_.-]+):[ \t]+(.+)$/;

function recover(
  lines: string[],
  code: string,
  at: number,
): { lines: string[]; code: string; message: string; hint: string; field?: string } | null {
  if (code === 'TAB_AS_INDENT') {
    return {
      lines: lines.map((l) => l.replace(/^[\t ]+/, (lead) => lead.replaceAll('\t', '  '))),
      code: 'PACK_YAML_TABS',
      message: 'tabs used as indentation in frontmatter; read them as two spaces each',
      hint: 'indent YAML with spaces',
    };
  }
  if (code !== 'BLOCK_AS_IMPLICIT_KEY' && code !== 'MULTILINE_IMPLICIT_KEY') return null;
  // The error may point at the key line or the value; search back for the offending `key: a: b` line.
  for (let i = Math.min(at, lines.length) - 1; i >= 0 && i >= at - 3; i--) {
    const m = KEY_VALUE.exec(lines[i]);
    if (!m || !/:\s/.test(m[3]) || /^["'[{|>&*!]/.test(m[3])) continue;
    const value = m[3].trimEnd().replaceAll('\\', '\\\\').replaceAll('"', '\\"');
    const next = [...lines];
    next[i] = `${m[1]}${m[2]}: "${value}"`;
    return {
      lines: next,
      code: 'PACK_YAML_UNQUOTED_COLON',
      message: `${m[2]}: unquoted ': ' inside the value; read the whole line as one string`,
      hint: `quote the value: ${m[2]}: "…"`,
      field: m[2],
    };
  }
  return null;
}

function issue(
  file: string,
  line: number,
  code: string,
  message: string,
  extra: { hint?: string; severity?: 'error' | 'warning' } = {},
): PackIssue {
  const isWarning = code === 'PACK_YAML_TABS' || code === 'PACK_YAML_UNQUOTED_COLON';
  return {
    severity: extra.severity ?? (isWarning ? 'warning' : 'error'),
    code,
    message,
    file,
    line,
    ...(extra.hint ? { hint: extra.hint } : {}),
  };
}

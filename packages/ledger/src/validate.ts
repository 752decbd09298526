import { relative } from 'node:path';
import { type Issue, inputError, isMaestroError, MaestroError, parseJsonText } from '@maestro/core';
import type { z } from 'zod';

/** How many problems a damaged-file error spells out; the rest are counted. */
const FIRST_PROBLEMS = 3;

export type FileKind = 'session' | 'run' | 'delta';

const KIND: Record<FileKind, { code: string; what: string }> = {
  session: { code: 'SESSION_INVALID', what: 'session.json' },
  run: { code: 'RUN_INVALID', what: 'run.json' },
  delta: { code: 'LEDGER_INVALID', what: 'knowledge-delta.json' },
};

/** A path as users see it in messages: relative to the project root when inside it. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function pathOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : `${out ? '.' : ''}${String(p)}`;
  return out || '(root)';
}

/** zod problems as Issues on `file`, in document order. */
export function schemaIssues(error: z.ZodError, file: string, code: string): Issue[] {
  return error.issues.map((i) => ({
    file,
    severity: 'error' as const,
    code,
    message: `${pathOf(i.path)}: ${i.message}`,
  }));
}

/**
 * Parses and validates one persisted file. Returns the value or the problems; never throws for
 * damage (the callers decide: named error for commands that need the file, skip for listings).
 */
export function parseRecord<T>(
  text: string,
  file: string,
  schema: z.ZodType<T>,
  kind: FileKind,
  migrate: (raw: unknown) => unknown = (raw) => raw,
): { value: T; issues: [] } | { value: null; issues: Issue[] } {
  let raw: unknown;
  try {
    raw = parseJsonText(text, file);
  } catch (err) {
    if (!isMaestroError(err)) throw err;
    const message = err.message.replace(/^.*?: invalid JSON/, 'invalid JSON');
    const issue: Issue = { file, severity: 'error', code: KIND[kind].code, message };
    if (err.location?.line !== undefined) issue.line = err.location.line;
    if (err.location?.column !== undefined) issue.column = err.location.column;
    return { value: null, issues: [issue] };
  }
  const parsed = schema.safeParse(migrate(raw));
  if (parsed.success) return { value: parsed.data, issues: [] };
  return { value: null, issues: schemaIssues(parsed.error, file, KIND[kind].code) };
}

/** The named error for a damaged file a command needs: file plus its first problems, exit 2. */
export function damagedFileError(kind: FileKind, file: string, issues: Issue[]): MaestroError {
  const shown = issues.slice(0, FIRST_PROBLEMS).map((i) => i.message);
  const more = issues.length > FIRST_PROBLEMS ? `; and ${issues.length - FIRST_PROBLEMS} more` : '';
  const first = issues[0];
  const where =
    first?.line !== undefined ? `${file}:${first.line}${first.column !== undefined ? `:${first.column}` : ''}` : file;
  return inputError(KIND[kind].code, `${where} is not a valid ${KIND[kind].what}: ${shown.join('; ')}${more}`, {
    hint: `fix or restore ${file} (for example from git); maestro never rewrites a damaged file`,
    location: {
      file,
      ...(first?.line !== undefined ? { line: first.line } : {}),
      ...(first?.column !== undefined ? { column: first.column } : {}),
    },
    details: { problems: issues },
  });
}

/** Parses or throws the named error. */
export function parseOrThrow<T>(text: string, file: string, schema: z.ZodType<T>, kind: FileKind): T {
  const r = parseRecord(text, file, schema, kind);
  if (r.value === null) throw damagedFileError(kind, file, r.issues);
  return r.value;
}

/** Issue for a problem found while listing, from an error thrown by a reader. */
export function issueFromError(err: unknown, file: string): Issue {
  if (err instanceof MaestroError) {
    const problems = err.details?.problems as Issue[] | undefined;
    if (problems?.[0]) return { ...problems[0], message: err.message, hint: err.hint };
    return { file, severity: 'error', code: err.code, message: err.message, ...(err.hint ? { hint: err.hint } : {}) };
  }
  throw err;
}

import type { SourceLocation } from './errors.js';

/**
 * An expected validation problem, returned rather than thrown so that every problem in a file
 * is reported at once. `severity: 'error'` means the construct could not be understood;
 * `'warning'` means it was understood but is unusual or lossy to interpret.
 */
export interface Issue extends SourceLocation {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  hint?: string;
}

export interface Parsed<T> {
  value: T;
  issues: Issue[];
}

export function formatIssue(issue: Issue): string {
  let where = issue.file;
  if (issue.line !== undefined) where += `:${issue.line}`;
  if (issue.line !== undefined && issue.column !== undefined) where += `:${issue.column}`;
  const hint = issue.hint ? ` (${issue.hint})` : '';
  return `${where}: ${issue.severity}: ${issue.message}${hint}`;
}

import { type Issue, inputError } from '@maestro/core';

const OPEN = '<'.repeat(7);
const CLOSE = `\n${'>'.repeat(7)}`;

/** A marker of git's default size (7) ends there: a space before its label, or the end of the line. */
function endsMarker(text: string, at: number): boolean {
  const c = text[at];
  return c === undefined || c === ' ' || c === '\n' || c === '\r';
}

/**
 * The 1-based lines where an unresolved git merge conflict starts: a `<<<<<<<` line with a
 * `>>>>>>>` line after it (both at the start of a line). Text that merely contains the characters
 * (mid-line, or an opening marker with no closing one) is not a conflict.
 */
export function conflictMarkerLines(text: string): number[] {
  const lines: number[] = [];
  let line = 1;
  let counted = 0;
  let i = text.indexOf(OPEN);
  while (i !== -1) {
    if ((i === 0 || text[i - 1] === '\n') && endsMarker(text, i + OPEN.length)) {
      let close = text.indexOf(CLOSE, i);
      while (close !== -1 && !endsMarker(text, close + CLOSE.length)) close = text.indexOf(CLOSE, close + 1);
      if (close === -1) break;
      for (let nl = text.indexOf('\n', counted); nl !== -1 && nl < i; nl = text.indexOf('\n', nl + 1)) line++;
      counted = i;
      lines.push(line);
      i = text.indexOf(OPEN, close + CLOSE.length);
      continue;
    }
    i = text.indexOf(OPEN, i + 1);
  }
  return lines;
}

/** The parse issue of each unresolved conflict in a spec file (`path` as issues name it). */
export function conflictIssues(text: string, path: string): Issue[] {
  return conflictMarkerLines(text).map((line) => ({
    severity: 'error',
    code: 'SPEC_CONFLICT_MARKERS',
    message: 'unresolved merge conflict (<<<<<<< … >>>>>>>): both versions are read as entries',
    hint: 'resolve the conflict (keep one version, delete the marker lines), then `git add` the file',
    file: path,
    line,
    column: 1,
  }));
}

/**
 * Refuses to write a corpus file that holds an unresolved merge conflict: the user is mid-merge,
 * and any rewrite would be made from a parse that reads both versions as entries.
 */
export function refuseConflicted(file: string, text: string, rerun = 'rerun'): void {
  const [line] = conflictMarkerLines(text);
  if (line === undefined) return;
  throw inputError(
    'FILE_HAS_CONFLICT_MARKERS',
    `.workflow/${file}:${line} holds an unresolved merge conflict (<<<<<<< … >>>>>>>); maestro will not rewrite it`,
    {
      hint: `resolve the conflict (keep one version, delete the marker lines), \`git add\` the file, then ${rerun}; nothing was written`,
      location: { file: `.workflow/${file}`, line },
    },
  );
}

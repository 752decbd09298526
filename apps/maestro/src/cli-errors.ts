import type { ExitCode } from '@maestro/core';
import { distance } from './help.js';

/** The shape `cli.ts` reports: a MaestroError, or a plain object carrying the same fields. */
export interface ErrorLike {
  code?: string;
  message: string;
  hint?: string;
  exitCode?: ExitCode;
  location?: { file: string; line?: number; column?: number };
  details?: Record<string, unknown>;
}

/** A usage error (exit 2) without loading @maestro/core, so that routing stays at bare-node cost. */
export function usageError(message: string, hint: string, code = 'USAGE'): Error & ErrorLike {
  return Object.assign(new Error(message), { code, exitCode: 2 as ExitCode, hint });
}

/**
 * node:util parseArgs messages rewritten for people: one line, naming the option, with the fix.
 * `known` are the option names the command accepts (for "did you mean").
 */
export function usageFromParseArgs(raw: string, known: readonly string[], path: readonly string[]) {
  const help = `run \`maestro ${path.join(' ')} --help\` for the options`;
  const missing = /^Option '(?:-\w, )?(--[\w-]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(raw);
  if (missing) {
    const flag = missing[1];
    return usageError(`${flag} needs a value`, `write ${flag} <value>, or ${flag}=<value> when it starts with "-"`);
  }
  const unknown = /^Unknown option '(-[^']*)'/.exec(raw);
  if (unknown && (/\s/.test(unknown[1]) || !/^--?[\w-]+$/.test(unknown[1]))) {
    // Not an option name at all: text that starts with "-" (a YAML block, a negative number...).
    const first = unknown[1].split('\n')[0].slice(0, 40);
    return usageError(
      `an argument starting with "-" was read as an option: "${first}${first === unknown[1] ? '' : '…'}"`,
      `put such text after \`--\` at the end (\`maestro ${path.join(' ')} ... -- "<text>"\`)${fromFile(path)}`,
    );
  }
  if (unknown) {
    const typed = unknown[1].replace(/^-+/, '');
    const guess = closest(typed, known);
    const text = /^-[^-]/.test(unknown[1]) ? `; text that starts with "-" goes after \`--\` at the end` : '';
    return usageError(`Unknown option '${unknown[1]}'`, `${guess ? `did you mean --${guess}? ` : ''}${help}${text}`);
  }
  const message = raw.replace(/\. To specify a positional.*$/s, '').replace(/\s*\n\s*/g, ' ');
  return usageError(message, help);
}

/** Where long or dash-led text can come from instead, for the commands that have such a way. */
function fromFile(path: readonly string[]): string {
  const command = path.join(' ');
  if (command === 'context')
    return ', or from an agent hook pipe the event JSON to `maestro context --hook claude|codex`';
  if (['spec add', 'knowhow add', 'knowledge stage'].includes(command)) return ', or read it with --content-file';
  return '';
}

function closest(typed: string, known: readonly string[]): string | null {
  let best: { name: string; d: number } | null = null;
  for (const name of known) {
    const d = distance(typed, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : null;
}

const ERRNO_HINTS: Record<string, string> = {
  EACCES: 'check the permissions of that path, or run as a user who may write it',
  EPERM: 'check the permissions of that path, or run as a user who may write it',
  EROFS: 'the file system is read-only; run the command on a writable copy',
  ENOSPC: 'free some disk space and rerun the command',
  EDQUOT: 'free some disk space (quota) and rerun the command',
  ENOTDIR: 'a part of that path is a file where a directory is expected; move the file away',
  EISDIR: 'that path is a directory where a file is expected; move the directory away',
  EMFILE: 'too many open files; raise the limit (ulimit -n) and rerun the command',
  EBUSY: 'the file is busy; close the program that holds it and rerun the command',
};

/**
 * A Node file-system error (`EACCES`, `ENOSPC`, ...) that escaped a command is an environment problem
 * (exit 3), not a bug: report the path and what to do instead of a stack-trace hint.
 */
export function environmentFromErrno(err: unknown): ErrorLike | null {
  const e = err as { code?: unknown; syscall?: unknown; path?: unknown; message?: unknown } | null;
  if (!e || typeof e.code !== 'string') return null;
  // mkdir -p answers EEXIST when a component of the path is a file.
  if (e.code === 'EEXIST' && e.syscall === 'mkdir') {
    return environmentFromErrno({ ...e, message: 'a file is in the way of this directory', code: 'ENOTDIR' });
  }
  if (!(e.code in ERRNO_HINTS)) return null;
  const path = typeof e.path === 'string' ? e.path : null;
  const op = typeof e.syscall === 'string' ? e.syscall : 'access';
  const detail = String(e.message ?? e.code)
    .replace(/^[A-Z]+: /, '')
    .replace(/, \w+ '.*'$/, '');
  return {
    code: 'IO_ERROR',
    message: path ? `cannot ${op} ${path}: ${detail}` : `file-system error: ${detail}`,
    hint: ERRNO_HINTS[e.code],
    exitCode: 3,
  };
}

import { type Issue, inputError } from '@maestro/core';
import type { ParsedArgs } from '../kit.js';

/** A string option the command cannot run without (exit 2 naming the flag and an example). */
export function requiredOption(args: ParsedArgs, name: string, example: string): string {
  const v = args.values[name];
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  throw inputError('USAGE', `--${name} is required`, { hint: `for example: ${example}` });
}

export function optionalString(args: ParsedArgs, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** Every value of a repeatable option, as strings. */
export function allValues(args: ParsedArgs, name: string): string[] {
  const v = args.values[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === 'string');
}

/** Exactly `n` positionals at most; a surplus is almost always a missing quote. */
export function atMostPositionals(args: ParsedArgs, n: number, usage: string): void {
  if (args.positionals.length > n) {
    throw inputError('USAGE', `unexpected argument "${args.positionals[n]}"`, {
      hint: `usage: ${usage} (quote text that contains spaces)`,
    });
  }
}

/** The one positional id a command acts on. */
export function onePositional(args: ParsedArgs, what: string, usage: string): string {
  atMostPositionals(args, 1, usage);
  const v = args.positionals[0];
  if (!v) throw inputError('USAGE', `missing <${what}>`, { hint: `usage: ${usage}` });
  return v;
}

/**
 * A problem found while listing, as one stderr line (the CLI prefixes `warning: `) that names its
 * file once: readers often put the file (and line) into the message already, so the `file:line:`
 * prefix is only added when it is not there.
 */
export function problemLine(p: Issue): string {
  const hint = p.hint ? ` (${p.hint})` : '';
  if (p.message.includes(p.file)) return `${p.message}${hint}`;
  const where = `${p.file}${p.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : ''}`;
  return `${where}: ${p.message}${hint}`;
}

/**
 * Exit codes shared by every command:
 * 0 done, 1 refused by a rule, 2 bad input, 3 environment or internal.
 */
export type ExitCode = 0 | 1 | 2 | 3;

export const EXIT_OK = 0 as const;
export const EXIT_REFUSED = 1 as const;
export const EXIT_BAD_INPUT = 2 as const;
export const EXIT_ENVIRONMENT = 3 as const;

/** Where a problem is, when it has a place in a file. Lines and columns are 1-based. */
export interface SourceLocation {
  file: string;
  line?: number;
  column?: number;
}

export interface MaestroErrorOptions {
  hint?: string;
  exitCode?: ExitCode;
  cause?: unknown;
  location?: SourceLocation;
  details?: Record<string, unknown>;
}

/**
 * The one error type that crosses package boundaries. `code` is stable and machine-readable,
 * `message` says what is wrong, `hint` says what to run or change next.
 */
export class MaestroError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  readonly location: SourceLocation | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: MaestroErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MaestroError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? EXIT_ENVIRONMENT;
    this.location = options.location;
    this.details = options.details;
  }
}

/** Bad input the user must fix (exit 2). */
export function inputError(code: string, message: string, options: Omit<MaestroErrorOptions, 'exitCode'> = {}) {
  return new MaestroError(code, message, { ...options, exitCode: EXIT_BAD_INPUT });
}

/** Refused by a rule: stale receipt, review required, gate failed (exit 1). */
export function refusedError(code: string, message: string, options: Omit<MaestroErrorOptions, 'exitCode'> = {}) {
  return new MaestroError(code, message, { ...options, exitCode: EXIT_REFUSED });
}

/** Environment or internal failure: IO, lock timeout, bug (exit 3). */
export function environmentError(code: string, message: string, options: Omit<MaestroErrorOptions, 'exitCode'> = {}) {
  return new MaestroError(code, message, { ...options, exitCode: EXIT_ENVIRONMENT });
}

export function isMaestroError(value: unknown): value is MaestroError {
  return value instanceof MaestroError;
}

/** Formats a location as `file:line:column`, omitting what is unknown. */
export function formatLocation(location: SourceLocation): string {
  let out = location.file;
  if (location.line !== undefined) out += `:${location.line}`;
  if (location.line !== undefined && location.column !== undefined) out += `:${location.column}`;
  return out;
}

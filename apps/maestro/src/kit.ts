import type { ParseArgsConfig } from 'node:util';
import type { ExitCode, Runtime } from '@maestro/core';
import type { WorkflowLayout } from '@maestro/fs';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

/** What every command receives. Commands never print or exit: they return a CommandResult. */
export interface CommandContext {
  /** The project root that holds `.workflow/`. */
  root: string;
  layout: WorkflowLayout;
  runtime: Runtime;
  json: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** True when stderr is an interactive terminal (progress may be shown). */
  interactive: boolean;
  /** Reads all of standard input (for `--content-file -`). */
  readStdin(): Promise<string>;
  /** Writes a diagnostic line to stderr (never to stdout). */
  warn(line: string): void;
  /** Shows progress on a TTY; a no-op with --json or when piped. */
  progress(line: string): void;
}

export interface CommandResult {
  /** The JSON document printed with --json; its shape has a schema in schemas/. */
  data: unknown;
  /** Human output for stdout. */
  text: string;
  /** Defaults to 0. */
  exitCode?: ExitCode;
  /** Lines for stderr in both modes. */
  warnings?: string[];
  /**
   * A long-running command (`review serve`) returns at once and the CLI prints the result; it
   * then waits for this before it exits (e.g. until Ctrl+C stops the server).
   */
  until?: Promise<unknown>;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

export interface CommandModule {
  /** e.g. `maestro spec add <category> <title> [content]` */
  usage: string;
  /** One-line purpose. */
  summary: string;
  options: OptionSpec;
  /** Help text per option name, shown by --help. */
  optionHelp: Record<string, string>;
  examples: string[];
  /**
   * True when the command reads or writes the project's knowledge: the CLI then refuses to run it
   * (exit 2, `NO_WORKFLOW`) unless `<root>/.workflow/` is a directory.
   */
  needsWorkflow?: boolean;
  run(ctx: CommandContext, args: ParsedArgs): Promise<CommandResult>;
}

/** "resolved alias X to Y" for each [as given, canonical id] pair that differ (a maestro-flow id form was used). */
export function aliasWarnings(...pairs: [string, string][]): string[] {
  return pairs
    .filter(([given, id]) => given.trim() !== id)
    .map(([given, id]) => `resolved alias ${given.trim()} to ${id}`);
}

/** Global options every command accepts. */
export const GLOBAL_OPTIONS: OptionSpec = {
  json: { type: 'boolean' },
  'workflow-root': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

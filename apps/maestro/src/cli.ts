import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ExitCode } from '@maestro/core';
import { commandHelp, commandsUnder, nounHelp, suggest, topHelp } from './help.js';
import { type CommandContext, type CommandModule, GLOBAL_OPTIONS } from './kit.js';
import { findCommand } from './registry.js';
import { setColor } from './style.js';

/** Where the CLI writes. Tests pass their own; the binary passes the process streams. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  readStdin(): Promise<string>;
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

interface ErrorLike {
  code?: string;
  message: string;
  hint?: string;
  exitCode?: ExitCode;
  location?: { file: string; line?: number; column?: number };
  details?: Record<string, unknown>;
}

/** The nearest directory at or above `from` that holds `.workflow/`, else `from` itself. */
export function findProjectRoot(from: string): string {
  let dir = resolve(from);
  for (;;) {
    if (existsSync(join(dir, '.workflow'))) return dir;
    const up = dirname(dir);
    if (up === dir) return resolve(from);
    dir = up;
  }
}

/** Splits the leading command words from the options, skipping global flags that precede them. */
function splitCommand(argv: string[]): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json' || a === '--help' || a === '-h' || a.startsWith('--workflow-root=')) rest.push(a);
    else if (a === '--workflow-root') rest.push(a, argv[++i] ?? '');
    else if (a.startsWith('-')) break;
    else words.push(a);
  }
  return { words, rest: [...rest, ...argv.slice(i)] };
}

export async function runCli(argv: string[], io: CliIO): Promise<ExitCode> {
  const wantsJson = argv.includes('--json');
  setColor(!wantsJson && io.stdoutIsTTY && !io.env.NO_COLOR);
  try {
    return await dispatch(argv, io);
  } catch (err) {
    return await reportError(err, io, wantsJson);
  }
}

/** In check mode (`MAESTRO_CHECK_OUTPUT=1`, set by the test harness) every --json document is validated. */
async function checkJson(io: CliIO, command: string | null, doc: unknown): Promise<void> {
  if (io.env.MAESTRO_CHECK_OUTPUT !== '1') return;
  const { checkOutput } = await import('./output-check.js');
  // Validate what a reader of stdout gets (undefined members dropped, dates as strings).
  checkOutput(command, JSON.parse(JSON.stringify(doc)));
}

async function dispatch(argv: string[], io: CliIO): Promise<ExitCode> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(`${topHelp(version())}\n`);
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === '-V' || argv[0] === 'version') {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const { words, rest } = splitCommand(argv);
  const found = findCommand(words);
  const helpAsked = rest.includes('--help') || rest.includes('-h');
  if (!found) return unknownCommand(words, io, helpAsked);
  const mod = await found.entry.load();
  if (helpAsked) {
    io.stdout(`${commandHelp(mod)}\n`);
    return 0;
  }
  const args = parseCommandArgs(mod, [...found.rest, ...rest], found.entry.path);
  const json = args.values.json === true;
  const ctx = await makeContext(io, args.values['workflow-root'] as string | undefined, json);
  const result = await mod.run(ctx, args);
  for (const w of result.warnings ?? []) io.stderr(`warning: ${w}\n`);
  if (json) {
    await checkJson(io, found.entry.path.join(' '), result.data);
    io.stdout(`${JSON.stringify(result.data, null, 2)}\n`);
  } else if (result.text) io.stdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
  return result.exitCode ?? 0;
}

function unknownCommand(words: string[], io: CliIO, helpAsked: boolean): ExitCode {
  const under = commandsUnder(words.slice(0, 1));
  if (words.length === 1 && under.length > 0) {
    io[helpAsked ? 'stdout' : 'stderr'](`${nounHelp(words, under)}\n`);
    return helpAsked ? 0 : 2;
  }
  if (words.length === 0) {
    io.stderr('error: expected a command before the options\nhint: run `maestro --help`\n');
    return 2;
  }
  const guess = suggest(words);
  io.stderr(
    `error: unknown command "maestro ${words.join(' ')}"\n` +
      (guess ? `hint: did you mean \`maestro ${guess}\`? ` : 'hint: ') +
      'run `maestro --help` for the list of commands\n',
  );
  return 2;
}

function parseCommandArgs(mod: CommandModule, args: string[], path: string[]) {
  try {
    const parsed = parseArgs({
      args,
      options: { ...GLOBAL_OPTIONS, ...mod.options },
      allowPositionals: true,
      strict: true,
    });
    return {
      values: parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>,
      positionals: parsed.positionals,
    };
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional.*$/s, '');
    throw Object.assign(new Error(`${message}`), {
      code: 'USAGE',
      exitCode: 2 as ExitCode,
      hint: `run \`maestro ${path.join(' ')} --help\` for the options`,
    });
  }
}

async function makeContext(io: CliIO, workflowRoot: string | undefined, json: boolean): Promise<CommandContext> {
  // Loaded here, not at the top, so that --help and --version stay at bare-node start-up cost.
  const [{ runtimeFromEnv }, { workflowLayout }] = await Promise.all([import('@maestro/core'), import('@maestro/fs')]);
  const explicit = workflowRoot ?? io.env.MAESTRO_WORKFLOW_ROOT;
  const root = explicit ? resolve(io.cwd, explicit) : findProjectRoot(io.cwd);
  const showProgress = !json && io.stderrIsTTY;
  return {
    root,
    cwd: io.cwd,
    env: io.env,
    json,
    interactive: io.stderrIsTTY,
    layout: workflowLayout(root),
    runtime: runtimeFromEnv(io.env),
    readStdin: io.readStdin,
    warn: (line) => io.stderr(`warning: ${line}\n`),
    progress: (line) => {
      if (showProgress) io.stderr(`\r\u001b[2K${line}`);
    },
  };
}

async function reportError(err: unknown, io: CliIO, json: boolean): Promise<ExitCode> {
  const e = (err ?? {}) as ErrorLike & { stack?: string; name?: string };
  const known = typeof e.exitCode === 'number' && typeof e.code === 'string';
  const exitCode: ExitCode = known ? (e.exitCode as ExitCode) : 3;
  const code = known ? (e.code as string) : 'INTERNAL';
  const message = known ? e.message : `internal error: ${e.message ?? String(err)}`;
  const where = e.location
    ? `${e.location.file}${e.location.line ? `:${e.location.line}${e.location.column ? `:${e.location.column}` : ''}` : ''}`
    : undefined;
  let text = `error: ${message}\n`;
  if (where && !message.includes(where)) text += `  at ${where}\n`;
  if (e.hint) text += `hint: ${e.hint}\n`;
  if (!known) text += `hint: this is a bug in maestro; rerun with MAESTRO_DEBUG=1 for a stack trace\n`;
  if (!known && io.env.MAESTRO_DEBUG) text += `${e.stack ?? ''}\n`;
  io.stderr(text);
  if (json) {
    const error = { code, message, exit_code: exitCode, hint: e.hint ?? null, location: e.location ?? null };
    const doc = { schema_version: 'maestro-error/1.0', error };
    try {
      await checkJson(io, null, doc);
    } catch (check) {
      io.stderr(`error: ${(check as Error).message}\n`);
      return 3;
    }
    io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  }
  return exitCode;
}

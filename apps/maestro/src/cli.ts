import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { ExitCode } from '@maestro/core';
import { type ErrorLike, environmentFromErrno, usageError, usageFromParseArgs } from './cli-errors.js';
import { commandHelp, commandsUnder, nounHelp, suggestions, topHelp } from './help.js';
import { hookAgent, hookFailed } from './hook-guard.js';
import { type CommandContext, type CommandModule, GLOBAL_OPTIONS } from './kit.js';
import { findCommand } from './registry.js';
import { setColor } from './style.js';

/** Where the CLI writes. Tests pass their own; the binary passes the process streams. */

/** A parse issue (`file:line:col: error: …`) already carries its severity; anything else is a warning. */
const LOCATED = /^\S[^\n]*?(?::\d+){0,2}: (?:error|warning): /;

function diagnostic(line: string): string {
  return LOCATED.test(line) ? line : `warning: ${line}`;
}

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
    else if (a === '--workflow-root') {
      const dir = argv[++i];
      if (dir === undefined || dir.startsWith('-')) {
        throw usageError(
          '--workflow-root needs a value',
          'write --workflow-root <project dir>, e.g. --workflow-root .',
        );
      }
      rest.push(a, dir);
    } else if (a.startsWith('-')) break;
    else words.push(a);
  }
  return { words, rest: [...rest, ...argv.slice(i)] };
}

export async function runCli(argv: string[], rawIo: CliIO): Promise<ExitCode> {
  const wantsJson = argv.includes('--json');
  setColor(!wantsJson && rawIo.stdoutIsTTY && !rawIo.env.NO_COLOR);
  const io = withProgressLine(rawIo);
  try {
    return await dispatch(argv, io);
  } catch (err) {
    if (hookAgent(argv) !== null) return await hookFailed(err, argv, rawIo, findProjectRoot);
    return await reportError(err, io, wantsJson);
  }
}

/**
 * Progress is one rewritten line on stderr; the first real output after it erases that line, so
 * results and errors never start in the middle of a progress message.
 */
function withProgressLine(io: CliIO): CliIO & { progress(line: string): void } {
  let shown = false;
  const clear = () => {
    if (shown) io.stderr('\r\u001b[2K');
    shown = false;
  };
  return {
    ...io,
    stdout: (t) => {
      clear();
      io.stdout(t);
    },
    stderr: (t) => {
      clear();
      io.stderr(t);
    },
    progress: (line) => {
      io.stderr(`\r\u001b[2K${line}`);
      shown = true;
    },
  };
}

/** In check mode (`MAESTRO_CHECK_OUTPUT=1`, set by the test harness) every --json document is validated. */
async function checkJson(io: CliIO, command: string | null, doc: unknown): Promise<void> {
  if (io.env.MAESTRO_CHECK_OUTPUT !== '1') return;
  const { checkOutput } = await import('./output-check.js');
  // Validate what a reader of stdout gets (undefined members dropped, dates as strings).
  checkOutput(command, JSON.parse(JSON.stringify(doc)));
}

async function dispatch(argv: string[], io: CliIO & { progress(line: string): void }): Promise<ExitCode> {
  if (argv[0] === 'help' && argv.length > 1) return dispatch([...argv.slice(1), '--help'], io);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout(`${topHelp(version())}\n`);
    return 0;
  }
  if (['--version', '-v', '-V', 'version'].includes(argv[0])) {
    const rest = argv
      .slice(1)
      .filter((a, i, all) => a !== '--json' && !/^--workflow-root(=|$)/.test(a) && all[i - 1] !== '--workflow-root');
    if (rest.length > 0)
      throw usageError(`${argv[0]} takes no arguments (got "${rest[0]}")`, 'run `maestro --version [--json]`');
    // Written by hand, not through zod: --version stays at bare-node start-up cost (schema: version-output).
    const doc = {
      schema_version: 'maestro-version/1.0',
      name: '@maestro/cli',
      version: version(),
      node: process.version,
    };
    io.stdout(argv.includes('--json') ? `${JSON.stringify(doc, null, 2)}\n` : `${doc.version}\n`);
    return 0;
  }
  const { words, rest } = splitCommand(argv);
  const found = findCommand(words);
  const helpAsked = rest.includes('--help') || rest.includes('-h');
  if (!found) return unknownCommand(words, io, helpAsked, rest.includes('--json'));
  const mod = await found.entry.load();
  if (helpAsked) {
    io.stdout(`${commandHelp(mod)}\n`);
    return 0;
  }
  const args = parseCommandArgs(mod, [...found.rest, ...rest], found.entry.path);
  const json = args.values.json === true;
  const ctx = await makeContext(io, args.values['workflow-root'] as string | undefined, json);
  if (mod.needsWorkflow) requireWorkflow(ctx.layout.root, ctx.layout.workflow);
  const result = await mod.run(ctx, args);
  for (const w of result.warnings ?? []) io.stderr(`${diagnostic(w)}\n`);
  // Damage found in the derived-state store by whichever package opened it (moved aside, rebuilt).
  const { takeStoreNotices } = await import('@maestro/store/notices');
  for (const n of takeStoreNotices()) if (!(result.warnings ?? []).includes(n)) io.stderr(`${diagnostic(n)}\n`);
  if (json) {
    await checkJson(io, found.entry.path.join(' '), result.data);
    io.stdout(`${JSON.stringify(result.data, null, 2)}\n`);
  } else if (result.text) io.stdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
  if (result.until) await result.until;
  return result.exitCode ?? 0;
}

async function unknownCommand(words: string[], io: CliIO, helpAsked: boolean, json: boolean): Promise<ExitCode> {
  // A group of commands (`spec`, or two words: `spec conflict`, `memory rules`) lists what it holds.
  const under = words.length > 0 ? commandsUnder(words) : [];
  if (under.length > 0) {
    const group = words.join(' ');
    io[helpAsked ? 'stdout' : 'stderr'](`${nounHelp(words, under)}\n`);
    if (helpAsked) return 0;
    if (!json) return 2;
    const hint = `run \`maestro ${group} <command> --help\`, e.g. \`maestro ${under[0].path.join(' ')} --help\``;
    return await printJsonError(usageError(`"maestro ${group}" needs a command`, hint), io);
  }
  if (words.length === 0) throw usageError('expected a command before the options', 'run `maestro --help`');
  const names = suggestions(words).map((n) => `\`maestro ${n}\``);
  const guess = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}` : names[0];
  // Name the command as far as it is known plus the first word that is not, never the arguments.
  let known = 0;
  while (known < words.length - 1 && commandsUnder(words.slice(0, known + 1)).length > 0) known++;
  throw usageError(
    `unknown command "maestro ${words.slice(0, known + 1).join(' ')}"`,
    `${guess ? `did you mean ${guess}? ` : ''}run \`maestro --help\` for the list of commands`,
    'UNKNOWN_COMMAND',
  );
}

/**
 * Commands that read or write the project's knowledge need `.workflow/` as a directory; without one
 * they would list nothing, or scatter files in whatever directory the user happened to be in.
 */
function requireWorkflow(root: string, workflow: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(workflow).isDirectory();
  } catch {
    throw usageError(
      `no .workflow/ directory in ${root}`,
      'run `maestro init` there first, or pass --workflow-root <project dir>',
      'NO_WORKFLOW',
    );
  }
  if (!isDir) {
    throw usageError(
      `${workflow} is a file, not the .workflow/ directory`,
      'move that file away, then run `maestro init`, or pass --workflow-root <project dir>',
      'NO_WORKFLOW',
    );
  }
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
    throw usageFromParseArgs((err as Error).message, Object.keys(mod.options), path);
  }
}

async function makeContext(
  io: CliIO & { progress(line: string): void },
  workflowRoot: string | undefined,
  json: boolean,
): Promise<CommandContext> {
  // Loaded here, not at the top, so that --help and --version stay at bare-node start-up cost.
  const [{ runtimeFromEnv }, { ALLOW_EXTERNAL_WORKFLOW_ENV, guardWorkflowWrites, workflowLayout }] = await Promise.all([
    import('@maestro/core'),
    import('@maestro/fs'),
  ]);
  if (workflowRoot === '') throw usageError('--workflow-root is empty', 'write --workflow-root <project dir>');
  checkClockEnv(io.env.MAESTRO_NOW);
  const explicit = workflowRoot ?? io.env.MAESTRO_WORKFLOW_ROOT;
  const root = explicit ? resolve(io.cwd, explicit) : findProjectRoot(io.cwd);
  const showProgress = !json && io.stderrIsTTY;
  const layout = workflowLayout(root);
  guardWorkflowWrites(layout, io.env[ALLOW_EXTERNAL_WORKFLOW_ENV] === '1');
  return {
    root,
    cwd: io.cwd,
    env: io.env,
    json,
    interactive: io.stderrIsTTY,
    layout,
    runtime: runtimeFromEnv(io.env),
    readStdin: io.readStdin,
    warn: (line) => io.stderr(`${diagnostic(line)}\n`),
    progress: (line) => {
      if (showProgress) io.progress(line);
    },
  };
}

/**
 * `MAESTRO_NOW` pins the clock of everything a command stamps; a value that is not a real ISO
 * date-time is refused rather than silently replaced by the system clock (or rolled into March).
 */
function checkClockEnv(value: string | undefined): void {
  if (value === undefined || value === '') return;
  const date = /^(\d{4})-(\d{2})-(\d{2})(?:[T ]|$)/.exec(value);
  const t = new Date(value);
  let ok = date !== null && !Number.isNaN(t.getTime());
  if (ok && date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    const day = new Date(Date.UTC(y, m - 1, d));
    ok = day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
  }
  if (!ok) {
    throw usageError(
      `MAESTRO_NOW must be an ISO date-time such as 2026-01-31T12:00:00Z (got "${value}")`,
      'fix MAESTRO_NOW, or unset it to use the system clock',
      'BAD_ENV',
    );
  }
}

async function reportError(err: unknown, io: CliIO, json: boolean): Promise<ExitCode> {
  const e = (environmentFromErrno(err) ?? err ?? {}) as ErrorLike & { stack?: string; name?: string };
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
  if (io.env.MAESTRO_DEBUG) text += `${(err as { stack?: string })?.stack ?? ''}\n`;
  io.stderr(text);
  if (!json) return exitCode;
  return await printJsonError({ ...e, code, message, exitCode }, io);
}

/** The `maestro-error/1.0` document printed on stdout with --json; returns the error's exit code. */
async function printJsonError(e: ErrorLike, io: CliIO): Promise<ExitCode> {
  const exitCode = e.exitCode ?? 3;
  const error = {
    code: e.code ?? 'INTERNAL',
    message: e.message,
    exit_code: exitCode,
    hint: e.hint ?? null,
    location: e.location ?? null,
  };
  const doc = { schema_version: 'maestro-error/1.0', error };
  try {
    await checkJson(io, null, doc);
  } catch (check) {
    io.stderr(`error: ${(check as Error).message}\n`);
    return 3;
  }
  io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
  return exitCode;
}

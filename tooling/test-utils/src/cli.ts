import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkingHere, queueOutput } from './output-check.js';

/** The built binary. Tests that spawn processes need `pnpm build` first (`pnpm test` does it). */
export const CLI_BIN = resolve(import.meta.dirname, '../../../apps/maestro/dist/main.js');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (throws if it is not). */
  json<T = unknown>(): T;
}

function result(code: number, stdout: string, stderr: string): CliRun {
  return {
    code,
    stdout,
    stderr,
    json<T>() {
      try {
        return JSON.parse(stdout) as T;
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

function ensureBuilt(): void {
  if (!existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run \`pnpm build\` first`);
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
}

/** The child's env: `--json` documents are schema-checked by the child, or queued to be checked here. */
function childEnv(options: RunOptions): NodeJS.ProcessEnv {
  const check = checkingHere(options.env) ? {} : { MAESTRO_CHECK_OUTPUT: '1' };
  return { ...process.env, NO_COLOR: '1', ...check, ...options.env };
}

function checked(args: string[], options: RunOptions, run: CliRun): CliRun {
  if (checkingHere(options.env)) queueOutput(args, run.stdout);
  return run;
}

/** Runs the built `maestro` binary synchronously. */
export function runMaestro(args: string[], options: RunOptions = {}): CliRun {
  ensureBuilt();
  const r = spawnSync(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env: childEnv(options),
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return checked(args, options, result(r.status ?? (r.signal ? 128 : 1), r.stdout, r.stderr));
}

/** Runs the built binary as a child process, for concurrency tests. */
export function runMaestroAsync(args: string[], options: RunOptions = {}): Promise<CliRun> {
  ensureBuilt();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      cwd: options.cwd,
      env: childEnv(options),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', fail);
    child.on('close', (code, signal) =>
      done(checked(args, options, result(code ?? (signal ? 128 : 1), stdout, stderr))),
    );
    child.stdin.end(options.input ?? '');
  });
}

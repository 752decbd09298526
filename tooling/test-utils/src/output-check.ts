/**
 * The `--json` schema check, done in the test process instead of in every child.
 *
 * `MAESTRO_CHECK_OUTPUT=1` makes the CLI validate each `--json` document against its published
 * zod schema before printing it, but loading every package's schemas doubles the CPU a short
 * command costs. When a test file has called `checkOutputsHere()` (the e2e setup file does),
 * `runMaestro` and `runMaestroAsync` run the child without it and queue each `--json` run;
 * `checkQueuedOutputs()` (after each test) validates those documents with the same function
 * and schemas (`apps/maestro/src/output-check.ts`), so a mismatch still fails the test.
 */

interface QueuedRun {
  args: string[];
  stdout: string;
}

let here = false;
const queued: QueuedRun[] = [];

/** From now on, this process checks the `--json` documents of the runs it starts. */
export function checkOutputsHere(): void {
  here = true;
}

/** Whether a run with this extra env should be checked here (and so spawned without the check). */
export function checkingHere(env: NodeJS.ProcessEnv | undefined): boolean {
  return here && env?.MAESTRO_CHECK_OUTPUT === undefined;
}

/** `--json` given as a flag (before any `--`), as the CLI's own option parsing reads it. */
function jsonFlag(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).includes('--json');
}

/** Queues a run that may have printed a `--json` document (an error one even for `--json` after `--`). */
export function queueOutput(args: string[], stdout: string): void {
  if (args.includes('--json')) queued.push({ args, stdout });
}

/** The leading command words, skipping global flags before them (the CLI's own splitCommand). */
function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json' || a === '--help' || a === '-h' || a.startsWith('--workflow-root=')) continue;
    if (a === '--workflow-root') i++;
    else if (a.startsWith('-')) break;
    else words.push(a);
  }
  return words;
}

/** Validates the queued documents; throws naming the command and the schema problems. */
export async function checkQueuedOutputs(): Promise<void> {
  const runs = queued.splice(0);
  if (runs.length === 0) return;
  const [{ checkOutput }, { findCommand }] = await Promise.all([
    import('../../../apps/maestro/src/output-check.js'),
    import('../../../apps/maestro/src/registry.js'),
  ]);
  for (const { args, stdout } of runs) {
    let doc: unknown;
    try {
      doc = JSON.parse(stdout);
    } catch {
      continue; // help text, or a run killed before it printed: the CLI checked nothing either
    }
    // What the CLI checks: an error document (printJsonError, for `--json` anywhere) against the
    // error schema, else the found command's result when --json is its flag; nothing for --version.
    const isError = (doc as { schema_version?: unknown } | null)?.schema_version === 'maestro-error/1.0';
    const found = isError || !jsonFlag(args) ? null : findCommand(commandWords(args));
    if (!isError && !found) continue;
    try {
      checkOutput(found ? found.entry.path.join(' ') : null, doc);
    } catch (err) {
      throw new Error(`maestro ${args.join(' ')}: ${(err as Error).message}\n${stdout.slice(0, 2000)}`);
    }
  }
}

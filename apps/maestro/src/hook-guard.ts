import { join, resolve } from 'node:path';

/**
 * `maestro context --hook <agent>` runs inside an agent on every prompt: it must never block or
 * pollute the prompt. Whatever fails (bad stdin, a damaged corpus, a bad flag, a bug), it prints
 * nothing, exits 0 and logs the reason to `.workflow/.index/hooks.log` of the project.
 */
export function hookAgent(argv: readonly string[]): string | null {
  // The command word, skipping the global options that may precede it.
  let w = 0;
  while (argv[w] === '--json' || argv[w]?.startsWith('--workflow-root')) w += argv[w] === '--workflow-root' ? 2 : 1;
  if (argv[w] !== 'context') return null;
  const i = argv.findIndex((a) => a === '--hook' || a.startsWith('--hook='));
  if (i < 0) return null;
  return argv[i].startsWith('--hook=') ? argv[i].slice(7) : (argv[i + 1] ?? '');
}

export async function hookFailed(
  err: unknown,
  argv: readonly string[],
  io: { cwd: string; env: NodeJS.ProcessEnv },
  findRoot: (from: string) => string,
): Promise<0> {
  try {
    const i = argv.indexOf('--workflow-root');
    const explicit = (i >= 0 ? argv[i + 1] : undefined) ?? io.env.MAESTRO_WORKFLOW_ROOT;
    const root = explicit ? resolve(io.cwd, explicit) : findRoot(io.cwd);
    const { logHookFailure } = await import('@maestro/hooks/io');
    const e = err as { code?: string; message?: string; hint?: string } | null;
    const what = `${e?.code ?? 'INTERNAL'}: ${e?.message ?? String(err)}${e?.hint ? ` (hint: ${e.hint})` : ''}`;
    logHookFailure(join(root, '.workflow'), new Date(), `${hookAgent(argv) || 'hook'} failed open: ${what}`);
  } catch {
    // Logging is best effort: the hook still says nothing.
  }
  return 0;
}

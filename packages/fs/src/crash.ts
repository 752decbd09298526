/**
 * Test-only crash injection. When `MAESTRO_CRASH_AT` names this point, the process kills itself
 * with SIGKILL, exactly as a power cut or OOM kill would, so replay tests can stop a transaction
 * between any two steps. This is the one place the variable is read.
 */
export function crashPoint(name: string): void {
  if (process.env.MAESTRO_CRASH_AT === name) process.kill(process.pid, 'SIGKILL');
}

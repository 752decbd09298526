/**
 * Test-only fault injection. When `MAESTRO_CRASH_AT` names this point, the process sends itself
 * SIGKILL, exactly as a power cut or OOM kill would, so replay tests can stop a transaction
 * between any two steps. `MAESTRO_CRASH_SIGNAL=SIGSTOP` suspends it there instead (Ctrl-Z, a
 * paused VM), so lock tests can stall a holder and resume it with SIGCONT. This is the one place
 * the variables are read.
 */
export function crashPoint(name: string): void {
  if (process.env.MAESTRO_CRASH_AT !== name) return;
  process.kill(process.pid, process.env.MAESTRO_CRASH_SIGNAL === 'SIGSTOP' ? 'SIGSTOP' : 'SIGKILL');
}

/**
 * `@maestro/store/notices`. Damage this process found in a store file (moved aside, rebuilt). Kept
 * process-wide, apart from each store's `warnings`, because a store that meets damage late is
 * forgotten and replaced: the CLI prints these once after every command, whichever package opened
 * the store. Falling back to memory in a read-only checkout is normal operation and is not a
 * notice. A module of its own, so that a command that never opened a store does not load the store
 * code to learn that there is nothing to print.
 */
const damageNotices: string[] = [];

/** Returns (and forgets) the damage notices of this process, for the CLI to print once. */
export function takeStoreNotices(): string[] {
  return damageNotices.splice(0);
}

/** Records a notice once. */
export function addStoreNotice(message: string): void {
  if (!damageNotices.includes(message)) damageNotices.push(message);
}

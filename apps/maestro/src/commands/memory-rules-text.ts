import type { MemoryRules, NeverRule } from '@maestro/memory';

/** The human rendering shared by `memory rules set` and `memory rules show`. */
export function rulesText(r: { rules: MemoryRules; builtin: NeverRule[]; store: { dir: string } }): string {
  const lines = [`Remember: ${r.rules.remember.join(', ')}`, 'Never remember:'];
  for (const n of r.builtin) lines.push(`  ${n.id}  ${n.reason}`);
  for (const n of r.rules.never) lines.push(`  ${n.id}  /${n.pattern}/i  ${n.reason}`);
  lines.push(`store: ${r.store.dir}`);
  return lines.join('\n');
}

import type { ConsolidationChange } from '@maestro/memory';
import type { CommandModule } from '../kit.js';
import { green } from '../style.js';
import { atMostPositionals } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget } from './memory-args.js';

const usage = 'maestro memory consolidate [--dry-run] [--agent A]';

function changeLine(c: ConsolidationChange): string {
  switch (c.change) {
    case 'merge':
      return `merge      ${c.removed} into ${c.kept} (similarity ${c.similarity})`;
    case 'supersede':
      return `supersede  ${c.removed} by newer ${c.kept} (${c.reason}); the older text stays in ${c.kept}'s history`;
    case 'decay':
      return `decay      ${c.id} ${c.from} → ${c.to}`;
    case 'forget':
      return `forget     ${c.id} (confidence ${c.confidence}): ${c.text}`;
  }
}

export const command: CommandModule = {
  usage,
  summary: 'Merge duplicates, resolve contradictions (newer wins), decay and forget; every change listed',
  options: { ...AGENT_OPTION, 'dry-run': { type: 'boolean' } },
  optionHelp: { ...AGENT_HELP, 'dry-run': 'list the changes without writing anything' },
  examples: ['maestro memory consolidate --dry-run', 'maestro memory consolidate --json   # e.g. nightly from cron'],
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const { consolidateMemories } = await import('@maestro/memory');
    const r = await consolidateMemories(memoryTarget(ctx, args), { dryRun: args.values['dry-run'] === true });
    const head = r.dry_run
      ? `Dry run: ${r.changes.length} change(s) would leave ${r.after} of ${r.before} memories (nothing written)`
      : r.written
        ? `${green('✓')} ${r.changes.length} change(s): ${r.after} of ${r.before} memories kept`
        : `Nothing to consolidate (${r.before} memories)`;
    return { data: r, text: [head, ...r.changes.map(changeLine)].join('\n') };
  },
};

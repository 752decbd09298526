import { restoreBackup } from '@maestro/audit';
import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { dim, green, red } from '../style.js';

const usage = 'maestro knowledge restore <backup-id> [--force]';

export const command: CommandModule = {
  usage,
  summary: 'Put back every file of an audit --apply backup (refuses files changed since, unless --force)',
  options: { force: { type: 'boolean' } },
  optionHelp: { force: 'restore even files edited after the apply; those later edits are lost' },
  examples: [
    'maestro knowledge audit --backups',
    'maestro knowledge restore knowledge-audit-2026-03-01T12-00-00-000Z',
    'maestro knowledge restore knowledge-audit-2026-03-01T12-00-00-000Z --force --json',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const [id, ...rest] = args.positionals;
    if (!id || rest.length) {
      throw inputError('USAGE', id ? `unexpected argument "${rest[0]}"` : 'missing <backup-id>', {
        hint: `usage: ${usage}; list the backups with \`maestro knowledge audit --backups\``,
      });
    }
    const r = await restoreBackup(ctx.layout, id, { runtime: ctx.runtime, force: args.values.force === true });
    if (r.already_restored) {
      return { data: r, text: `Nothing to restore: ${id} was already restored and its files still match the backup` };
    }
    if (!r.restored) {
      const lines = [
        `${red('✗')} Refused: ${r.changed_since_apply.length} file(s) changed after the apply:`,
        ...r.changed_since_apply.map((f) => `  ${f}`),
        dim(`restoring would lose those edits; to do it anyway: maestro knowledge restore ${id} --force`),
      ];
      return { data: r, text: lines.join('\n'), exitCode: 1 };
    }
    const lines = [
      `${green('✓')} Restored ${r.files.length} file(s) from .workflow/.trash/${id}`,
      ...r.files.map((f) => `  ${f}`),
    ];
    if (r.forced && r.changed_since_apply.length) {
      lines.push(dim(`overwrote later edits in: ${r.changed_since_apply.join(', ')}`));
    }
    return { data: r, text: lines.join('\n') };
  },
};

import { type LinkRepair, repairLinks } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';
import { positionals, writeOptions } from './spec-cli.js';

const usage = 'maestro spec link repair [--dry-run]';

const line = (r: LinkRepair) =>
  `  ${r.id} ${r.attribute} ${r.missing} (.workflow/${r.file}${r.line ? `:${r.line}` : ''})`;

export const command: CommandModule = {
  usage,
  summary: 'Remove supersedes / superseded-by links that name no entry (journaled; --dry-run to preview)',
  options: { 'dry-run': { type: 'boolean' } },
  optionHelp: { 'dry-run': 'list the links that would be removed and the files, write nothing' },
  examples: ['maestro spec link repair --dry-run', 'maestro spec link repair', 'maestro spec link repair --json'],
  needsWorkflow: true,
  async run(ctx, args) {
    positionals(args, [], 0, usage);
    const dryRun = args.values['dry-run'] === true;
    const r = await repairLinks(ctx.layout, { dryRun }, ctx.runtime, writeOptions(ctx));
    const lines: string[] = [];
    if (r.repairs.length === 0) lines.push('No dangling supersession links.');
    else {
      const verb = dryRun ? 'Would remove' : `${green('✓')} Removed`;
      lines.push(`${verb} ${r.repairs.length} dangling link(s) in ${r.files.length} file(s):`);
      for (const x of r.repairs) lines.push(line(x));
      if (dryRun) lines.push(dim('apply: maestro spec link repair'));
    }
    if (r.skipped.length) {
      lines.push(`Left ${r.skipped.length} link(s) on legacy "### [category]" entries (edit them by hand):`);
      for (const x of r.skipped) lines.push(line(x));
    }
    return { data: r, text: lines.join('\n') };
  },
};

import { inputError } from '@maestro/core';
import { mergeDriver } from '@maestro/git';
import type { CommandModule } from '../kit.js';

const usage = 'maestro merge-driver <ancestor> <ours> <theirs> [<marker-size>] <path>';

/**
 * What git runs (`merge.maestro.driver`, set by `maestro git install`) for a spec or knowhow file
 * both branches changed: `%O %A %B %L %P`. Writes the merge over `<ours>`; exit 1 leaves markers.
 */
export const command: CommandModule = {
  usage,
  summary: 'Git merge driver: three-way merge of a spec file by entry, of a knowhow file by document',
  options: {},
  optionHelp: {},
  examples: [
    'git config merge.maestro.driver "maestro merge-driver %O %A %B %L %P"   # what `maestro git install` sets',
    'maestro merge-driver base.md ours.md theirs.md .workflow/specs/coding-conventions.md',
  ],
  async run(ctx, args) {
    const p = args.positionals;
    if (p.length !== 4 && p.length !== 5) {
      throw inputError('USAGE', `merge-driver takes 4 or 5 arguments, got ${p.length}`, {
        hint: `usage: ${usage} (git passes them: %O %A %B %L %P)`,
      });
    }
    const [base, ours, theirs] = p;
    const path = p[p.length - 1];
    const markerSize = p.length === 5 ? Number(p[3]) : 7;
    if (!Number.isInteger(markerSize) || markerSize < 1) {
      throw inputError('USAGE', `marker size must be a whole number ≥ 1 (got "${p[3]}")`, { hint: `usage: ${usage}` });
    }
    const r = await mergeDriver({ base, ours, theirs, path, markerSize });
    const warnings: string[] = [];
    if (r.fallback) warnings.push(`maestro merge-driver: ${path}: ${r.fallback}; used git's text merge instead`);
    for (const c of r.conflicts) {
      warnings.push(
        `maestro merge-driver: ${path}: conflict (${c.kind}) in ${c.key}: resolve the markers, then git add`,
      );
    }
    const n = r.counts;
    const summary = n
      ? `${n.entries} entr${n.entries === 1 ? 'y' : 'ies'}: ${n.ours} from ours, ${n.theirs} from theirs, ${n.deleted} deleted`
      : "git's text merge";
    const text = ctx.json ? '' : `maestro merge-driver: ${path}: ${r.clean ? 'merged' : 'conflicts left'} (${summary})`;
    return { data: { schema_version: 'maestro-merge/1.0', ...r }, text, warnings, exitCode: r.clean ? 0 : 1 };
  },
};

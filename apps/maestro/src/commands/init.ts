import { statSync } from 'node:fs';
import { inputError } from '@maestro/core';
import { initWorkflow } from '@maestro/spec';
import type { CommandModule } from '../kit.js';
import { dim, green } from '../style.js';

export const command: CommandModule = {
  usage: 'maestro init [--workflow-root <dir>]',
  summary: 'Create the .workflow/ skeleton (seed spec files, knowhow/, sessions/); safe to rerun',
  options: {},
  optionHelp: {},
  examples: ['maestro init', 'maestro init --workflow-root ./my-project --json'],
  async run(ctx) {
    if (statSync(ctx.layout.workflow, { throwIfNoEntry: false })?.isDirectory() === false) {
      throw inputError('NO_WORKFLOW', `${ctx.layout.workflow} is a file, not the .workflow/ directory`, {
        hint: 'move that file away, then rerun `maestro init`',
      });
    }
    const result = await initWorkflow(ctx.layout);
    const changed = result.created.length + result.updated.length > 0;
    const lines = changed
      ? [
          `${green('✓')} Initialised ${ctx.layout.workflow}`,
          ...result.created.map((p) => `  created ${p}`),
          ...result.updated.map((p) => `  updated ${p} (added missing lines, kept yours)`),
        ]
      : [`Already initialised: ${ctx.layout.workflow} (nothing changed)`];
    lines.push(dim(`next: maestro spec add coding "Use UTC timestamps" "Store and compare times in UTC."`));
    return { data: result, text: lines.join('\n') };
  },
};

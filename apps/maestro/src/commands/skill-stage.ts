import { resolve } from 'node:path';
import type { CommandModule } from '../kit.js';
import { dim, green, yellow } from '../style.js';
import { onePositional, requiredOption } from './ledger-args.js';

const usage = 'maestro skill stage <folder> --session S --run R [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Stage a run’s proposed skill folder as a candidate version (reconciled against the project’s skills)',
  options: { session: { type: 'string' }, run: { type: 'string' } },
  optionHelp: { session: 'the session (required)', run: 'the running run that proposes the skill (required)' },
  examples: ['maestro skill stage ./out/deploy-preview --session 20260101-deploy --run 20260101-001-build'],
  needsWorkflow: true,
  async run(ctx, args) {
    const folder = resolve(ctx.cwd, onePositional(args, 'folder', usage));
    const example = 'maestro skill stage ./my-skill --session S --run R';
    const session_id = requiredOption(args, 'session', example);
    const run_id = requiredOption(args, 'run', example);
    const { stageSkill } = await import('@maestro/skills');
    const out = await stageSkill(ctx.layout, { session_id, run_id, folder }, ctx.runtime);
    const c = out.candidate;
    const text = [
      `${out.reused ? 'Already staged' : green('Staged')} ${c.candidate_id} (${c.name}, ${c.files.length} file(s)) on ${run_id}`,
      `  ${c.reconciliation.review_required ? yellow(c.reconciliation.verdict) : c.reconciliation.verdict}: ${c.reconciliation.explanation}`,
      dim(`  next: maestro skill evaluate ${c.name} --candidate ${c.candidate_id} --evidence <file>`),
    ].join('\n');
    return { data: out, text };
  },
};

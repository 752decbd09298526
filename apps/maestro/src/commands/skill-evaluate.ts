import { resolve } from 'node:path';
import type { CommandModule } from '../kit.js';
import { dim, green, red } from '../style.js';
import { onePositional, requiredOption } from './ledger-args.js';

const usage = 'maestro skill evaluate <name> --candidate V --evidence F [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Record an evaluation of a candidate from an evidence file (cases: expected vs observed)',
  options: { candidate: { type: 'string' }, evidence: { type: 'string' } },
  optionHelp: {
    candidate: 'the candidate id (SKC-…) from `skill stage` or `skill status`',
    evidence: 'the evidence JSON (schemas/skill-evidence.schema.json)',
  },
  examples: ['maestro skill evaluate deploy-preview --candidate SKC-0123456789abcdef --evidence eval.json'],
  needsWorkflow: true,
  async run(ctx, args) {
    const name = onePositional(args, 'name', usage);
    const candidate = requiredOption(args, 'candidate', usage);
    const evidence = resolve(ctx.cwd, requiredOption(args, 'evidence', usage));
    const { evaluateSkill } = await import('@maestro/skills');
    const r = await evaluateSkill(ctx.layout, { name, candidate, evidence }, ctx.runtime);
    const lines = [
      `${r.passed ? green('Passed') : red('Failed')}: ${r.pass_count}/${r.cases.length} case(s) for ${candidate} (${r.id})`,
      ...r.cases.filter((c) => !c.passed).map((c) => `  ${red('✗')} ${c.id}: ${c.reasons.join('; ')}`),
      dim(
        r.passed
          ? `  next: maestro skill release ${name} ${candidate} --reason "…"`
          : '  fix the skill, stage it again and evaluate the new candidate',
      ),
    ];
    return { data: r, text: lines.join('\n'), exitCode: r.passed ? 0 : 1 };
  },
};

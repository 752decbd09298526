import { inputError } from '@maestro/core';
import type { PackEvalOutputData } from '@maestro/packs';
import type { CommandModule } from '../kit.js';
import { green, red } from '../style.js';
import { SCOPE_HELP, SCOPE_OPTIONS, scopeOptions, str } from './pack-args.js';

const usage = 'maestro pack eval <pack> --suite <file> [--json]';

function render(out: PackEvalOutputData): string {
  const lines = out.results.map(
    (r) => `  ${r.passed ? green('pass') : red('FAIL')} ${r.id}: expected ${r.expected}, got ${r.actual} — ${r.prompt}`,
  );
  const rate = `${(out.summary.pass_rate * 100).toFixed(1)}%`;
  lines.push(`${out.summary.passed}/${out.summary.total} passed (${rate}) for ${out.pack} with ${out.suite}`);
  return lines.join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'Run a selection-eval suite against a pack and report the pass rate (exit 1 if any case fails)',
  options: { suite: { type: 'string' }, ...SCOPE_OPTIONS },
  optionHelp: { suite: 'selection-eval JSON (relative to the current directory, or else to the pack)', ...SCOPE_HELP },
  examples: [
    'maestro pack eval acme-widget --suite evals/discovery.validation.json',
    'maestro pack eval ./packs/acme-widget --suite suite.json --json',
  ],
  async run(ctx, args) {
    const suite = str(args, 'suite');
    if (args.positionals.length !== 1 || !suite) {
      throw inputError('USAGE', !suite ? '--suite <file> is required' : 'expected exactly one <pack> (name or path)', {
        hint: `usage: ${usage}`,
      });
    }
    const { evalPack } = await import('@maestro/packs');
    const out = evalPack({ ...(await scopeOptions(ctx, args)), pack: args.positionals[0], suite });
    return { data: out, text: render(out), exitCode: out.ok ? 0 : 1 };
  },
};

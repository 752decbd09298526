import { inputError } from '@maestro/core';
import type { PackValidateOutputData } from '@maestro/packs';
import type { CommandModule } from '../kit.js';
import { green, red, yellow } from '../style.js';
import { SCOPE_HELP, SCOPE_OPTIONS, scopeOptions } from './pack-args.js';

const usage = 'maestro pack validate <path|name> [--json]';

/** Agent Skills validator style: a one-line verdict, then `  - <file>[:line]: <field>: <message>`. */
function render(out: PackValidateOutputData): string {
  const line = (f: PackValidateOutputData['findings'][number]) => {
    const where = `${f.file}${f.line ? `:${f.line}` : ''}`;
    const tag = f.severity === 'error' ? red('error') : yellow('warning');
    return `  - ${where}: ${tag}: ${f.message}${f.hint ? ` (${f.hint})` : ''}`;
  };
  const head = out.ok
    ? `${green('Valid pack:')} ${out.pack}${out.warnings ? ` (${out.warnings} warning${out.warnings === 1 ? '' : 's'})` : ''}`
    : `${red('Validation failed for')} ${out.pack}: ${out.errors} error(s), ${out.warnings} warning(s)`;
  return [head, ...out.findings.map(line)].join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'Check a pack against the Agent Knowledge standard (exit 0 ok, 1 findings, 2 bad argument)',
  options: { ...SCOPE_OPTIONS },
  optionHelp: { ...SCOPE_HELP },
  examples: ['maestro pack validate ./.agents/knowledge/acme-widget', 'maestro pack validate brand-glossary --json'],
  async run(ctx, args) {
    if (args.positionals.length !== 1) {
      throw inputError(
        'USAGE',
        args.positionals.length === 0 ? 'missing <path|name>' : `unexpected argument "${args.positionals[1]}"`,
        { hint: `usage: ${usage}` },
      );
    }
    const { validatePackTarget } = await import('@maestro/packs');
    const out = validatePackTarget(args.positionals[0], await scopeOptions(ctx, args));
    return { data: out, text: render(out), exitCode: out.ok ? 0 : 1 };
  },
};

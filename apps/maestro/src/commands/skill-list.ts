import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { atMostPositionals } from './ledger-args.js';
import { ROOT_HELP, ROOT_OPTIONS, skillRoots } from './skill-args.js';

const usage = 'maestro skill list [--all] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'List the skills agents can use (workspace over user; disabled ones only with --all)',
  options: { ...ROOT_OPTIONS, all: { type: 'boolean' } },
  optionHelp: { ...ROOT_HELP, all: 'include disabled skills' },
  examples: ['maestro skill list', 'maestro skill list --all --json'],
  async run(ctx, args) {
    atMostPositionals(args, 0, usage);
    const { skillCatalog } = await import('@maestro/skills');
    const catalog = skillCatalog(ctx.layout, skillRoots(ctx, args), args.values.all === true);
    const lines = catalog.skills.map(
      (s) =>
        `${s.name}${s.version === null ? '' : ` v${s.version}`} [${s.scope}]${s.disabled ? ' [DISABLED]' : ''} ${dim(s.description ?? '(no description)')}`,
    );
    if (catalog.hidden) lines.push(dim(`${catalog.hidden} disabled skill(s) hidden (--all shows them)`));
    return {
      data: catalog,
      text: lines.length ? lines.join('\n') : 'No skills (put one in .agents/skills/<name>/SKILL.md).',
      warnings: catalog.diagnostics.map((d) => d.message),
    };
  },
};

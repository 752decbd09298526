import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { ROOT_HELP, ROOT_OPTIONS, skillRoots } from './skill-args.js';

const usage = 'maestro skill search "<query>" [--limit N] [--json]';

export const command: CommandModule = {
  usage,
  summary: 'Find skills by name and description (the catalog; load the body with skill load)',
  options: { ...ROOT_OPTIONS, limit: { type: 'string' } },
  optionHelp: { ...ROOT_HELP, limit: 'at most N hits (default 10)' },
  examples: ['maestro skill search "deploy a preview"', 'maestro skill search 发布 --json'],
  async run(ctx, args) {
    const query = args.positionals.join(' ').trim();
    if (!query) throw inputError('USAGE', 'missing <query>', { hint: `usage: ${usage}` });
    const raw = typeof args.values.limit === 'string' ? args.values.limit : '10';
    if (!/^\d+$/.test(raw) || Number(raw) < 1)
      throw inputError('USAGE', `--limit "${raw}" is not a positive number`, { hint: 'e.g. --limit 5' });
    const { searchSkills, skillCatalog } = await import('@maestro/skills');
    const hits = searchSkills(skillCatalog(ctx.layout, skillRoots(ctx, args)).skills, query, Number(raw));
    const text = hits.length
      ? hits.map((h) => `${h.score.toFixed(2)} ${h.name} [${h.scope}] ${dim(h.description ?? '')}`).join('\n')
      : `No skill matches "${query}".`;
    return { data: { query, hits }, text };
  },
};

import type { CommandModule } from '../kit.js';
import { onePositional } from './ledger-args.js';
import { AGENT_HELP, AGENT_OPTION, memoryTarget, storeLine } from './memory-args.js';

const usage = 'maestro memory show <id> [--agent A]';

export const command: CommandModule = {
  usage,
  summary: 'Show one memory with its scope, source, promotions and history',
  options: { ...AGENT_OPTION },
  optionHelp: { ...AGENT_HELP },
  examples: ['maestro memory show M-0123456789', 'maestro memory show M-0123456789 --json'],
  async run(ctx, args) {
    const id = onePositional(args, 'id', usage);
    const { showMemory } = await import('@maestro/memory');
    const { store, record: r } = showMemory(memoryTarget(ctx, args), id);
    const scope = Object.entries(r.scope)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const lines = [
      `${r.id}  ${r.kind}`,
      r.text,
      `confidence ${r.confidence.toFixed(2)} · recalled ${r.recall_count}× in ${r.recalled_sessions.length} session(s)${r.last_recalled_at ? ` · last ${r.last_recalled_at}` : ''}`,
      `scope: ${scope || '(none)'} · source: ${r.source.kind} · created ${r.created_at}`,
    ];
    if (r.corrects) lines.push(`corrects: ${r.corrects}`);
    for (const p of r.promotions)
      lines.push(
        `promoted: ${p.candidate_id} (${p.action}${p.against ? ` ${p.against}` : ''}) on ${p.session_id}/${p.run_id}`,
      );
    lines.push('history:');
    for (const h of r.history)
      lines.push(
        `  ${h.at} ${h.action}${h.from_id ? ` ${h.from_id}` : ''}${h.text ? `: ${h.text}` : ''}${h.note ? ` (${h.note})` : ''}`,
      );
    lines.push(storeLine(store));
    return { data: { store, record: r }, text: lines.join('\n') };
  },
};

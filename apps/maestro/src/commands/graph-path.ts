import { inputError } from '@maestro/core';
import type { GraphPathResult } from '@maestro/graph';
import type { CommandModule } from '../kit.js';
import { dim } from '../style.js';
import { nodeLine, where } from './graph-show.js';

const usage = 'maestro graph path <a> <b> [--edge kind]... [--read-only]';

function render(r: GraphPathResult): string {
  if (!r.found) return `No path between ${r.from.entry_id ?? r.from.id} and ${r.to.entry_id ?? r.to.id} within 8 hops.`;
  if (r.hops.length === 0) return `${nodeLine(r.from)} is the same node.`;
  const lines = [nodeLine(r.from)];
  for (const h of r.hops) {
    const arrow = h.edge.direction === 'out' ? '→' : '←';
    lines.push(
      `  ${arrow} ${h.edge.kind}${h.edge.detail ? ` ${h.edge.detail}` : ''}  ${dim(where(h.edge.file, h.edge.line))}`,
    );
    lines.push(nodeLine(h.node));
  }
  return lines.join('\n');
}

export const command: CommandModule = {
  usage,
  summary: 'The shortest chain of relations between two nodes of the knowledge graph',
  options: { edge: { type: 'string', multiple: true }, 'read-only': { type: 'boolean' } },
  optionHelp: {
    edge: 'only follow these edge kinds (repeatable or comma-separated)',
    'read-only': 'do not save the updated graph (answer from memory)',
  },
  examples: [
    'maestro graph path S-20260101-ab12 20260301-auth',
    'maestro graph path S-20260101-ab12 KDC-0123456789abcdef --json',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length !== 2)
      throw inputError('USAGE', 'graph path takes two ids', { hint: `usage: ${usage}` });
    const { graphPath } = await import('@maestro/graph');
    const [a, b] = args.positionals;
    const r = await graphPath(ctx.layout, a, b, {
      edges: (args.values.edge as string[] | undefined) ?? [],
      readOnly: args.values['read-only'] === true,
    });
    return { data: r, text: render(r), warnings: r.warnings };
  },
};

import { inputError } from '@maestro/core';
import type { GraphShowResult, NodeView } from '@maestro/graph';
import type { CommandModule, ParsedArgs } from '../kit.js';
import { bold, cyan, dim } from '../style.js';

const usage = 'maestro graph show <id> [--depth n] [--edge kind]... [--read-only]';

/** An entry by its canonical id and title; a session, run or candidate by its graph id (and a candidate's title). */
export function nodeLine(n: NodeView): string {
  const status = n.status && n.status !== 'active' ? ` ${dim(n.status)}` : '';
  const label = n.entry_id || n.kind === 'candidate' ? ` ${bold(n.label)}` : '';
  return `${cyan(n.entry_id ?? n.id)}${label} ${dim(`(${n.kind})`)}${status}`;
}

export const where = (file: string, line: number | null) => `.workflow/${file}${line ? `:${line}` : ''}`;

function render(r: GraphShowResult): string {
  const lines = [nodeLine(r.node), dim(`  ${r.node.id} · ${where(r.node.file, r.node.line)}`)];
  if (r.node.aliases.length) lines.push(dim(`  aliases: ${r.node.aliases.join(', ')}`));
  lines.push('');
  if (r.neighbours.length === 0) lines.push(`No neighbours${r.edge_kinds ? ` over ${r.edge_kinds.join(', ')}` : ''}.`);
  for (const n of r.neighbours) {
    const arrow = n.edge.direction === 'out' ? '→' : '←';
    const detail = n.edge.detail ? ` ${n.edge.detail}` : '';
    lines.push(`${'  '.repeat(n.depth)}${arrow} ${n.edge.kind}${detail}  ${nodeLine(n.node)}`);
    lines.push(dim(`${'  '.repeat(n.depth)}    from ${where(n.edge.file, n.edge.line)}`));
  }
  if (r.truncated) lines.push('', dim('more neighbours than shown: narrow with --edge or lower --depth'));
  return lines.join('\n');
}

function depthOption(args: ParsedArgs): number | undefined {
  const raw = args.values.depth;
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) {
    throw inputError('GRAPH_BAD_OPTION', `--depth must be a whole number (got ${JSON.stringify(raw)})`, {
      hint: 'for example --depth 2',
    });
  }
  return Number(raw);
}

export const command: CommandModule = {
  usage,
  summary: 'Show a node of the knowledge graph and its neighbours, with where each relation is written',
  options: { depth: { type: 'string' }, edge: { type: 'string', multiple: true }, 'read-only': { type: 'boolean' } },
  optionHelp: {
    depth: 'hops to follow, 1–5 (default 1)',
    edge: 'only these edge kinds (repeatable or comma-separated), e.g. supersedes, resolved_as, contradicted',
    'read-only': 'do not save the updated graph (answer from memory)',
  },
  examples: [
    'maestro graph show S-20260101-ab12',
    'maestro graph show spec:project:coding-conventions-001 --depth 2',
    'maestro graph show S-20260101-ab12 --edge contradicted --edge consumed --json',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    if (args.positionals.length !== 1) {
      throw inputError('USAGE', args.positionals.length ? 'graph show takes one id' : 'missing <id>', {
        hint: `usage: ${usage}`,
      });
    }
    const { graphShow } = await import('@maestro/graph');
    const r = await graphShow(ctx.layout, args.positionals[0], {
      depth: depthOption(args),
      edges: (args.values.edge as string[] | undefined) ?? [],
      readOnly: args.values['read-only'] === true,
    });
    return { data: r, text: render(r), warnings: r.warnings };
  },
};

import type { ContextOutputData } from '@maestro/context';
import type { Expansion } from '@maestro/graph';
import type { RecalledMemories } from '@maestro/memory';
import type { CommandContext } from '../kit.js';
import { expandTop, neighboursBlock } from './graph-expand.js';

// The blocks `maestro context` adds after the package's recalled knowledge and packs.

/** The `<recalled-memories>` block goes after the knowledge and the packs (seed 003: memory is the agent's, not the project's). */
export function withMemories(k: ContextOutputData, budget: number, m: RecalledMemories): ContextOutputData {
  const blocks = m.block ? [...k.blocks, { name: 'recalled-memories', tokens: m.tokens, ids: m.ids }] : k.blocks;
  return {
    ...k,
    budget,
    context: k.context + m.block,
    token_estimate: k.token_estimate + m.tokens,
    blocks,
    recalled_memories: { agent: m.agent, ids: m.ids },
  };
}

/**
 * `--expand`: the graph neighbours of the top recalled entries (successors, rules resolved as
 * related…), labelled, in their own data block after the recalled knowledge, within what the
 * budget leaves. The expansion itself is in the JSON either way.
 */
export async function withNeighbours(
  ctx: CommandContext,
  data: ContextOutputData,
  warnings: string[],
): Promise<ContextOutputData & { expanded?: Expansion }> {
  if (data.specs.length === 0) return data;
  const expanded = await expandTop(
    ctx.layout,
    data.specs.map((s) => s.id),
    false,
  );
  const block = await neighboursBlock(
    ctx.layout,
    expanded,
    new Set(data.specs.map((s) => s.id)),
    data.budget - data.token_estimate,
  );
  if (block.left.length)
    warnings.push(`${block.left.length} graph neighbour(s) did not fit the budget: ${block.left.join(', ')}`);
  if (!block.text) return { ...data, expanded };
  return {
    ...data,
    context: data.context + block.text,
    token_estimate: data.token_estimate + block.tokens,
    specs: [...data.specs, ...block.entries.map((e) => ({ id: e.id, title: e.title, category: e.category }))],
    blocks: [...data.blocks, { name: 'graph-neighbours', tokens: block.tokens, ids: block.entries.map((e) => e.id) }],
    expanded,
  };
}

import type { RecalledEntry } from '@maestro/context';
import type { WorkflowLayout } from '@maestro/fs';
import type { Expansion } from '@maestro/graph';
import type { OptionSpec } from '../kit.js';
import { cyan, dim } from '../style.js';

/** `--expand` on `search` and `context`: one-hop graph neighbours of the top hits. */
export const EXPAND_OPTION: OptionSpec = { expand: { type: 'boolean' } };
export const EXPAND_HELP = {
  expand:
    'add the knowledge-graph neighbours of the top 3 hits (successors, rules resolved as related; capped, labelled)',
};
/** Hits whose neighbours are added. */
export const EXPAND_TOP = 3;

/** Opens the graph (best effort: saving it may fail, answering never does) and expands the top hits. */
export async function expandTop(
  layout: Parameters<typeof import('@maestro/graph').expandHits>[0],
  ids: readonly string[],
  readOnly: boolean,
): Promise<Expansion> {
  const { expandHits } = await import('@maestro/graph');
  return expandHits(layout, ids.slice(0, EXPAND_TOP), { readOnly });
}

/** The labelled block printed under the results. */
export function expansionText(e: Expansion): string {
  const lines: string[] = [];
  for (const hit of e.hits) {
    for (const n of hit.neighbours) {
      const status = n.status && n.status !== 'active' ? ` ${dim(n.status)}` : '';
      lines.push(
        `  ${cyan(n.id)} ${n.title}${status}  ${dim(`${n.relation} of ${hit.id} · .workflow/${n.file}${n.line ? `:${n.line}` : ''}`)}`,
      );
    }
  }
  if (lines.length === 0) return dim('graph: the top hits have no related entries');
  const more = e.truncated ? dim(' (capped; `maestro graph show <id>` lists all)') : '';
  return [`Related through the knowledge graph${more}:`, ...lines].join('\n');
}

/**
 * `context --expand`: each active neighbour not already recalled, its title labelled with the
 * relation, rendered as recalled knowledge (data, neutralised) while it fits `room` tokens.
 */
export async function neighboursBlock(
  layout: WorkflowLayout,
  e: Expansion,
  recalled: ReadonlySet<string>,
  room: number,
): Promise<{ text: string; tokens: number; entries: RecalledEntry[]; left: string[] }> {
  const [{ loadCorpus }, { renderRecalled }, { estimateTokens }] = await Promise.all([
    import('@maestro/spec'),
    import('@maestro/context'),
    import('@maestro/packs'),
  ]);
  const byId = loadCorpus(layout).byId;
  const entries: RecalledEntry[] = [];
  const left: string[] = [];
  const seen = new Set(recalled);
  for (const hit of e.hits) {
    for (const n of hit.neighbours) {
      const entry = byId.get(n.id);
      if (entry?.status !== 'active' || seen.has(n.id)) continue;
      seen.add(n.id);
      const next: RecalledEntry = {
        id: entry.id,
        title: `${entry.title} (${n.relation} of ${hit.id})`,
        category: entry.category,
        file: entry.file,
        score: 0,
        text: entry.content,
        contested: null,
        cut: false,
      };
      if (estimateTokens(renderRecalled([...entries, next])) <= room) entries.push(next);
      else left.push(entry.id);
    }
  }
  const text = renderRecalled(entries);
  return { text, tokens: text ? estimateTokens(text) : 0, entries, left };
}

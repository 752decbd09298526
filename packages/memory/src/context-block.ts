import { DATA_PREFACE, estimateTokens, neutraliseTags } from '@maestro/packs';
import { markRecalled, recallMemories } from './ops.js';
import { locate, type MemoryTarget } from './records.js';

export const MEMORY_ELEMENT = 'recalled-memories';
/** The block's cap: 400 tokens and at most a fifth of the context budget, so memories never crowd knowledge out. */
export const MEMORY_CONTEXT_TOKENS = 400;
export const MEMORY_BUDGET_SHARE = 0.2;
export const MEMORY_CONTEXT_LIMIT = 5;
/** A prompt hook waits at most this long for a busy store before showing memories uncounted. */
const HOOK_LOCK_MS = 1_000;

export interface RecalledMemories {
  /** The `<recalled-memories>` block, or '' when nothing is relevant (or the agent has no store). */
  block: string;
  agent: string;
  ids: string[];
  /** Estimated tokens of `block` (0 when empty). */
  tokens: number;
  /** Why memory was left out, for stderr; never fatal for a prompt hook. */
  warning: string | null;
}

/**
 * The prompt-time block for the current agent: recall (threshold 0.4), at most 5 memories within
 * min(400 tokens, a fifth of the budget), wrapped as data with every tag neutralised so a memory cannot close the block or
 * open another. Only the calling agent's store is read. Recall counts are bumped for what is shown.
 */
export async function recalledMemoriesBlock(
  t: MemoryTarget,
  prompt: string,
  options: { session?: string; budget?: number } = {},
): Promise<RecalledMemories> {
  const { session } = options;
  const cap = Math.min(
    MEMORY_CONTEXT_TOKENS,
    Math.floor((options.budget ?? Number.POSITIVE_INFINITY) * MEMORY_BUDGET_SHARE),
  );
  let agent = t.agent ?? (t.env.MAESTRO_AGENT?.trim() || 'default');
  try {
    const r = await recallMemories(t, prompt, { limit: MEMORY_CONTEXT_LIMIT, session, record: false });
    agent = r.store.agent;
    const head = `<${MEMORY_ELEMENT} agent="${neutraliseTags(agent)}" mode="data">\n${DATA_PREFACE}\nThese are this agent's private memories of earlier work (probabilistic, not project rules).\n`;
    const tail = `</${MEMORY_ELEMENT}>\n`;
    let used = estimateTokens(head) + estimateTokens(tail);
    const lines: string[] = [];
    const ids: string[] = [];
    for (const h of r.hits) {
      const line = `- [${h.kind}, ${h.id}, relevance ${h.relevance.toFixed(2)}] ${neutraliseTags(h.text.replace(/\s+/g, ' '))}\n`;
      const cost = estimateTokens(line);
      if (used + cost > cap) continue;
      used += cost;
      lines.push(line);
      ids.push(h.id);
    }
    if (ids.length === 0) return { block: '', agent, ids, tokens: 0, warning: null };
    // Counted as recalled only what is shown; a busy store (lock timeout) must not fail the prompt.
    const marked = await markRecalled(locate(t), t, ids, session, { timeoutMs: HOOK_LOCK_MS }).then(
      () => null,
      (err: Error) => `recall counts not updated: ${err.message}`,
    );
    return { block: `${head}${lines.join('')}${tail}`, agent, ids, tokens: used, warning: marked };
  } catch (err) {
    return { block: '', agent, ids: [], tokens: 0, warning: `memories not recalled: ${(err as Error).message}` };
  }
}

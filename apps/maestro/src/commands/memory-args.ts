import type { MemoryRecord, MemoryTarget, StoreInfoData } from '@maestro/memory';
import type { CommandContext, OptionSpec, ParsedArgs } from '../kit.js';
import { dim } from '../style.js';
import { optionalString } from './ledger-args.js';

/** `--agent` on every memory command. */
export const AGENT_OPTION: OptionSpec = { agent: { type: 'string' } };
export const AGENT_HELP = {
  agent: 'whose memory: default $MAESTRO_AGENT, else "default"; each agent has its own private store',
};

/** The store a command works on: this project, the agent from --agent or MAESTRO_AGENT. */
export function memoryTarget(ctx: CommandContext, args: ParsedArgs): MemoryTarget {
  return { root: ctx.root, agent: optionalString(args, 'agent'), env: ctx.env, runtime: ctx.runtime };
}

/** One line per record: id, kind, confidence, recalls, text. */
export function recordLine(r: MemoryRecord): string {
  const text = r.text.replace(/\s+/g, ' ');
  return `${r.id}  ${r.kind.padEnd(10)} conf ${r.confidence.toFixed(2)}  recalled ${r.recall_count}×  ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`;
}

export function storeLine(store: StoreInfoData): string {
  return dim(`store: ${store.dir}`);
}

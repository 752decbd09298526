import { statSync } from 'node:fs';
import { inputError } from '@maestro/core';
import type { CommandContext, CommandModule, ParsedArgs } from '../kit.js';
import { withMemories, withNeighbours } from './context-blocks.js';
import { EXPAND_HELP, EXPAND_OPTION } from './graph-expand.js';
import {
  budgetOption,
  SCOPE_HELP,
  SCOPE_OPTIONS,
  scopeOptions,
  str,
  strings,
  TIER_HELP,
  TIER_OPTIONS,
} from './pack-args.js';
import { resolveWarnings } from './pack-resolve.js';

const usage =
  'maestro context <prompt> [--budget n] [--catalog] [--no-guide] [--expand] [--session S --run R] [--agent A] [--json] | maestro context --hook claude|codex';

/**
 * The empty memory block when the agent has no memory store (what `recalledMemoriesBlock` answers
 * then), without loading the memory package; null when there is a store to read, or anything else
 * (a bad agent name, an unreadable store) for `recalledMemoriesBlock` to report as it does.
 */
async function noMemoryStore(t: { root: string; agent: string | undefined; env: NodeJS.ProcessEnv }) {
  const { memoryLocation, resolveAgent } = await import('@maestro/memory/location');
  let loc: { records: string; agent: string };
  try {
    loc = memoryLocation(t.root, resolveAgent(t.agent, t.env), t.env);
  } catch {
    return null;
  }
  try {
    statSync(loc.records);
    return null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return null;
  }
  return { block: '', agent: loc.agent, ids: [] as string[], tokens: 0, warning: null };
}

/** The prompt hook's default budget: the context should be small next to the prompt itself. */
const HOOK_BUDGET = 1500;

/**
 * `--hook <agent>`: the agent's event JSON comes on stdin (so the prompt is never parsed as
 * options and has no size limit) and the answer is the agent's documented JSON on stdout. Any
 * failure is silent (exit 0, nothing printed) and logged; see `hookGuard` in the CLI.
 */
async function runHook(ctx: CommandContext, args: ParsedArgs, agent: string) {
  if (agent !== 'claude' && agent !== 'codex') {
    throw inputError('USAGE', `--hook must be claude or codex (got ${JSON.stringify(agent)})`, {
      hint: `usage: ${usage}`,
    });
  }
  if (args.positionals.length > 0 || ctx.json) {
    throw inputError('USAGE', '--hook reads the event from stdin: pass no prompt and no --json', {
      hint: `usage: ${usage}`,
    });
  }
  // The lean entry: no zod, and no pack code unless a pack scope exists (this runs on every prompt).
  const { answerHook } = await import('@maestro/context/hook');
  const scopes = await scopeOptions(ctx, args);
  const stdin = await ctx.readStdin();
  const budget = budgetOption(args, HOOK_BUDGET);
  const { stdout, warnings } = await answerHook(ctx.layout, agent, stdin, { ...scopes, budget }, ctx.runtime);
  // Warnings go to the log, not stderr: the hook says nothing but its answer.
  if (warnings.length > 0) {
    const { logHookFailure } = await import('@maestro/hooks/io');
    for (const w of warnings) logHookFailure(ctx.layout.workflow, ctx.runtime.now(), `${agent} warning: ${w}`);
  }
  return { data: null, text: stdout, warnings: [] };
}

export const command: CommandModule = {
  usage,
  summary: 'Context for an agent prompt: relevant specs and matching packs, wrapped as data (exposure only)',
  options: {
    budget: { type: 'string' },
    session: { type: 'string' },
    run: { type: 'string' },
    hook: { type: 'string' },
    agent: { type: 'string' },
    ...EXPAND_OPTION,
    ...TIER_OPTIONS,
    ...SCOPE_OPTIONS,
  },
  optionHelp: {
    budget: 'hard token budget for everything printed, wrappers included (default 2000; 1500 with --hook)',
    session: 'with --run: the session the agent works in (attribution only; nothing is recorded on it)',
    run: 'with --session: the running run (context never records consumption; use `maestro load` for that)',
    hook: 'claude|codex: read the agent hook event (JSON) from stdin and answer in its format; fails open',
    agent: 'whose private memories to recall into <recalled-memories> (default $MAESTRO_AGENT, else "default")',
    ...EXPAND_HELP,
    ...TIER_HELP,
    ...SCOPE_HELP,
  },
  examples: [
    'maestro context "How do we store timestamps?"',
    'maestro context "$PROMPT" --budget 1200 --session 20260101-auth --run 20260101-001-plan --json',
    'echo \'{"hook_event_name":"UserPromptSubmit","prompt":"--help me with retries"}\' | maestro context --hook claude',
  ],
  async run(ctx, args) {
    const hook = str(args, 'hook');
    if (hook !== undefined) return runHook(ctx, args, hook);
    const prompt = args.positionals.join(' ').trim();
    if (!prompt) throw inputError('USAGE', 'missing <prompt>', { hint: `usage: ${usage}` });
    const session = str(args, 'session');
    const run = str(args, 'run');
    if ((session === undefined) !== (run === undefined)) {
      throw inputError('USAGE', 'pass --session and --run together, or neither', { hint: `usage: ${usage}` });
    }
    if (session !== undefined && run !== undefined) {
      const { readRun } = await import('@maestro/ledger');
      readRun(ctx.layout, session, run); // unknown session or run: exit 2 naming it
    }
    // The lean entries (no zod, no yaml, not the hook's event reader): the full packages load only
    // when there is something for them.
    const [{ promptContext }, { DEFAULT_BUDGET }] = await Promise.all([
      import('@maestro/context/prompt'),
      import('@maestro/packs/light'),
    ]);
    const budget = budgetOption(args, DEFAULT_BUDGET);
    // The agent's own memories first, so the knowledge and packs get what the memory block leaves.
    const target = { root: ctx.root, agent: str(args, 'agent'), env: ctx.env, runtime: ctx.runtime };
    const memories =
      (await noMemoryStore(target)) ??
      (await (await import('@maestro/memory')).recalledMemoriesBlock(target, prompt, { session, budget }));
    const scopes = await scopeOptions(ctx, args);
    const { data: knowledge, warnings } = await promptContext(
      ctx.layout,
      {
        ...scopes,
        prompt,
        budget: budget - memories.tokens,
        confirm: strings(args, 'confirm'),
        catalog: args.values.catalog === true,
        guide: args.values['no-guide'] !== true,
        session: session ?? null,
        run: run ?? null,
      },
      ctx.runtime,
    );
    if (memories.warning) warnings.push(memories.warning);
    let data = withMemories(knowledge, budget, memories);
    if (args.values.expand === true) data = await withNeighbours(ctx, data, warnings);
    return { data, text: data.context, warnings: [...warnings, ...resolveWarnings(data)] };
  },
};

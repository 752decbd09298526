import type { CommandModule } from './kit.js';

/**
 * Every command, with its one-line summary, and a lazy loader so that `maestro --help` and
 * `maestro --version` never load zod, yaml or the packages.
 */
export interface CommandEntry {
  path: string[];
  summary: string;
  load(): Promise<CommandModule>;
}

const c = (path: string, summary: string, load: () => Promise<{ command: CommandModule }>): CommandEntry => ({
  path: path.split(' '),
  summary,
  load: async () => (await load()).command,
});

export const COMMANDS: CommandEntry[] = [
  c('init', 'Create the .workflow/ skeleton in a project', () => import('./commands/init.js')),
  c('spec add', 'Add a rule or note to a category spec file', () => import('./commands/spec-add.js')),
  c('spec list', 'List spec entries (parse problems as warnings)', () => import('./commands/spec-list.js')),
  c('spec show', 'Show one spec entry', () => import('./commands/spec-show.js')),
  c('spec supersede', 'Supersede a spec entry by a newer one', () => import('./commands/spec-supersede.js')),
  c('spec deprecate', 'Deprecate a spec entry', () => import('./commands/spec-deprecate.js')),
  c('spec history', 'Show the supersession chain of a spec entry', () => import('./commands/spec-history.js')),
  c('spec health', 'Counts, broken links, cycles, stale entries', () => import('./commands/spec-health.js')),
  c('spec backfill-sid', 'Give entries without a sid a new sid', () => import('./commands/spec-backfill-sid.js')),
  c('spec conflict mark', 'Mark a spec entry as contested', () => import('./commands/spec-conflict-mark.js')),
  c('spec conflict clear', 'Clear a contested marker', () => import('./commands/spec-conflict-clear.js')),
  c('spec link repair', 'Remove supersession links that name no entry', () => import('./commands/spec-link-repair.js')),
  c('knowhow add', 'Add a knowhow document', () => import('./commands/knowhow-add.js')),
  c('knowhow list', 'List knowhow documents', () => import('./commands/knowhow-list.js')),
  c('knowhow show', 'Show a knowhow document', () => import('./commands/knowhow-show.js')),
  c('knowhow supersede', 'Supersede a knowhow document', () => import('./commands/knowhow-supersede.js')),
  c('knowhow history', 'Show a knowhow supersession chain', () => import('./commands/knowhow-history.js')),
  c('session create', 'Start a session for one piece of work', () => import('./commands/session-create.js')),
  c('session list', 'List sessions and their runs', () => import('./commands/session-list.js')),
  c('session show', 'Show a session: runs, candidates, inputs, backlog', () => import('./commands/session-show.js')),
  c('session seal', 'Seal a session whose runs are all sealed', () => import('./commands/session-seal.js')),
  c('run start', 'Start a run in a session', () => import('./commands/run-start.js')),
  c('run complete', 'Complete a run and stage its report.md decisions', () => import('./commands/run-complete.js')),
  c('run seal', 'Seal a completed run', () => import('./commands/run-seal.js')),
  c('knowledge stage', 'Stage a knowledge candidate on a running run', () => import('./commands/knowledge-stage.js')),
  c('knowledge record', 'Record knowledge a running run used', () => import('./commands/knowledge-record.js')),
  c(
    'knowledge review',
    'Review reconciliation verdicts; --refresh reconciles, --resolve/--all-as decide',
    () => import('./commands/knowledge-review.js'),
  ),
  c(
    'knowledge backlog',
    'Pending candidates across sessions; --expire-observed soft-rejects old ones',
    () => import('./commands/knowledge-backlog.js'),
  ),
  c(
    'knowledge promote',
    'Promote reconciled candidates into specs/knowhow (explicit, fenced, replay-safe)',
    () => import('./commands/knowledge-promote.js'),
  ),
  c(
    'knowledge audit',
    'Find problems; plan and apply a backed-up soft prune',
    () => import('./commands/knowledge-audit.js'),
  ),
  c(
    'knowledge gate',
    'Release gate: fresh receipts, resolved reviews, nothing half-applied, no P0 finding',
    () => import('./commands/knowledge-gate.js'),
  ),
  c(
    'review serve',
    'Serve the review page on 127.0.0.1: backlog, review, resolve, promote, audit',
    () => import('./commands/review-serve.js'),
  ),
  c(
    'merge-driver',
    'Git merge driver for specs (by entry) and knowhow (by document)',
    () => import('./commands/merge-driver.js'),
  ),
  c('git install', 'Use the Maestro merge driver in this repository', () => import('./commands/git-install.js')),
  c('git uninstall', 'Remove what `maestro git install` wrote', () => import('./commands/git-uninstall.js')),
  c('git status', 'Is the Maestro merge driver set up here?', () => import('./commands/git-status.js')),
  c('knowledge restore', 'Undo an audit --apply from its backup', () => import('./commands/knowledge-restore.js')),
  c('hooks install', 'Install Maestro hooks for Claude Code or Codex', () => import('./commands/hooks-install.js')),
  c(
    'hooks uninstall',
    'Remove Maestro hooks (restores the original file when untouched)',
    () => import('./commands/hooks-uninstall.js'),
  ),
  c('hooks status', 'Which Maestro hooks are installed where', () => import('./commands/hooks-status.js')),
  c('mcp', 'Serve Maestro knowledge tools to an agent over stdio (MCP)', () => import('./commands/mcp.js')),
  c('load', 'Print knowledge entries by id (records consumption with a run)', () => import('./commands/load.js')),
  c('search', 'Search specs and knowhow; exposure only, never consumption', () => import('./commands/search.js')),
  c(
    'graph show',
    'Show a knowledge-graph node and its neighbours (edge kinds, file:line)',
    () => import('./commands/graph-show.js'),
  ),
  c('graph path', 'Shortest chain of relations between two graph nodes', () => import('./commands/graph-path.js')),
  c(
    'pack list',
    'List knowledge packs in every scope: state, trust, shadowing',
    () => import('./commands/pack-list.js'),
  ),
  c('pack validate', 'Check a pack against the Agent Knowledge standard', () => import('./commands/pack-validate.js')),
  c(
    'pack resolve',
    'Select minimal pack context for a query, wrapped as data',
    () => import('./commands/pack-resolve.js'),
  ),
  c(
    'pack catalog',
    'Catalog block of activatable packs for a model prompt',
    () => import('./commands/pack-catalog.js'),
  ),
  c('pack guide', 'A pack’s guide and resource listing, wrapped as data', () => import('./commands/pack-guide.js')),
  c('pack eval', 'Run a selection-eval suite against a pack', () => import('./commands/pack-eval.js')),
  c('pack build', 'Export active specs and knowhow as a knowledge pack', () => import('./commands/pack-build.js')),
  c(
    'skill validate',
    'Check a skill folder (Agent Skills rules); scripts hashed, never run',
    () => import('./commands/skill-validate.js'),
  ),
  c('skill list', 'Skills agents can use (workspace over user)', () => import('./commands/skill-list.js')),
  c('skill search', 'Find skills by name and description', () => import('./commands/skill-search.js')),
  c('skill load', 'A skill’s instructions as a <skill_content> block', () => import('./commands/skill-load.js')),
  c('skill stage', 'Stage a run’s proposed skill as a candidate version', () => import('./commands/skill-stage.js')),
  c(
    'skill evaluate',
    'Record an evaluation of a skill candidate from evidence',
    () => import('./commands/skill-evaluate.js'),
  ),
  c('skill release', 'Release an evaluated candidate as the next version', () => import('./commands/skill-release.js')),
  c(
    'skill status',
    'Versions, candidates, evaluations and drift of a skill',
    () => import('./commands/skill-status.js'),
  ),
  c(
    'skill rollback',
    'Make an older version current (--expect guards races)',
    () => import('./commands/skill-rollback.js'),
  ),
  c('skill disable', 'Hide a skill from agents (history kept)', () => import('./commands/skill-disable.js')),
  c('skill enable', 'List a disabled skill to agents again', () => import('./commands/skill-enable.js')),
  c(
    'memory add',
    'Remember a fact privately for this agent (checked by the memory rules)',
    () => import('./commands/memory-add.js'),
  ),
  c(
    'memory list',
    'List this agent’s memories; --suggest names ones worth proposing',
    () => import('./commands/memory-list.js'),
  ),
  c('memory show', 'Show one memory with its history', () => import('./commands/memory-show.js')),
  c(
    'memory update',
    'Change a memory (the old text stays in its history)',
    () => import('./commands/memory-update.js'),
  ),
  c('memory delete', 'Forget memories for good (history included)', () => import('./commands/memory-delete.js')),
  c('memory rules set', 'Set what to remember and what never to store', () => import('./commands/memory-rules-set.js')),
  c('memory rules show', 'Show the memory rules', () => import('./commands/memory-rules-show.js')),
  c(
    'memory recall',
    'Recall memories relevant to a prompt (0–1, default 0.4)',
    () => import('./commands/memory-recall.js'),
  ),
  c(
    'memory consolidate',
    'Merge, resolve, decay and forget memories; --dry-run lists the changes',
    () => import('./commands/memory-consolidate.js'),
  ),
  c(
    'memory promote',
    'Stage memories as knowledge candidates for review (never writes specs)',
    () => import('./commands/memory-promote.js'),
  ),
  c('context', 'Context for an agent prompt: specs and packs wrapped as data', () => import('./commands/context.js')),
];

export function findCommand(words: readonly string[]): { entry: CommandEntry; rest: string[] } | null {
  let best: CommandEntry | null = null;
  for (const entry of COMMANDS) {
    if (entry.path.length > words.length) continue;
    if (entry.path.every((w, i) => words[i] === w) && (!best || entry.path.length > best.path.length)) best = entry;
  }
  return best ? { entry: best, rest: words.slice(best.path.length) } : null;
}

/** Commands under a noun, for `maestro spec` or `maestro spec --help`. */
export function commandsUnder(prefix: readonly string[]): CommandEntry[] {
  return COMMANDS.filter((e) => e.path.length > prefix.length && prefix.every((w, i) => e.path[i] === w));
}

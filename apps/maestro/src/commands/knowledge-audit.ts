import { type AuditScope, auditKnowledge, listBackups, storeWarnings } from '@maestro/audit';
import { inputError } from '@maestro/core';
import type { CommandModule } from '../kit.js';
import { backupsText, reportText } from './audit-text.js';

const usage =
  'maestro knowledge audit [--scope spec|knowhow|all] [--prune [--apply [--include-pending-targets]]] [--fail-on P0|P1|P2] | --backups';
const PRIORITIES = ['P0', 'P1', 'P2'] as const;

export const command: CommandModule = {
  usage,
  summary: 'Find corpus, ledger and usage problems; plan and apply a backed-up soft prune',
  options: {
    scope: { type: 'string' },
    prune: { type: 'boolean' },
    apply: { type: 'boolean' },
    'include-pending-targets': { type: 'boolean' },
    'fail-on': { type: 'string' },
    backups: { type: 'boolean' },
  },
  optionHelp: {
    scope: 'spec, knowhow or all (default); pipeline and usage checks always run',
    prune: 'also print the deterministic soft-prune plan (deprecate/supersede, both sides, never delete)',
    apply: 'apply the plan: back up to .workflow/.trash/, write atomically, log to .workflow/.knowledge-audit/',
    'include-pending-targets': 'also apply actions whose target a pending candidate with a fresh receipt matches',
    'fail-on': 'exit 1 when a finding of this priority or higher exists (for CI)',
    backups: 'list the backups of earlier applies (for `maestro knowledge restore`)',
  },
  examples: [
    'maestro knowledge audit',
    'maestro knowledge audit --scope spec --prune --json',
    'maestro knowledge audit --prune --apply',
    'maestro knowledge audit --fail-on P0',
    'maestro knowledge audit --backups',
  ],
  needsWorkflow: true,
  async run(ctx, args) {
    const v = args.values;
    if (args.positionals.length) {
      throw inputError('USAGE', `unexpected argument "${args.positionals[0]}"`, { hint: `usage: ${usage}` });
    }
    const failOn = v['fail-on'] as string | undefined;
    if (failOn !== undefined && !PRIORITIES.includes(failOn as never)) {
      throw inputError('USAGE', `--fail-on must be one of P0, P1, P2 (got "${failOn}")`, { hint: `usage: ${usage}` });
    }
    if (v.backups) {
      if (v.prune || v.apply || v.scope || failOn) {
        throw inputError('USAGE', '--backups lists backups and takes no other audit option', {
          hint: `usage: ${usage}`,
        });
      }
      const list = listBackups(ctx.layout);
      return { data: list, text: backupsText(list) };
    }
    ctx.progress('auditing the knowledge corpus…');
    const [{ readExposure }, { MATCHER_REVISION, readReceipt, receiptIsFresh }] = await Promise.all([
      import('@maestro/search'),
      import('@maestro/reconcile'),
    ]);
    const report = await auditKnowledge(ctx.layout, {
      exposure: readExposure,
      // The pending-target guard uses reconcile's own reader and three-fence freshness check.
      receipts: { read: readReceipt, fresh: receiptIsFresh },
      scope: (v.scope as AuditScope | undefined) ?? 'all',
      prune: v.prune === true,
      apply: v.apply === true,
      includePendingTargets: v['include-pending-targets'] === true,
      runtime: ctx.runtime,
      // Reused from the store (section `audit`) when no input changed; never with --apply.
      reuse: `reconcile/${MATCHER_REVISION}+exposure`,
    });
    const worst = PRIORITIES.findIndex((p) => report.counts[p] > 0);
    const failed = failOn !== undefined && worst !== -1 && worst <= PRIORITIES.indexOf(failOn as never);
    const warnings = storeWarnings(ctx.layout);
    return { data: report, text: reportText(report), exitCode: failed ? 1 : 0, warnings };
  },
};

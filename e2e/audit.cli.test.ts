import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTree, runMaestro, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';

const NOW = '2026-03-01T12:00:00.000Z';
const env = { MAESTRO_NOW: NOW };
const SPEC = '.workflow/specs/coding-conventions.md';
const HEAD = '---\ntitle: "Coding Conventions"\ncategory: coding\n---\n\n# Coding Conventions\n\n## Entries\n\n';
const tag = (sid: string, title: string, extra = '') =>
  `<spec-entry category="coding" keywords="time" date="2026-02-20" sid="${sid}" title="${title}"${extra}>\n\n### ${title}\n\n${title}.\n\n</spec-entry>\n`;
const UNSYNCED =
  HEAD +
  tag('S-20260101-old', 'Use local time') +
  '\n' +
  tag('S-20260201-new', 'Use UTC', ' supersedes="S-20260101-old"');

const maestro = (root: string, args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runMaestro([...args, '--workflow-root', root], { env: { ...env, ...extra } });
const audit = (root: string, ...args: string[]) => maestro(root, ['knowledge', 'audit', ...args, '--json']);
// Shapes are checked against the zod schemas in packages/audit (schemas.test.ts); here the CLI's behaviour.
interface Finding {
  subtype: string;
  priority: string;
  target: string;
  evidence: string;
  recommended_action: string;
}
interface Report {
  findings: Finding[];
  prune_plan: { actions: { pending_targets: unknown[] }[] } | null;
  applied: { count: number; backup_id: string | null } | null;
}
const report = (root: string, ...args: string[]) => audit(root, ...args).json<Report>();
/** Derived state (`.workflow/.index/`: the store, caches) may be written by any command; it is never compared. */
const noIndex = (rel: string) => rel.startsWith('.workflow/.index');
const noDerived = (rel: string) =>
  noIndex(rel) || rel.startsWith('.workflow/.trash') || rel.startsWith('.workflow/.knowledge-audit');

describe('maestro knowledge audit', () => {
  it('refuses --apply without --prune (exit 2) and a bad --scope, with JSON errors', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const r = audit(root, '--apply');
    expect(r.code).toBe(2);
    expect(r.json<{ error: { code: string; message: string } }>().error).toMatchObject({
      code: 'APPLY_REQUIRES_PRUNE',
      message: '--apply requires --prune',
    });
    expect(audit(root, '--scope', 'specs').code).toBe(2);
    expect(maestro(root, ['knowledge', 'audit', '--prune', '--include-pending-targets']).code).toBe(2);
  });

  it('plans without writing, applies with a backup, and a second run plans nothing (scenarios 45, 46)', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const before = readTree(root, noIndex);
    const plain = report(root);
    expect(plain.findings.map((f) => f.subtype)).toEqual(['unsynchronized-supersession']);
    expect(plain.prune_plan).toBeNull();
    const planned = report(root, '--prune');
    expect(planned.prune_plan?.actions).toHaveLength(1);
    expect(report(root, '--prune')).toEqual(planned); // deterministic, byte for byte
    expect(readTree(root, noIndex)).toEqual(before);

    const applied = report(root, '--prune', '--apply');
    expect(applied.applied).toMatchObject({ count: 1, backup_id: 'knowledge-audit-2026-03-01T12-00-00-000Z' });
    expect(readFileSync(join(root, '.workflow/.trash/knowledge-audit-2026-03-01T12-00-00-000Z', SPEC), 'utf8')).toBe(
      UNSYNCED,
    );
    expect(readFileSync(join(root, SPEC), 'utf8')).toContain('superseded-by="S-20260201-new" status="deprecated"');
    const log = readFileSync(join(root, '.workflow/.knowledge-audit/audit-log.jsonl'), 'utf8').trim().split('\n');
    expect(log).toHaveLength(1);

    const again = report(root, '--prune', '--apply');
    expect(again.prune_plan?.actions).toEqual([]);
    expect(again.applied).toMatchObject({ count: 0, backup_id: null });
  });

  it('text output names findings, the plan and the undo command', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const r = maestro(root, ['knowledge', 'audit', '--prune', '--apply']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('P1 spec/unsynchronized-supersession S-20260101-old');
    expect(r.stdout).toContain('Prune plan: 1 soft action(s)');
    expect(r.stdout).toContain('undo: maestro knowledge restore knowledge-audit-2026-03-01T12-00-00-000Z');
  });

  it('reports a corrupted ledger and a {} session.json as findings and completes (scenarios 43, 44)', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    expect(maestro(root, ['session', 'create', '--id', '20260101-work']).code).toBe(0);
    expect(maestro(root, ['run', 'start', '--session', '20260101-work', '--id', '20260101-001-plan']).code).toBe(0);
    writeFileSync(
      join(root, '.workflow/sessions/20260101-work/runs/20260101-001-plan/knowledge-delta.json'),
      '{ not json',
    );
    writeTree(root, { '.workflow/sessions/20260101-empty/session.json': '{}' });
    const r = audit(root, '--prune');
    expect(r.code).toBe(0);
    const out = r.json<Report>();
    const byType = Object.fromEntries(out.findings.map((f) => [f.subtype, f]));
    expect(byType['invalid-knowledge-ledger']).toMatchObject({
      priority: 'P1',
      target: '20260101-work/20260101-001-plan',
    });
    expect(byType['invalid-knowledge-ledger'].evidence.length).toBeLessThanOrEqual(500);
    expect(byType['invalid-session-authority']).toMatchObject({ priority: 'P1', target: '20260101-empty' });
    expect(byType['unsynchronized-supersession']).toBeDefined();
    expect(out.prune_plan?.actions).toHaveLength(1);
  });

  it('--fail-on exits 1 when a finding of that priority or higher exists', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    expect(audit(root, '--fail-on', 'P1').code).toBe(1);
    expect(audit(root, '--fail-on', 'P0').code).toBe(0);
    expect(audit(root, '--fail-on', 'P9').code).toBe(2);
  });
});

describe('usage', () => {
  it('reports exposure concentration from the search counters as observe-only, never as a prune action (scenario 52)', () => {
    const entries = Array.from({ length: 20 }, (_, i) => tag(`S-20260101-e${String(i).padStart(2, '0')}`, `Rule ${i}`));
    const root = tmpProject({ [SPEC]: HEAD + entries.join('\n') });
    const hot = JSON.stringify(['S-20260101-e00', 'S-20260101-e01']);
    writeTree(root, {
      '.workflow/.index/search/exposure.jsonl': `${`${hot}\n`.repeat(50)}${JSON.stringify(['S-20260101-e19'])}\n`,
    });
    const r = report(root, '--prune');
    const f = r.findings.find((x) => x.subtype === 'exposure-concentration');
    expect(f).toMatchObject({ priority: 'P2', recommended_action: 'observe' });
    expect(r.prune_plan?.actions).toEqual([]);
    const text = maestro(root, ['knowledge', 'audit']).stdout;
    expect(text).toMatch(/Exposure: top-10 100\.0% · Gini 0\.\d+ over 20 active entries/);
  });
});

describe('pending-target guard', () => {
  function pendingProject(): { root: string; cid: string } {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    maestro(root, ['session', 'create', '--id', '20260101-work']);
    maestro(root, ['run', 'start', '--session', '20260101-work', '--id', '20260101-001-plan']);
    const staged = maestro(root, [
      'knowledge',
      'stage',
      'spec',
      'Use local time',
      'Use local time in the UI.',
      '--session',
      '20260101-work',
      '--run',
      '20260101-001-plan',
      '--json',
    ]);
    const cid = staged.json<{ candidate_id: string }>().candidate_id;
    // A real receipt (fresh by all three fences) whose matches name the entry the plan deprecates.
    expect(maestro(root, ['knowledge', 'review', '20260101-work', '--refresh', '--json']).code).toBe(0);
    const receipt = JSON.parse(
      readFileSync(
        join(root, '.workflow/sessions/20260101-work/runs/20260101-001-plan/knowledge-reconciliation.json'),
        'utf8',
      ),
    );
    expect(receipt.candidates[0].matches.map((m: { knowledge_id: string }) => m.knowledge_id)).toContain(
      'S-20260101-old',
    );
    return { root, cid };
  }

  it('flags the action, skips it on --apply and says so; --include-pending-targets applies it', () => {
    const { root, cid } = pendingProject();
    const planned = report(root, '--prune');
    expect(planned.prune_plan?.actions[0].pending_targets).toEqual([
      { candidate_id: cid, session_id: '20260101-work', run_id: '20260101-001-plan' },
    ]);
    const before = readTree(root, noIndex);
    const text = maestro(root, ['knowledge', 'audit', '--prune', '--apply']);
    expect(text.stdout).toContain('Skipped 1 action(s) whose target a pending candidate matches');
    expect(readTree(root, noDerived)).toEqual(before);
    const forced = report(root, '--prune', '--apply', '--include-pending-targets');
    expect(forced.applied?.count).toBe(1);
    expect(readFileSync(join(root, SPEC), 'utf8')).toContain('status="deprecated"');
  });

  it('ignores a receipt made stale by a later corpus change', () => {
    const { root } = pendingProject();
    expect(
      maestro(root, ['spec', 'add', 'debug', 'Unrelated note', 'Restart the dev server after editing env files.']).code,
    ).toBe(0);
    expect(report(root, '--prune').prune_plan?.actions[0].pending_targets).toEqual([]);
  });
});

describe('maestro knowledge restore', () => {
  it('puts the files back, refuses files changed since the apply unless --force, and logs it', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const id = report(root, '--prune', '--apply').applied!.backup_id!;
    const list = audit(root, '--backups').json<{ backups: { backup_id: string; state: string; files: string[] }[] }>();
    expect(list.backups.map((b) => [b.backup_id, b.state, b.files])).toEqual([[id, 'applied', [SPEC]]]);

    const applied = readFileSync(join(root, SPEC), 'utf8');
    writeFileSync(join(root, SPEC), `${applied}\nlater edit\n`);
    const refused = maestro(root, ['knowledge', 'restore', id, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ restored: false, changed_since_apply: [SPEC] });
    expect(readFileSync(join(root, SPEC), 'utf8')).toBe(`${applied}\nlater edit\n`);
    expect(maestro(root, ['knowledge', 'restore', id]).stdout).toContain('--force');

    const forced = maestro(root, ['knowledge', 'restore', id, '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(root, SPEC), 'utf8')).toBe(UNSYNCED);
    const log = readFileSync(join(root, '.workflow/.knowledge-audit/audit-log.jsonl'), 'utf8').trim().split('\n');
    expect(log.map((l) => JSON.parse(l).event)).toEqual(['apply', 'restore']);
    expect(JSON.parse(log[1])).toMatchObject({ forced: true, changed_since_apply: [SPEC] });
  });

  it('restores an unchanged apply without --force; unknown ids are exit 2', () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const id = report(root, '--prune', '--apply').applied!.backup_id!;
    const r = maestro(root, ['knowledge', 'restore', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Restored 1 file(s)');
    expect(readFileSync(join(root, SPEC), 'utf8')).toBe(UNSYNCED);
    expect(maestro(root, ['knowledge', 'restore', 'knowledge-audit-nope']).code).toBe(2);
    expect(maestro(root, ['knowledge', 'restore', '../../etc']).code).toBe(2);
    expect(maestro(root, ['knowledge', 'restore']).code).toBe(2);
  });

  it('after a crash mid-apply the audit reports it (P0) and restore undoes the partial edit', () => {
    const tree = {
      [SPEC]: UNSYNCED,
      '.workflow/knowhow/TIP-20260101-a.md': '---\ntitle: Same\ntype: tip\n---\n\nSame body.\n',
      '.workflow/knowhow/TIP-20260101-b.md': '---\ntitle: Same\ntype: tip\n---\n\nSame body.\n',
    };
    const root = tmpProject(tree);
    const crashed = maestro(root, ['knowledge', 'audit', '--prune', '--apply'], {
      MAESTRO_CRASH_AT: 'audit-apply:after-action-1',
    });
    expect(crashed.code).not.toBe(0);
    expect(readFileSync(join(root, SPEC), 'utf8')).not.toBe(UNSYNCED); // the first action was written
    const after = report(root);
    const interrupted = after.findings.find((f) => f.subtype === 'interrupted-apply');
    expect(interrupted).toMatchObject({ priority: 'P0' });
    expect(maestro(root, ['knowledge', 'restore', interrupted!.target]).code).toBe(0);
    expect(readTree(root, noDerived)).toEqual(tree);
  });
});

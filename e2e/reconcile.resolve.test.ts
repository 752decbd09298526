import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResolutionOutput, ReviewOutput } from '@maestro/reconcile';
import { describe, expect, it } from 'vitest';
import { maestro, ok, R, S, storyProject } from './reconcile-helpers.js';

const review = (root: string) => ReviewOutput.parse(maestro(root, ['knowledge', 'review', S, '--json']).json());

describe('maestro knowledge review --resolve', () => {
  it('fails closed on a missing or stale receipt (exit 1) and names the refresh command', () => {
    const { root, ids } = storyProject();
    const r = maestro(root, [
      'knowledge',
      'review',
      S,
      '--resolve',
      ids.duplicate,
      '--as',
      'duplicate',
      '--reason',
      'same',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json<{ error: { code: string; hint: string } }>().error).toMatchObject({
      code: 'RECEIPT_STALE',
      hint: expect.stringContaining(`maestro knowledge review ${S} --refresh`),
    });
  });

  it('records a duplicate with its reason; an empty reason is refused', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    expect(
      maestro(root, ['knowledge', 'review', S, '--resolve', ids.duplicate, '--as', 'duplicate', '--reason', ' ']).code,
    ).toBe(2);
    const r = maestro(root, [
      'knowledge',
      'review',
      S,
      '--resolve',
      ids.duplicate,
      '--as',
      'duplicate',
      '--reason',
      'same UTC rule',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = ResolutionOutput.parse(r.json());
    expect(out.resolved[0]).toMatchObject({
      candidate_id: ids.duplicate,
      promotion_eligibility: 'suppressed',
      ledger_status: 'rejected',
    });
    const row = review(root).candidates.find((c) => c.candidate_id === ids.duplicate);
    expect(row).toMatchObject({
      status: 'rejected',
      freshness: 'fresh',
      resolution: { status: 'confirmed', reason: 'same UTC rule' },
    });
  });

  it('conflict lets the existing rule stand: candidate rejected, spec file untouched (issue 19 item 4)', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const before = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
    const args = ['knowledge', 'review', S, '--resolve', ids.conflict, '--as', 'conflict', '--reason', 'pino is ours'];
    const r = maestro(root, args);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/as conflict, existing rule stands/);
    expect(r.stdout).not.toMatch(/contested/);
    expect(readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8')).toBe(before);
    expect(maestro(root, ['spec', 'list']).stdout).not.toMatch(/CONTESTED/);
    const row = review(root).candidates.find((c) => c.candidate_id === ids.conflict);
    expect(row).toMatchObject({ status: 'rejected', freshness: 'fresh', resolution: { choice: 'conflict' } });
    expect(row?.resolution).not.toHaveProperty('contested');
    // Thirty-one days later the audit has nothing to say about the rule that was defended.
    const audit = maestro(root, ['knowledge', 'audit', '--json'], '2026-04-05T12:00:00.000Z');
    expect(audit.stdout).not.toMatch(/stale-contested/);
  });

  it('conflict --contest leaves the question open: the rule is marked contested with candidate and reason', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const r = maestro(root, [
      'knowledge',
      'review',
      S,
      '--resolve',
      ids.conflict,
      '--as',
      'conflict',
      '--contest',
      '--reason',
      'pino is the standard',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/question left open/);
    expect(r.stdout).toMatch(/target marked contested/);
    const spec = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
    expect(spec).toMatch(
      /confidence="contested" conflict-marker="CMK-\d{8}-[a-z0-9]+" conflict-note="Knowledge candidate KDC-[a-f0-9]{16}: pino is the standard"/,
    );
    expect(review(root).counts.stale).toBe(0);
    expect(review(root).candidates.find((c) => c.candidate_id === ids.conflict)?.resolution).toMatchObject({
      contested: true,
    });
    // The stale-contested finding names a command, and that command works.
    const audit = maestro(root, ['knowledge', 'audit', '--json'], '2026-04-05T12:00:00.000Z');
    const f = audit
      .json<{ findings: { subtype: string; command: string | null }[] }>()
      .findings.find((x) => x.subtype === 'stale-contested');
    expect(f?.command).toMatch(/^maestro spec conflict clear S-/);
    const clear = maestro(root, String(f?.command).split(' ').slice(1));
    expect(clear.code).toBe(0);
    expect(maestro(root, ['spec', 'list']).stdout).not.toMatch(/CONTESTED/);
  });

  it('--contest goes only with --as conflict', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const r = maestro(root, [
      'knowledge',
      'review',
      S,
      '--resolve',
      ids.conflict,
      '--as',
      'related',
      '--contest',
      '--reason',
      'x',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--contest goes only with --as conflict/);
    expect(maestro(root, ['knowledge', 'review', S, '--contest']).code).toBe(2);
  });

  it("promote's skip hint is one of the resolutions review offers, and it works (issue 19 item 13)", () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const offered = review(root).candidates.find((c) => c.candidate_id === ids.conflict)?.next;
    expect(offered?.offers.map((o) => `${o.choice}${o.contest ? ' --contest' : ''}`)).toEqual([
      'conflict',
      'conflict --contest',
      'supersede',
      'related',
      'unique',
    ]);
    expect(offered?.resolve).toEqual(offered?.offers.map((o) => o.command));
    ok(root, ['run', 'complete', R, '--session', S, '--seal']);
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const next = review(root).candidates.find((c) => c.candidate_id === ids.conflict)?.next;
    const promote = maestro(root, ['knowledge', 'promote', S, '--all', '--json']);
    const skipped = promote
      .json<{ skipped: Record<string, { candidate_id: string; command: string; reason: string }[]> }>()
      .skipped.review_required.find((x) => x.candidate_id === ids.conflict);
    expect(skipped?.reason).toMatch(/review offers: conflict, conflict --contest, supersede, related, unique/);
    // Promoting the others changed the corpus (issue 19 item 5): the hint refreshes first, and says why.
    const [refresh, resolve] = String(skipped?.command).split(' && ');
    expect(refresh).toBe(`maestro knowledge review ${S} --refresh`);
    expect(next?.resolve).toContain(resolve);
    expect(promote.json<{ warnings: { code: string }[] }>().warnings.map((w) => w.code)).toContain('receipts_stale');
    const stale = maestro(root, resolve.replace('"<why>"', 'w').split(' ').slice(1));
    expect(stale.code).toBe(1);
    expect(maestro(root, refresh.split(' ').slice(1)).code).toBe(0);
    expect(maestro(root, resolve.replace('"<why>"', 'winston-replaces-pino').split(' ').slice(1)).code).toBe(0);
  });

  it('batch-resolves by disposition and refuses a target that is not an evidence-backed match', () => {
    const { root, ids } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    const bad = maestro(root, [
      'knowledge',
      'review',
      S,
      '--resolve',
      ids.conflict,
      '--as',
      'related',
      '--target',
      'S-20990101-zzzz',
      '--reason',
      'x',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not an evidence-backed match/);
    const batch = maestro(root, [
      'knowledge',
      'review',
      S,
      '--all-as',
      'related',
      '--disposition',
      'potential_conflict',
      '--reason',
      'separate concerns',
      '--json',
    ]);
    expect(ResolutionOutput.parse(batch.json()).resolved.map((x) => x.candidate_id)).toEqual([ids.conflict]);
    expect(review(root).candidates.find((c) => c.candidate_id === ids.conflict)?.promotion_eligibility).toBe(
      'eligible',
    );
  });
});

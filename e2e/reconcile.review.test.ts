import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReviewOutput } from '@maestro/reconcile';
import { describe, expect, it } from 'vitest';
import { maestro, R, S, storyProject, userFiles } from './reconcile-helpers.js';

const receipt = (root: string) => join(root, `.workflow/sessions/${S}/runs/${R}/knowledge-reconciliation.json`);

describe('maestro knowledge review', () => {
  it('is read-only without --refresh and says which command reconciles', () => {
    const { root } = storyProject();
    const before = userFiles(root);
    const r = maestro(root, ['knowledge', 'review', S]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`→ maestro knowledge review ${S} --refresh`);
    expect(userFiles(root)).toEqual(before);
  });

  it('--refresh writes a fenced receipt and prints verdicts sorted by severity (JSON matches its schema)', () => {
    const { root, ids } = storyProject();
    const r = maestro(root, ['knowledge', 'review', S, '--refresh', '--json']);
    expect(r.code).toBe(0);
    const view = ReviewOutput.parse(r.json());
    expect(view.candidates.map((c) => [c.candidate_id, c.disposition, c.promotion_eligibility])).toEqual([
      [ids.conflict, 'potential_conflict', 'review_required'],
      [ids.duplicate, 'semantic_duplicate', 'review_required'],
      [ids.unique, 'unique', 'eligible'],
      [ids.exact, 'exact_duplicate', 'suppressed'],
    ]);
    expect(view.candidates.every((c) => c.freshness === 'fresh')).toBe(true);
    const file = JSON.parse(readFileSync(receipt(root), 'utf8'));
    expect(file).toMatchObject({ schema_version: 'knowledge-reconciliation/1.0', session_id: S, run_id: R });
    expect(Object.keys(file)).toEqual(
      expect.arrayContaining(['candidate_snapshot_hash', 'corpus_fingerprint', 'matcher_revision']),
    );
    const text = maestro(root, ['knowledge', 'review', S]).stdout;
    expect(text).toContain(`--resolve ${ids.conflict} --as conflict`);
    expect(text).toContain(`maestro knowledge promote ${S} --candidate ${ids.unique}`);
    expect(text).toMatch(/different choice: winston vs pino/);
  });

  it('stays fresh after an unrelated spec add; turns stale after a related one; --refresh makes it fresh again', () => {
    const { root } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    maestro(root, ['spec', 'add', 'coding', 'Errors', 'Wrap errors with a cause when rethrowing.']);
    const kept = ReviewOutput.parse(maestro(root, ['knowledge', 'review', S, '--json']).json());
    expect(kept.counts.fresh).toBe(4);
    expect(kept.runs[0].revalidated).toMatchObject({ added: 1, changed: 0, removed: 0 });
    maestro(root, [
      'spec',
      'add',
      'coding',
      'Flag cleanup',
      'Remove feature flags within two sprints after full rollout.',
    ]);
    const stale = ReviewOutput.parse(maestro(root, ['knowledge', 'review', S, '--json']).json());
    expect(stale.counts.stale).toBe(4);
    expect(stale.runs[0].reasons.join(' ')).toMatch(
      /not revalidated: KDC-[0-9a-f]+: entry S-\S+ "Flag cleanup", added/,
    );
    const fresh = ReviewOutput.parse(maestro(root, ['knowledge', 'review', S, '--refresh', '--json']).json());
    expect(fresh.counts.fresh).toBe(4);
  });

  it('names a corrupted receipt (exit 2) and --refresh rewrites it, keeping the old bytes', () => {
    const { root } = storyProject();
    maestro(root, ['knowledge', 'review', S, '--refresh']);
    writeFileSync(receipt(root), '{"schema_version": "knowledge-reconciliation/1.0",');
    const r = maestro(root, ['knowledge', 'review', S, '--json']);
    expect(r.code).toBe(2);
    const err = r.json<{ error: { code: string; message: string; hint: string } }>().error;
    expect(err.code).toBe('RECEIPT_CORRUPT');
    expect(err.message).toContain(`.workflow/sessions/${S}/runs/${R}/knowledge-reconciliation.json`);
    expect(err.hint).toContain(`maestro knowledge review ${S} --refresh`);
    const fixed = maestro(root, ['knowledge', 'review', S, '--refresh']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toMatch(/rewrote the damaged receipt/);
    const dir = join(root, `.workflow/sessions/${S}/runs/${R}`);
    const copy = readdirSync(dir).find((f) => f.includes('.corrupt-'));
    expect(readFileSync(join(dir, copy ?? 'missing'), 'utf8')).toBe(
      '{"schema_version": "knowledge-reconciliation/1.0",',
    );
    expect(JSON.parse(readFileSync(receipt(root), 'utf8')).candidates).toHaveLength(4);
  });

  it('rejects bad input with usage errors (exit 2)', () => {
    const { root, ids } = storyProject();
    const cases: [string[], RegExp][] = [
      [['knowledge', 'review'], /missing <session>/],
      [['knowledge', 'review', '20260301-nope'], /session/i],
      [['knowledge', 'review', S, '--as', 'unique'], /--as only goes with --resolve/],
      [['knowledge', 'review', S, '--resolve', ids.unique, '--reason', 'x'], /--resolve requires --as/],
      [['knowledge', 'review', S, '--resolve', ids.unique, '--as', 'unique'], /requires --reason/],
      [['knowledge', 'review', S, '--resolve', ids.unique, '--as', 'maybe', '--reason', 'x'], /--as must be one of/],
      [
        ['knowledge', 'review', S, '--refresh', '--resolve', ids.unique, '--as', 'unique', '--reason', 'x'],
        /do not mix/,
      ],
      [['knowledge', 'review', S, '--all-as', 'unique', '--reason', 'x'], /needs --disposition/],
    ];
    for (const [args, message] of cases) {
      const r = maestro(root, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResolutionOutput, ReviewOutput } from '@maestro/reconcile';
import { describe, expect, it } from 'vitest';
import { maestro, S, storyProject } from './reconcile-helpers.js';

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

  it('conflict marks the spec entry contested and the receipt stays fresh', () => {
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
      '--reason',
      'pino is the standard',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/target marked contested/);
    const spec = readFileSync(join(root, '.workflow/specs/coding-conventions.md'), 'utf8');
    expect(spec).toMatch(
      /confidence="contested" conflict-marker="CMK-\d{8}-[a-z0-9]+" conflict-note="Knowledge candidate KDC-[a-f0-9]{16}: pino is the standard"/,
    );
    expect(review(root).counts.stale).toBe(0);
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

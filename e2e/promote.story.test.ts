import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PromotionResultSchema } from '@maestro/promote';
import { readTree, tmpProject } from '@maestro/test-utils';
import { expect, test } from 'vitest';
import { leftovers, m, promotedState } from './promote-helpers.js';

// A newcomer's path through the built binary: stage, seal, review, promote, and every refusal.
test('stage → seal → review → promote, with refusals, warnings and an idempotent rerun', () => {
  const root = tmpProject();
  m(root, ['init']);
  const s = m(root, ['session', 'create', '--title', 'Token lifetimes', '--json']).json<{ session_id: string }>()
    .session_id;
  const run = m(root, ['run', 'start', '--session', s, '--command', 'plan', '--json']).json<{ run_id: string }>()
    .run_id;
  const stage = (...args: string[]) =>
    m(root, ['knowledge', 'stage', ...args, '--session', s, '--run', run, '--json']).json<{ candidate_id: string }>()
      .candidate_id;
  const rule = stage('spec', 'Rotate refresh tokens', 'Refresh tokens rotate on every use.', '--category', 'arch');
  const tip = stage('knowhow', 'Debug token expiry', 'Compare the exp claim with the server clock first.');

  // not sealed yet: named candidate refused with the seal command
  const unsealed = m(root, ['knowledge', 'promote', s, '--candidate', rule, '--json'], 1).json<{
    error: { code: string; hint: string };
  }>();
  expect(unsealed.error.code).toBe('CANDIDATE_NOT_PROMOTABLE');
  expect(unsealed.error.hint).toContain(`maestro run complete ${run} --session ${s} --seal`);
  m(root, ['run', 'complete', run, '--session', s, '--seal']);

  // no receipt yet: fail closed with the refresh command
  const missing = m(root, ['knowledge', 'promote', s, '--all'], 1);
  expect(missing.stderr).toContain(`maestro knowledge review ${s} --refresh`);
  m(root, ['knowledge', 'review', s, '--refresh']);

  // usage and unknown ids are exit 2
  expect(m(root, ['knowledge', 'promote', s], 2).stderr).toContain('--candidate');
  expect(m(root, ['knowledge', 'promote', s, '--all', '--candidate', rule], 2).stderr).toContain('not both');
  const unknown = m(root, ['knowledge', 'promote', s, '--candidate', 'KDC-0000000000000000', '--json'], 2);
  expect(unknown.json<{ error: { code: string } }>().error.code).toBe('UNKNOWN_CANDIDATE');

  const first = m(root, ['knowledge', 'promote', s, '--candidate', rule]);
  expect(first.stdout).toContain(`created    S-`);
  expect(first.stdout).toContain('specs/architecture-constraints.md');
  expect(first.stderr).toContain('warning:');
  expect(first.stderr).toContain('one run only');

  // the corpus changed (our own promotion): the other receipt is stale until refreshed
  expect(m(root, ['knowledge', 'promote', s, '--candidate', tip], 1).stderr).toContain('--refresh');
  m(root, ['knowledge', 'review', s, '--refresh']);
  const all = PromotionResultSchema.parse(m(root, ['knowledge', 'promote', s, '--all', '--json']).json());
  expect(all.promoted.map((p) => [p.candidate_id, p.outcome, p.target])).toEqual([[tip, 'created', 'knowhow']]);
  expect(all.already_promoted.map((a) => a.candidate_id)).toEqual([rule]);
  expect(all.promoted[0].file).toMatch(/^knowhow\/TIP-\d{8}-[a-f0-9]{16}\.md$/);

  const before = readTree(root);
  const again = PromotionResultSchema.parse(m(root, ['knowledge', 'promote', s, '--all', '--json']).json());
  expect(again.promoted).toEqual([]);
  expect(again.already_promoted).toHaveLength(2);
  expect(readTree(root, (p) => p.includes('.index'))).toEqual(
    Object.fromEntries(Object.entries(before).filter(([p]) => !p.includes('.index'))),
  );
  expect(m(root, ['spec', 'list']).stdout).toContain('Rotate refresh tokens');
  expect(m(root, ['knowhow', 'list']).stdout).toContain('Debug token expiry');
  expect(leftovers(root)).toEqual([]);
}, 60_000);

test('a damaged ledger or receipt is named (exit 2) and nothing is written', () => {
  const root = tmpProject();
  m(root, ['init']);
  const s = m(root, ['session', 'create', '--id', '20260102-bad', '--json']).json<{ session_id: string }>().session_id;
  const run = m(root, ['run', 'start', '--session', s, '--json']).json<{ run_id: string }>().run_id;
  m(root, ['knowledge', 'stage', 'spec', 'Rule', 'A rule.', '--session', s, '--run', run]);
  m(root, ['run', 'complete', run, '--session', s, '--seal']);
  m(root, ['knowledge', 'review', s, '--refresh']);
  const dir = join(root, '.workflow/sessions', s, 'runs', run);
  const receipt = readFileSync(join(dir, 'knowledge-reconciliation.json'), 'utf8');
  writeFileSync(join(dir, 'knowledge-reconciliation.json'), '{"schema_version": ');
  const before = promotedState(root);
  const bad = m(root, ['knowledge', 'promote', s, '--all', '--json'], 2).json<{
    error: { location: { file: string } };
  }>();
  expect(bad.error.location.file).toContain('knowledge-reconciliation.json');
  expect(promotedState(root)).toEqual(before);

  writeFileSync(join(dir, 'knowledge-reconciliation.json'), receipt);
  const ledger = readFileSync(join(dir, 'knowledge-delta.json'), 'utf8');
  writeFileSync(join(dir, 'knowledge-delta.json'), ledger.replace('"revision"', '"revision_typo"'));
  const damaged = m(root, ['knowledge', 'promote', s, '--all'], 2);
  expect(damaged.stderr).toContain('knowledge-delta.json');
  writeFileSync(join(dir, 'knowledge-delta.json'), ledger);
  expect(m(root, ['knowledge', 'promote', s, '--all', '--json']).json<{ promoted: unknown[] }>().promoted).toHaveLength(
    1,
  );
}, 60_000);

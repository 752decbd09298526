import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AuditReportSchema, RestoreResultSchema } from '@maestro/audit';
import { GateOutput } from '@maestro/gate';
import { KnowledgeStageOutput, LoadOutput, RunCompleteOutput, SessionSealOutput } from '@maestro/ledger';
import { PromotionResultSchema } from '@maestro/promote';
import { ResolutionOutput, ReviewOutput } from '@maestro/reconcile';
import { SearchOutputSchema } from '@maestro/search';
import { SpecAddOutput, SpecShowOutput } from '@maestro/spec';
import { runMaestro, tmpProject, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';

// The whole lifecycle through the built binary, every JSON document checked against its schema:
// init → rules → a session with two runs that load, record and stage (EN and ZH) → complete with
// report.md → review --refresh → resolve a conflict and a supersession → promote --all → search
// → audit --prune --apply → restore → gate.
const S = '20261129-auth-hardening';
const R1 = '20261129-001-plan';
const R2 = '20261129-002-build';

// About 30 CLI calls in one story: 25 s on a quiet 2-core machine, so the default 30 s is too tight.
describe('the knowledge lifecycle, end to end', { timeout: 120_000 }, () => {
  it('sediments what two runs learned into project knowledge, safely', () => {
    const root = tmpProject();
    const m = (...args: string[]) =>
      runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: '2026-11-29T10:00:00.000Z' } });
    const ok = <T extends z.ZodType>(schema: T, ...args: string[]): z.infer<T> => {
      const r = m(...args, '--json');
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      return schema.parse(r.json());
    };
    expect(m('init').code).toBe(0);

    // Project rules.
    const store = ok(
      SpecAddOutput,
      'spec',
      'add',
      'arch',
      'Session store',
      'Sessions must be kept in Postgres, never in process memory.',
      '--keywords',
      'session,storage',
    ).sid!;
    const retry = ok(
      SpecAddOutput,
      'spec',
      'add',
      'coding',
      'HTTP retry policy',
      'HTTP clients retry idempotent requests up to 3 times with exponential backoff.',
      '--keywords',
      'http,retry',
    ).sid!;
    ok(
      SpecAddOutput,
      'spec',
      'add',
      'coding',
      '日志脱敏',
      '日志中禁止输出用户手机号和身份证号。',
      '--keywords',
      '日志,隐私',
    );

    // A session with two runs that use knowledge and stage what they learned.
    expect(m('session', 'create', '--id', S, '--title', 'Auth hardening').code).toBe(0);
    expect(m('run', 'start', '--session', S, '--id', R1, '--command', 'plan').code).toBe(0);
    expect(m('run', 'start', '--session', S, '--id', R2, '--command', 'build').code).toBe(0);
    expect(ok(LoadOutput, 'load', '--id', store, '--session', S, '--run', R1).entries).toHaveLength(1);
    expect(m('knowledge', 'record', retry, '--signal', 'cited', '--session', S, '--run', R2).code).toBe(0);
    const token = 'Access tokens must expire after 15 minutes.';
    const tokenId = ok(
      KnowledgeStageOutput,
      'knowledge',
      'stage',
      'spec',
      'Access token lifetime',
      token,
      '--session',
      S,
      '--run',
      R1,
      '--category',
      'arch',
    ).candidate_id;
    expect(
      ok(
        KnowledgeStageOutput,
        'knowledge',
        'stage',
        'spec',
        'Token lifetime',
        token,
        '--session',
        S,
        '--run',
        R2,
        '--category',
        'arch',
      ).candidate_id,
    ).toBe(tokenId);
    const zhId = ok(
      KnowledgeStageOutput,
      'knowledge',
      'stage',
      'spec',
      '令牌日志',
      '接口日志中禁止输出访问令牌和刷新令牌。',
      '--session',
      S,
      '--run',
      R2,
      '--category',
      'coding',
    ).candidate_id;
    const supersedeId = ok(
      KnowledgeStageOutput,
      'knowledge',
      'stage',
      'spec',
      'HTTP retry policy',
      'HTTP clients retry idempotent requests up to 5 times with exponential backoff and jitter.',
      '--session',
      S,
      '--run',
      R2,
      '--action',
      'supersede',
      '--category',
      'coding',
    ).candidate_id;
    writeTree(root, {
      [`.workflow/sessions/${S}/runs/${R1}/report.md`]:
        '---\ndecisions:\n  - text: Sessions are kept in process memory for speed\n    status: accepted\n  - text: Maybe adopt JWE later\n    status: proposed\n---\n# Plan\n',
    });

    // Promotion refuses unsealed runs and missing receipts; completion only stages.
    const unsealed = m('knowledge', 'promote', S, '--candidate', tokenId);
    expect(unsealed.code).toBe(1);
    expect(unsealed.stderr).toContain(`maestro run complete ${R1} --session ${S} --seal`);
    const specsBefore = readFileSync(join(root, '.workflow/specs/architecture-constraints.md'), 'utf8');
    const completed = ok(RunCompleteOutput, 'run', 'complete', R1, '--session', S, '--seal');
    expect(completed.knowledge.staged_candidate_ids).toHaveLength(1);
    ok(RunCompleteOutput, 'run', 'complete', R2, '--session', S, '--seal');
    expect(readFileSync(join(root, '.workflow/specs/architecture-constraints.md'), 'utf8')).toBe(specsBefore);
    const refused = m('knowledge', 'promote', S, '--all');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`maestro knowledge review ${S} --refresh`);

    // Review: verdicts with evidence.
    const review = ok(ReviewOutput, 'knowledge', 'review', S, '--refresh');
    const row = (id: string) => review.candidates.find((c) => c.candidate_id === id)!;
    expect(row(tokenId)).toMatchObject({
      stage: 'corroborated',
      freshness: 'fresh',
      promotion_eligibility: 'eligible',
    });
    expect(row(zhId).promotion_eligibility).toBe('eligible');
    expect(row(supersedeId)).toMatchObject({
      disposition: 'supersede_candidate',
      canonical_id: retry,
      promotion_eligibility: 'review_required',
    });
    const memory = review.candidates.find((c) => c.title.startsWith('Sessions are kept in process memory'))!;
    expect(memory).toMatchObject({
      disposition: 'potential_conflict',
      canonical_id: store,
      promotion_eligibility: 'review_required',
    });

    // A person resolves what needs judgement.
    ok(
      ResolutionOutput,
      'knowledge',
      'review',
      S,
      '--resolve',
      memory.candidate_id,
      '--as',
      'conflict',
      '--contest',
      '--reason',
      'Sessions stay in Postgres; memory loses them on deploy',
    );
    ok(
      ResolutionOutput,
      'knowledge',
      'review',
      S,
      '--resolve',
      supersedeId,
      '--as',
      'supersede',
      '--target',
      retry,
      '--reason',
      'Measured: 5 attempts with jitter cut failures',
    );
    expect(ok(SpecShowOutput, 'spec', 'show', store).entry.confidence).toBe('contested');

    // Explicit promotion.
    const promoted = ok(PromotionResultSchema, 'knowledge', 'promote', S, '--all');
    const ids = Object.fromEntries(promoted.promoted.map((p) => [p.candidate_id, p.promoted_id]));
    expect(Object.keys(ids).sort()).toEqual([supersedeId, tokenId, zhId].sort());
    expect(ids[memory.candidate_id]).toBeUndefined();
    expect(ok(SpecShowOutput, 'spec', 'show', retry).entry).toMatchObject({
      status: 'deprecated',
      supersededBy: ids[supersedeId],
    });
    expect(ok(PromotionResultSchema, 'knowledge', 'promote', S, '--all').promoted).toEqual([]);

    // Search finds the new rule, not the deprecated one (unless asked), and the Chinese rule by one character.
    const found = ok(SearchOutputSchema, 'search', 'retry idempotent requests');
    expect(found.results.map((r) => r.id)).toContain(ids[supersedeId]);
    expect(found.results.map((r) => r.id)).not.toContain(retry);
    expect(
      ok(SearchOutputSchema, 'search', 'retry idempotent requests', '--include-deprecated').results.map((r) => r.id),
    ).toContain(retry);
    expect(ok(SearchOutputSchema, 'search', '令').results.map((r) => r.id)).toContain(ids[zhId]);

    // Audit and a safe prune: two identical notes in different files → one is deprecated, with a backup.
    ok(
      SpecAddOutput,
      'spec',
      'add',
      'debug',
      'Restart the dev server',
      'Restart the dev server after editing .env files.',
    );
    ok(
      SpecAddOutput,
      'spec',
      'add',
      'learning',
      'Restart the dev server',
      'Restart the dev server after editing .env files.',
    );
    const files = ['debug-notes.md', 'learnings.md'].map((f) => join(root, '.workflow/specs', f));
    const beforeApply = files.map((f) => readFileSync(f, 'utf8'));
    const applied = ok(AuditReportSchema, 'knowledge', 'audit', '--prune', '--apply');
    expect(applied.applied?.count).toBeGreaterThanOrEqual(1);
    expect(ok(AuditReportSchema, 'knowledge', 'audit', '--prune').prune_plan?.actions).toEqual([]);
    const restored = ok(RestoreResultSchema, 'knowledge', 'restore', applied.applied!.backup_id!);
    expect(restored.restored).toBe(true);
    expect(files.map((f) => readFileSync(f, 'utf8'))).toEqual(beforeApply);

    // The session seals and the release gate is green.
    expect(ok(SessionSealOutput, 'session', 'seal', S).status).toBe('sealed');
    const gate = ok(GateOutput, 'knowledge', 'gate', '--all');
    expect(gate.reasons).toEqual([]);
    expect(gate.ok).toBe(true);
  });
});

describe('the lifecycle fails closed', () => {
  function sealedSession() {
    const root = tmpProject();
    const m = (...args: string[]) =>
      runMaestro([...args, '--workflow-root', root], { env: { MAESTRO_NOW: '2026-11-29T10:00:00.000Z' } });
    expect(m('init').code).toBe(0);
    expect(m('session', 'create', '--id', S).code).toBe(0);
    expect(m('run', 'start', '--session', S, '--id', R1).code).toBe(0);
    for (const [title, body] of [
      ['Idempotency keys', 'Every POST endpoint must accept an Idempotency-Key header.'],
      ['幂等键', '所有写接口必须支持幂等键。'],
    ]) {
      expect(m('knowledge', 'stage', 'spec', title, body, '--session', S, '--run', R1).code).toBe(0);
    }
    expect(m('run', 'complete', R1, '--session', S, '--seal').code).toBe(0);
    expect(m('knowledge', 'review', S, '--refresh').code).toBe(0);
    return { root, m };
  }

  it('refuses promotion on a stale receipt, naming the refresh command, and writes nothing', () => {
    const { root, m } = sealedSession();
    // An unrelated rule does not stale the receipt (it is revalidated); one the candidate restates does.
    expect(m('spec', 'add', 'debug', 'Slow tests', 'Run the suite with --bail locally.').code).toBe(0);
    expect(m('knowledge', 'gate', '--all').code).toBe(0);
    const added = m(
      'spec',
      'add',
      'arch',
      'Idempotency',
      'Every POST endpoint must accept an Idempotency-Key header.',
      '--json',
    );
    const sid = added.json<{ sid: string }>().sid;
    const before = readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8');
    const r = m('knowledge', 'promote', S, '--all');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`maestro knowledge review ${S} --refresh`);
    expect(r.stderr).toContain(`entry ${sid} "Idempotency", added since the receipt, now matches it`);
    expect(readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8')).toBe(before);
    expect(m('knowledge', 'gate', '--all').code).toBe(1);
  });

  it('names a corrupted ledger (exit 2) and leaves it as it is', () => {
    const { root, m } = sealedSession();
    const ledger = join(root, `.workflow/sessions/${S}/runs/${R1}/knowledge-delta.json`);
    writeTree(root, {
      [`.workflow/sessions/${S}/runs/${R1}/knowledge-delta.json`]: '{"schema_version": "run-knowledge-delta/1.0",',
    });
    const r = m('knowledge', 'review', S);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('knowledge-delta.json');
    expect(readFileSync(ledger, 'utf8')).toBe('{"schema_version": "run-knowledge-delta/1.0",');
  });

  it('lets concurrent promoters converge on one entry per candidate', async () => {
    const { root } = sealedSession();
    const { runMaestroAsync } = await import('@maestro/test-utils');
    const runs = await Promise.all(
      [0, 1, 2].map(() =>
        runMaestroAsync(['knowledge', 'promote', S, '--all', '--json', '--workflow-root', root], {
          env: { MAESTRO_NOW: '2026-11-29T10:00:00.000Z' },
        }),
      ),
    );
    const promoted = runs.filter((r) => r.code === 0).flatMap((r) => PromotionResultSchema.parse(r.json()).promoted);
    expect(promoted.map((p) => p.candidate_id).sort()).toHaveLength(2);
    const text = readFileSync(join(root, '.workflow/specs/learnings.md'), 'utf8');
    expect(text.match(/<spec-entry /g)).toHaveLength(2);
  });
});

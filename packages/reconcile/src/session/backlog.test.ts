import { fixedRuntime } from '@maestro/core';
import { readDeltaFile } from '@maestro/ledger';
import { sessionTree, writeTree } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { knowledgeBacklog } from './backlog.js';
import { reconcileSession } from './reconcile-session.js';
import { reviewSession } from './review.js';
import { project, R1, R2, runtime, S } from './session.fixture.js';

const runs = () => [
  {
    runId: R1,
    candidates: [
      { content: 'Use winston for application logging.', title: 'Logger' },
      { content: 'Prefer small pure functions.' },
    ],
  },
  { runId: R2, candidates: [{ content: 'Prefer small pure functions.' }, { content: 'Rotate log files daily.' }] },
];

describe('review view', () => {
  it('sorts by severity, then corroboration, and gives the exact next command', async () => {
    const p = project(runs());
    const before = await reviewSession(p.layout, S, {}, runtime());
    expect(
      before.candidates.every(
        (c) => c.freshness === 'missing' && c.next.refresh === `maestro knowledge review ${S} --refresh`,
      ),
    ).toBe(true);
    const v = await reviewSession(p.layout, S, { refresh: true }, runtime());
    expect(v.candidates.map((c) => [c.disposition, c.stage])).toEqual([
      ['potential_conflict', 'observed'],
      ['related', 'observed'],
      ['unique', 'corroborated'],
    ]);
    const conflict = v.candidates[0];
    expect(conflict.canonical).toMatchObject({ id: 'S-20260101-lg01', status: 'active' });
    expect(conflict.matches.length).toBeLessThanOrEqual(3);
    expect(conflict.next.resolve[0]).toBe(
      `maestro knowledge review ${S} --resolve ${conflict.candidate_id} --as conflict --target S-20260101-lg01 --reason "<why>"`,
    );
    expect(v.candidates[1].next.promote).toBe(
      `maestro knowledge promote ${S} --candidate ${v.candidates[1].candidate_id}`,
    );
  });

  it('shows the target deprecated when the corpus moved on', async () => {
    const p = project(runs());
    await reconcileSession(p.layout, S, { refresh: true }, runtime());
    writeTree(p.root, {
      '.workflow/specs/coding-conventions.md':
        '<spec-entry category="coding" sid="S-20260101-lg01" title="Logger" status="deprecated" superseded-by="S-20260101-lg02">\n\n### Logger\n\nUse pino for application logging.\n\n</spec-entry>\n',
    });
    const v = await reviewSession(p.layout, S, {}, runtime());
    expect(v.candidates[0]).toMatchObject({
      freshness: 'stale',
      canonical: { status: 'deprecated', superseded_by: 'S-20260101-lg02' },
    });
  });
});

describe('backlog', () => {
  it('lists pending candidates across sessions and reports a damaged session without failing', async () => {
    const p = project(runs());
    writeTree(p.root, { '.workflow/sessions/20260105-broken/session.json': '{ nope' });
    const b = await knowledgeBacklog(p.layout, {}, runtime());
    expect(b.items).toHaveLength(3);
    expect(b.items[0].freshness).toBe('missing');
    expect(b.problems.some((x) => x.message.includes('20260105-broken'))).toBe(true);
  });

  it('expires old observed-only candidates reversibly, with a reason', async () => {
    const p = project(runs());
    writeTree(
      p.root,
      sessionTree({
        sessionId: '20260301-new',
        at: '2026-03-01T00:00:00.000Z',
        runs: [{ runId: '20260301-001-run', candidates: [{ content: 'Fresh idea.' }] }],
      }),
    );
    const b = await knowledgeBacklog(
      p.layout,
      { expireOlderThanDays: 30, reason: 'nobody came back to it' },
      runtime(),
    );
    expect(b.expired.map((e) => e.session_id)).toEqual([S, S]);
    expect(b.items.map((i) => i.stage).sort()).toEqual(['corroborated', 'observed']);
    const rejected = readDeltaFile(p.layout, S, R1).delta.candidates.find((c) => c.status === 'rejected');
    expect(rejected?.rejection?.reason).toBe('expired: nobody came back to it');
    const undo = await knowledgeBacklog(p.layout, { restore: [rejected?.candidate_id ?? ''] }, runtime());
    expect(undo.restored).toHaveLength(1);
    expect(
      readDeltaFile(p.layout, S, R1).delta.candidates.find((c) => c.candidate_id === rejected?.candidate_id),
    ).toMatchObject({ status: 'pending', rejection: null });
  });

  it('refuses a negative age and restores only expired candidates', async () => {
    const p = project(runs());
    await expect(knowledgeBacklog(p.layout, { expireOlderThanDays: -1 }, runtime())).rejects.toMatchObject({
      code: 'INVALID_AGE',
    });
    const b = await knowledgeBacklog(
      p.layout,
      { restore: ['KDC-0000000000000000'] },
      fixedRuntime('2026-03-04T00:00:00Z'),
    );
    expect(b.problems.map((x) => x.code)).toContain('NOT_EXPIRED');
  });
});

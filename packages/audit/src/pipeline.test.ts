import { fixedRuntime } from '@maestro/core';
import { workflowLayout } from '@maestro/fs';
import { readTree, tmpProject } from '@maestro/test-utils';
import { describe, expect, it } from 'vitest';
import { deltaJson, pendingSession, runJson, SPEC, sessionJson, UNSYNCED } from '../test/project.js';
import { type AuditKnowledgeOptions, auditKnowledge } from './audit.js';
import { readPipeline } from './read-pipeline.js';
import { fileReceipts, type ReceiptSource } from './receipts.js';

const runtime = fixedRuntime('2026-03-01T12:00:00.000Z');
const run = (root: string, o: AuditKnowledgeOptions = {}) => auditKnowledge(workflowLayout(root), { runtime, ...o });
const S = '.workflow/sessions';

describe('pipeline reader', () => {
  it('counts observed vs corroborated pending candidates and explicit consumption', () => {
    const cid = 'KDC-00000000000000aa';
    const root = tmpProject({
      [`${S}/20260220-a/session.json`]: sessionJson('20260220-a'),
      [`${S}/20260220-a/runs/20260220-001-x/run.json`]: runJson('20260220-a', '20260220-001-x'),
      [`${S}/20260220-a/runs/20260220-001-x/knowledge-delta.json`]: deltaJson('20260220-a', '20260220-001-x', cid),
      [`${S}/20260220-a/runs/20260220-002-x/run.json`]: runJson('20260220-a', '20260220-002-x'),
      [`${S}/20260220-a/runs/20260220-002-x/knowledge-delta.json`]: deltaJson('20260220-a', '20260220-002-x', cid),
      [`${S}/20260220-b/session.json`]: sessionJson('20260220-b'),
      [`${S}/20260220-b/runs/20260220-001-x/run.json`]: runJson('20260220-b', '20260220-001-x'),
      [`${S}/20260220-b/runs/20260220-001-x/knowledge-delta.json`]: deltaJson('20260220-b', '20260220-001-x', cid),
    });
    const { snapshot, consumption } = readPipeline(workflowLayout(root), fileReceipts);
    expect(snapshot.problems).toEqual([]);
    expect(snapshot.sessions.map((s) => [s.session_id, s.pending_observed, s.pending_corroborated, s.runs])).toEqual([
      ['20260220-a', 0, 1, 2],
      ['20260220-b', 1, 0, 1],
    ]);
    expect(consumption.get('S-20260201-new')).toBe(6);
  });

  it('turns a corrupted ledger, a {} session.json, a bad run.json and a bad receipt into problems', () => {
    const root = tmpProject({
      ...pendingSession(['S-20260101-old']),
      [`${S}/20260220-work/runs/20260220-001-x/knowledge-reconciliation.json`]: '{"schema_version":"other"}',
      [`${S}/20260220-work/runs/20260220-002-x/run.json`]: runJson('20260220-work', '20260220-002-x'),
      [`${S}/20260220-work/runs/20260220-002-x/knowledge-delta.json`]: '{ not json',
      [`${S}/20260220-work/runs/20260220-003-x/run.json`]: '[]',
      [`${S}/20260220-empty/session.json`]: '{}',
    });
    const { snapshot } = readPipeline(workflowLayout(root), fileReceipts);
    expect(snapshot.problems.map((p) => [p.kind, p.session_id, p.run_id])).toEqual([
      ['session', '20260220-empty', null],
      ['run', '20260220-work', '20260220-003-x'],
      ['ledger', '20260220-work', '20260220-002-x'],
      ['receipt', '20260220-work', '20260220-001-x'],
    ]);
    expect(snapshot.problems[2].file).toBe(`${S}/20260220-work/runs/20260220-002-x/knowledge-delta.json`);
    expect(snapshot.pendingTargets).toEqual([]);
  });
});

describe('pending-target guard', () => {
  const fresh = (isFresh: boolean): ReceiptSource => ({ read: fileReceipts.read, fresh: () => isFresh });

  it('flags an action whose target a pending candidate with a fresh receipt matches; --apply skips it', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED, ...pendingSession(['S-20260101-old']) });
    const plan = (await run(root, { prune: true })).prune_plan!;
    expect(plan.actions[0].pending_targets).toEqual([
      { candidate_id: 'KDC-0123456789abcdef', session_id: '20260220-work', run_id: '20260220-001-x' },
    ]);
    const before = readTree(root);
    const r = await run(root, { prune: true, apply: true });
    expect(r.applied).toMatchObject({ count: 0, skipped_pending_targets: [plan.actions[0].id], backup_id: null });
    expect(readTree(root)).toEqual(before);
    const forced = await run(root, { prune: true, apply: true, includePendingTargets: true });
    expect(forced.applied?.count).toBe(1);
  });

  it('ignores stale receipts, receipts of other entries, and candidates no longer pending', async () => {
    const stale = tmpProject({ [SPEC]: UNSYNCED, ...pendingSession(['S-20260101-old']) });
    expect((await run(stale, { prune: true, receipts: fresh(false) })).prune_plan?.actions[0].pending_targets).toEqual(
      [],
    );
    const other = tmpProject({ [SPEC]: UNSYNCED, ...pendingSession(['S-20260201-new']) });
    expect((await run(other, { prune: true })).prune_plan?.actions[0].pending_targets).toEqual([]);
    const promoted = pendingSession(['S-20260101-old']);
    const key = Object.keys(promoted).find((k) => k.endsWith('knowledge-delta.json'))!;
    promoted[key] = promoted[key].replace('"status": "pending"', '"status": "rejected"');
    const done = tmpProject({ [SPEC]: UNSYNCED, ...promoted });
    expect((await run(done, { prune: true })).prune_plan?.actions[0].pending_targets).toEqual([]);
  });
});

describe('exposure counters', () => {
  it('are read through the injected reader; a warning or their absence is noted, not fatal', async () => {
    const root = tmpProject({ [SPEC]: UNSYNCED });
    const none = await run(root);
    expect(none.usage.exposure.available).toBe(false);
    expect(none.notes).toContain('exposure counters are not available; exposure concentration was not judged');
    const broken = await run(root, { exposure: () => ({ counts: null, warning: 'exposure.json is unreadable' }) });
    expect(broken.notes[0]).toBe('exposure.json is unreadable');
    const counted = await run(root, { exposure: () => ({ counts: new Map([['S-20260201-new', 3]]) }) });
    expect(counted.usage.exposure).toMatchObject({ available: true, events: 3, entries: 2 });
    expect(counted.notes).toEqual([]);
  });
});
